"""Request and response shapes of the line, carry-forward, restore and merge endpoints, for the agent client.

The server's own Structs for these (`smriti.lines.schemas`, `smriti.checkpoints.carry`,
`smriti.checkpoints.verbs`, `smriti.merges.schemas`) import the server's error handling and with it Litestar, which
would add about a second to every `smriti` command. These mirrors hold the same fields, and
`tests/client/test_cli_lines.py` checks that they still do, so a field renamed on the server fails a
test instead of being silently dropped here.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import Artifact, Entity, Task
from smriti.review.schemas import RivalChoice


class Line(msgspec.Struct, kw_only=True):
    """A line of Checkpoints of a Space (internal name: branch), as `GET …/branches` answers it."""

    name: str
    head_commit_id: UUID | None
    head_commit_hash: str | None
    is_default: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime


class LineCreate(msgspec.Struct, kw_only=True, omit_defaults=True):
    name: str
    from_ref: str | None = None


class LineUpdate(msgspec.Struct, kw_only=True):
    """Only the fields that are set are sent: the server tells "not given" from a value."""

    name: str | msgspec.UnsetType = msgspec.UNSET
    is_default: bool | msgspec.UnsetType = msgspec.UNSET


class SetFields(msgspec.Struct, kw_only=True):
    summary: str | msgspec.UnsetType = msgspec.UNSET


class ItemAdditions(msgspec.Struct, kw_only=True, omit_defaults=True):
    decisions: list[str] = []
    assumptions: list[str] = []
    open_questions: list[str] = []
    tasks: list[Task] = []
    entities: list[Entity] = []
    artifacts: list[Artifact] = []


class ItemRemovals(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Items by their text; tasks by text, entities and artifacts by name."""

    decisions: list[str] = []
    assumptions: list[str] = []
    open_questions: list[str] = []
    tasks: list[str] = []
    entities: list[str] = []
    artifacts: list[str] = []


class ApplyRequest(msgspec.Struct, kw_only=True, omit_defaults=True):
    """`POST /v5/checkpoints/apply`: the parent's state with these changes, as a new Checkpoint."""

    repo_id: UUID
    message: str
    branch: str | None = None
    parent_commit_id: UUID | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET
    merge_parent_id: UUID | None = None
    set_: SetFields = msgspec.field(default_factory=SetFields, name="set")
    add: ItemAdditions = msgspec.field(default_factory=ItemAdditions)
    remove: ItemRemovals = msgspec.field(default_factory=ItemRemovals)
    complete_tasks: list[str] = []
    metadata: dict[str, Any] = {}


class RestoreRequest(msgspec.Struct, kw_only=True, omit_defaults=True):
    """`POST /v5/commits/{ref}/restore`."""

    branch: str | None = None
    message: str | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


class MergeState(msgspec.Struct, kw_only=True):
    """The part of a Checkpoint a merge covers (`merged` in a preview). Every field is required
    here: a merged state is a whole state, and a field left out would be dropped from the line."""

    summary: str
    decisions: list[str]
    assumptions: list[str]
    tasks: list[Task]
    open_questions: list[str]
    entities: list[Entity]
    artifacts: list[Artifact]


class MergeConflict(msgspec.Struct, kw_only=True):
    """An item both sides changed differently (or one removed and the other changed); a side's value
    is the summary's text, the task, entity or artifact as an object, or null where it is absent."""

    field: str
    key: str | None
    occurrence: int
    base: str | dict[str, Any] | None
    ours: str | dict[str, Any] | None
    theirs: str | dict[str, Any] | None


MergeRelation = Literal["diverged", "up_to_date", "fast_forward"]


class MergePreview(msgspec.Struct, kw_only=True):
    """`GET /v5/repos/{repo_id}/merge`: theirs merged into ours, three-way; nothing is saved."""

    base_commit_id: UUID | None
    base_candidates: list[UUID]
    ours_commit_id: UUID
    theirs_commit_id: UUID
    relation: MergeRelation
    merged: MergeState
    conflicts: list[MergeConflict]
    clean: bool
    rivals: list[RivalChoice] = []
    limits: list[str] = []
