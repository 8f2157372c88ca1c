"""Request bodies read as they arrive, for the imports that take more than a request's limit."""

from __future__ import annotations

from collections.abc import AsyncIterator

from smriti.core.errors import TooLarge


async def within(
    chunks: AsyncIterator[bytes], limit: int, what: str, *, declared_bytes: int | None
) -> AsyncIterator[bytes]:
    """The body's chunks, refused with a 413 as soon as they pass `limit` bytes (the setting
    SMRITI_MAX_IMPORT_BYTES), before the rest is read. A body whose Content-Length
    (`declared_bytes`) is already past it is refused before any of it is read: reading up to
    the limit first only to refuse it cost the client the upload and the server the disk."""
    if declared_bytes is not None and declared_bytes > limit:
        raise _too_large(what, limit)
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise _too_large(what, limit)
        yield chunk


def _too_large(what: str, limit: int) -> TooLarge:
    return TooLarge(
        f"{what} is larger than SMRITI_MAX_IMPORT_BYTES ({limit:,} bytes); nothing was written. To import it, "
        "raise SMRITI_MAX_IMPORT_BYTES on this server (an import holds one line or conversation in memory at a "
        "time, so the setting bounds the disk it takes, not memory).",
        limit_bytes=limit,
    )
