"""What a Checkpoint holds, as it travels over the wire."""

from __future__ import annotations

import datetime
from typing import Any
from uuid import UUID

import msgspec

from smriti.core.schemas import DocumentedNonEmptyText as NonEmptyText
from smriti.core.schemas import DocumentedText as Text
from smriti.core.schemas import LineRef, Request


class Task(msgspec.Struct, forbid_unknown_fields=True):
    text: NonEmptyText
    done: bool = False


class Entity(msgspec.Struct, forbid_unknown_fields=True):
    name: NonEmptyText
    kind: Text | None = None
    description: Text | None = None


class Artifact(msgspec.Struct, forbid_unknown_fields=True):
    name: NonEmptyText
    content: Text
    media_type: NonEmptyText = "text/plain"


class CheckpointContent(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The reasoning state a Checkpoint saves. Everything here is covered by `commit_hash`.

    The text rules (no NUL; non-empty where required) are checked when a Checkpoint is committed
    (`hashing.encode_content`), not by msgspec per string.
    """

    message: NonEmptyText
    summary: Text = ""
    decisions: list[NonEmptyText] = []
    assumptions: list[NonEmptyText] = []
    tasks: list[Task] = []
    open_questions: list[NonEmptyText] = []
    entities: list[Entity] = []
    artifacts: list[Artifact] = []
    metadata: dict[str, Any] = {}


class CommitCreate(CheckpointContent, Request, kw_only=True):
    """`POST /v4/chat/commit`.

    The commit goes to the line `branch` (default: the Space's default line, whose HEAD is the
    Space's HEAD). `parent_commit_id` defaults to that line's HEAD. `expected_head_commit_id`
    makes the commit a compare-and-swap: if the line's HEAD is not that Checkpoint (or, when it
    is `null`, if the line already has a HEAD), nothing is written and the answer is 409.
    """

    repo_id: UUID
    branch: LineRef | None = None
    parent_commit_id: UUID | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET
    merge_parent_id: UUID | None = None
    """Makes this a merge: the Checkpoint merged in (the line's HEAD, or `parent_commit_id`, is
    the first parent). A Checkpoint of this Space other than the first parent; `commit_hash`
    covers both parents' hashes."""


class SetFields(Request, kw_only=True):
    summary: Text | msgspec.UnsetType = msgspec.UNSET


class ItemAdditions(Request, kw_only=True):
    decisions: list[NonEmptyText] = []
    assumptions: list[NonEmptyText] = []
    open_questions: list[NonEmptyText] = []
    tasks: list[Task] = []
    entities: list[Entity] = []
    artifacts: list[Artifact] = []


class ItemRemovals(Request, kw_only=True):
    """Items by text; tasks by their text, entities and artifacts by name."""

    decisions: list[str] = []
    assumptions: list[str] = []
    open_questions: list[str] = []
    tasks: list[str] = []
    entities: list[str] = []
    artifacts: list[str] = []


class ApplyRequest(Request, kw_only=True):
    """`POST /v5/checkpoints/apply`: the parent's state (default: the line's HEAD; none: empty)
    with these changes, committed with the same compare-and-swap rules as a commit."""

    repo_id: UUID
    message: NonEmptyText
    branch: LineRef | None = None
    parent_commit_id: UUID | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET
    merge_parent_id: UUID | None = None
    """Makes the new Checkpoint a merge, as on a commit: the changes describe the merged state."""
    set_: SetFields = msgspec.field(default_factory=SetFields, name="set")
    add: ItemAdditions = msgspec.field(default_factory=ItemAdditions)
    remove: ItemRemovals = msgspec.field(default_factory=ItemRemovals)
    complete_tasks: list[str] = []
    """Tasks, by text, to mark done."""
    metadata: dict[str, Any] = {}
    """Merged over the parent's metadata (top-level keys replaced), whose provenance keys
    (`source`, `author`, `claimed_author`, `drafted_by`, `restored_from`) are not inherited."""


class RestoreRequest(Request, kw_only=True):
    """`POST /v5/commits/{ref}/restore`: a new Checkpoint on the line (default: the default line)
    whose content equals `ref`'s, with `metadata.restored_from`; its parent is the line's HEAD."""

    branch: LineRef | None = None
    message: NonEmptyText | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


class Checkpoint(msgspec.Struct, kw_only=True):
    id: UUID
    repo_id: UUID
    parent_commit_id: UUID | None
    merge_parent_id: UUID | None
    """The second parent of a merge Checkpoint; null otherwise."""
    commit_hash: str
    message: str
    summary: str
    decisions: list[str]
    assumptions: list[str]
    tasks: list[Task]
    open_questions: list[str]
    entities: list[Entity]
    artifacts: list[Artifact]
    metadata: dict[str, Any]
    created_at: datetime.datetime


CHECKPOINT_FIELDS: tuple[str, ...] = Checkpoint.__struct_fields__
"""A Checkpoint's fields in the order the API sends them, which are also its columns in
`commits`: the one declaration that the SQL column lists, the JSON PostgreSQL builds for the hot
reads (`store.checkpoint_json_sql`) and a commit's answer all follow."""


class VerifyProblem(msgspec.Struct):
    commit_id: UUID | None
    """The Checkpoint the problem is about; null for a problem of the Space as a whole."""
    kind: str
    """`hash_mismatch`, `unreadable`, `missing_parent`, `foreign_parent`, `missing_merge_parent`,
    `foreign_merge_parent`, `depth_mismatch`, `jump_mismatch`, `merge_count_mismatch`,
    `head_missing`, `head_hash_mismatch`, `head_depth_mismatch`, `head_links_mismatch`, `head_mismatch`,
    `default_line_missing`, `count_mismatch` or `anchor_missing`."""
    detail: str


class VerifyReport(msgspec.Struct):
    repo_id: UUID
    checked: int
    ok: bool
    problems: list[VerifyProblem]
