"""Types shared by every feature's request and response Structs."""

from __future__ import annotations

from typing import Annotated, Generic, TypeVar

import msgspec

T = TypeVar("T")

# PostgreSQL text and jsonb cannot hold NUL characters; reject them at the door, with the field named.
_NO_NUL = "^[^\\x00]*$"
_NON_EMPTY = "^[^\\x00]*[^\\x00\\s][^\\x00]*$"

Text = Annotated[str, msgspec.Meta(pattern=_NO_NUL)]
"""Free text (may be empty)."""

NonEmptyText = Annotated[str, msgspec.Meta(pattern=_NON_EMPTY)]
"""Text with at least one character that is not white space."""

# The same two rules, documented in the OpenAPI schema but not checked by msgspec. For bodies with
# dozens of strings (a Checkpoint's content) msgspec's per-string regex cost about a sixth of a
# commit's CPU; such bodies are checked by their own code instead
# (`smriti.checkpoints.hashing.encode_content`).
DocumentedText = Annotated[str, msgspec.Meta(extra_json_schema={"extra": {"pattern": _NO_NUL}})]
DocumentedNonEmptyText = Annotated[str, msgspec.Meta(extra_json_schema={"extra": {"pattern": _NON_EMPTY}})]

ShortName = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=_NON_EMPTY)]
"""A name, 1–200 characters, not only white space."""

RequestId = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern="^[A-Za-z0-9._:-]+$")]
"""A client-chosen idempotency key."""


MAX_INT4 = 2_147_483_647
"""Sequence numbers and offsets are PostgreSQL integers; anything larger is refused at the door."""

SequenceNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT4)]


class Page(msgspec.Struct, Generic[T]):
    """One page of a list."""

    items: list[T]
    total: int
    limit: int
    offset: int


class Request(msgspec.Struct, forbid_unknown_fields=True):
    """Base for request bodies: unknown fields are an error, not silently ignored."""
