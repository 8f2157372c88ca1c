"""A Space bundle, format `smriti-space` version 1: the lines of an export, as msgspec types.

One JSON object per line (ndjson). The first line names the format and holds the Space; every
other line has a `type`: the Checkpoints (each before any Checkpoint that names it as a parent),
the lines (`branch`), then each Session followed by its Turns in order, and last an `end` line
that counts them, so that a bundle cut short is refused rather than imported in part. Only what
cannot be recomputed is in it: the derived columns (a Checkpoint's depth and jump link, a
line's copy of its HEAD's chain, a Session's usage, the Space's HEAD) are rebuilt on import.
docs/bundles.md is the reader's description; the two must agree.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import CheckpointContent

FORMAT = "smriti-space"
VERSION = 1

Moment = Annotated[datetime.datetime, msgspec.Meta(tz=True)]
Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
Count = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]
Sequence = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
# Text is checked by `check.py` (NUL, lone surrogates, length), so the error names the line.


class SpaceRecord(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    id: UUID
    name: str
    description: str = ""
    created_at: Moment
    updated_at: Moment


class Header(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    format: str
    version: int
    space: SpaceRecord


class CheckpointLine(CheckpointContent, tag_field="type", tag="checkpoint", forbid_unknown_fields=True, kw_only=True):
    """Every field of a Checkpoint that its `commit_hash` covers, and the hash."""

    id: UUID
    parent_commit_id: UUID | None = None
    merge_parent_id: UUID | None = None
    commit_hash: Digest
    created_at: Moment


class BranchLine(msgspec.Struct, tag_field="type", tag="branch", forbid_unknown_fields=True, kw_only=True):
    id: UUID
    name: str
    is_default: bool
    head_commit_id: UUID | None
    head_commit_hash: Digest | None
    commit_count: Count
    """The Checkpoints made on this line; the Space's lines' counts add up to its Checkpoints."""
    created_at: Moment
    updated_at: Moment
    protected: bool = False
    """Only the person changes it (SYSTEM.md §13); a bundle made before lines were protected has
    no such field, and its lines load unprotected."""


class SessionLine(msgspec.Struct, tag_field="type", tag="session", forbid_unknown_fields=True, kw_only=True):
    id: UUID
    title: str = ""
    provider: str | None = None
    model: str | None = None
    last_seq: Count
    """Its Turns follow it, numbered 1..last_seq."""
    base_commit_id: UUID | None = None
    forked_from_session_id: UUID | None = None
    forked_from_seq: Count | None = None
    created_at: Moment
    updated_at: Moment


class TurnLine(msgspec.Struct, tag_field="type", tag="turn", forbid_unknown_fields=True, kw_only=True):
    session_id: UUID
    sequence_number: Sequence
    role: Literal["user", "assistant"]
    content: str
    provider: str | None = None
    model: str | None = None
    checkpoint_id: UUID | None = None
    history_base_seq: Count | None = None
    input_tokens: Count | None = None
    output_tokens: Count | None = None
    request_id: str | None = None
    created_at: Moment
    retry_of: Sequence | None = None
    stopped: bool = False
    context_sha256: Digest | None = None
    context_through_seq: Count | None = None
    at_limit: bool = False


class EndLine(msgspec.Struct, tag_field="type", tag="end", forbid_unknown_fields=True, kw_only=True):
    checkpoints: Count
    branches: Count
    sessions: Count
    turns: Count


Record = CheckpointLine | BranchLine | SessionLine | TurnLine | EndLine

# The columns a Session's and a Turn's lines carry, in order: what export reads and import writes.
SESSION_FIELDS: tuple[str, ...] = SessionLine.__struct_fields__
TURN_FIELDS: tuple[str, ...] = TurnLine.__struct_fields__

decode_header = msgspec.json.Decoder(Header).decode
decode_record = msgspec.json.Decoder(Record).decode
encode_line = msgspec.json.Encoder().encode
