from __future__ import annotations

from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import Entity, Task
from smriti.core.schemas import Request, SequenceNumber, ShortName


class DraftRequest(Request, kw_only=True):
    session_id: UUID
    history_base_seq: SequenceNumber | None = None
    """Draft only from Turns above this boundary (the mount boundary when a Checkpoint is mounted)."""
    provider: ShortName | None = None
    model: ShortName | None = None


class DraftSource(msgspec.Struct):
    """The Turn range a draft came from; store it in the Checkpoint's `metadata.source`."""

    session_id: UUID
    from_seq: int
    to_seq: int


class DraftedBy(msgspec.Struct):
    provider: str
    model: str


class CheckpointDraft(msgspec.Struct, kw_only=True):
    """A proposed Checkpoint for a person to edit and save. Nothing is stored by drafting."""

    message: str
    summary: str
    decisions: list[str]
    assumptions: list[str]
    tasks: list[Task]
    open_questions: list[str]
    entities: list[Entity]
    source: DraftSource
    drafted_by: DraftedBy
