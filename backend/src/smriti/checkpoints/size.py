"""The largest Checkpoint a write may make.

A commit's content arrives in a request body, so the body limit (`SMRITI_MAX_BODY_BYTES`) bounds
it; apply, restore and a merge build theirs from stored state plus a small request, so nothing
bounded them: applies that each added an artifact made every Checkpoint larger than the one
before, and the Space's storage and its export grew with the square of what was sent. Every
write that makes a Checkpoint is therefore held to the body limit, measured the same way for all
of them: the canonical JSON its `content_sha256` covers (`EncodedContent.size`, counted from the
bytes the commit encodes anyway). An import keeps history as it was, so it is not held to this.
"""

from __future__ import annotations

from smriti.checkpoints.hashing import EncodedContent
from smriti.core.errors import TooLarge


def check_size(content: EncodedContent, limit: int) -> None:
    """413 naming the limit and the setting when the Checkpoint's content is over `limit` bytes."""
    if content.size <= limit:
        return
    largest = max(content.fields, key=lambda name: len(content.fields[name]))
    raise TooLarge(
        f"This Checkpoint would be {content.size:,} bytes (its content as the canonical JSON its hash "
        f"covers), over the limit of {limit:,} bytes that every Checkpoint is held to (SMRITI_MAX_BODY_BYTES). "
        f"Nothing was written. Its largest field is {largest} ({len(content.fields[largest]):,} bytes): "
        "remove or shorten items (apply's `remove` drops them from what the parent carries).",
        limit_bytes=limit,
    )
