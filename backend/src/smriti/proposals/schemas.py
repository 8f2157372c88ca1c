"""Proposals as they travel over the wire (SYSTEM.md §13): what opens, merges and closes one, and
what a proposal looks like in a list and on its own page."""

from __future__ import annotations

import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from smriti.access.schemas import Author
from smriti.core.schemas import NON_EMPTY_PATTERN, LineRef, Request
from smriti.merges.schemas import ConflictingItem, MergePreview, MergeRelation, MergeState

ProposalStatus = Literal["open", "merged", "closed"]

MAX_TITLE = 200
MAX_DESCRIPTION = 20_000
MAX_REASON = 2_000

Title = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TITLE, pattern=NON_EMPTY_PATTERN)]
Description = Annotated[str, msgspec.Meta(max_length=MAX_DESCRIPTION, pattern="^[^\\x00]*$")]
Reason = Annotated[str, msgspec.Meta(max_length=MAX_REASON, pattern="^[^\\x00]*$")]
MergeMessage = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TITLE + 100, pattern=NON_EMPTY_PATTERN)]


class ProposalCreate(Request, kw_only=True):
    """`POST /v5/repos/{repo_id}/proposals`: merge the line `from` into the line `into` (default:
    the Space's default line)."""

    from_: LineRef = msgspec.field(name="from")
    into: LineRef | None = None
    title: Title
    description: Description = ""


class ProposalMerge(Request, kw_only=True):
    """`POST …/proposals/{number}/merge` (the person only). Every field may be left out, and so may
    the body: a merge without conflicts saves the preview's `merged` state."""

    merged: MergeState | None = None
    """The resolved whole state to save; required when the merge has conflicts."""
    message: MergeMessage | None = None
    """The merge Checkpoint's message; default `Merge proposal #N: <title>`."""
    expected_into_head_commit_id: UUID | None = None
    """Refuse (409, nothing written) unless `into`'s HEAD is still this Checkpoint."""
    expected_from_head_commit_id: UUID | None = None
    """Refuse (409, nothing written) unless `from`'s HEAD is still this Checkpoint."""


class ProposalClose(Request, kw_only=True):
    """`POST …/proposals/{number}/close` (the person, or the agent that opened it)."""

    reason: Reason | None = None


class Proposal(msgspec.Struct, kw_only=True):
    """A proposal as listed. Its lines are followed by id: `from` and `into` are their names now
    (a rename is followed), null once a line is deleted; `from_name` and `into_name` are the names
    they had when it was opened, kept whatever happens to the lines."""

    id: UUID
    repo_id: UUID
    number: int
    """From 1 in each Space."""
    from_: str | None = msgspec.field(name="from")
    into: str | None
    from_name: str
    into_name: str
    from_deleted: bool
    """The line `from` was deleted: nothing comes in any more, and the proposal cannot be merged."""
    into_deleted: bool
    title: str
    description: str
    status: ProposalStatus
    created_by: Author | None
    """The agent that opened it; null: the person."""
    merge_commit_id: UUID | None
    """The merge Checkpoint on `into`, once merged."""
    closed_reason: str | None
    created_at: datetime.datetime
    updated_at: datetime.datetime


class ProposalDetail(Proposal, kw_only=True):
    """A proposal with the merge of its lines' HEADs as they are now (opening one answers this too)."""

    from_head_commit_id: UUID | None
    into_head_commit_id: UUID | None
    relation: MergeRelation | None
    """`up_to_date`: nothing of `from` is missing from `into` (also when both are at one
    Checkpoint); null when a line is deleted or has no Checkpoint."""
    conflicts: list[ConflictingItem]
    preview: MergePreview | None
    """`from` merged into `into` (`GET …/merge`'s shape); null when there is nothing to merge
    (`relation` null, or both lines at one Checkpoint)."""
