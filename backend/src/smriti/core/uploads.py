"""Request bodies read as they arrive, for the imports that take more than a request's limit."""

from __future__ import annotations

from collections.abc import AsyncIterator

from smriti.core.errors import TooLarge


async def within(chunks: AsyncIterator[bytes], limit: int, what: str) -> AsyncIterator[bytes]:
    """The body's chunks, refused with a 413 as soon as they pass `limit` bytes (the setting
    SMRITI_MAX_IMPORT_BYTES), before the rest is read."""
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"{what} is larger than SMRITI_MAX_IMPORT_BYTES ({limit} bytes).", limit_bytes=limit)
        yield chunk
