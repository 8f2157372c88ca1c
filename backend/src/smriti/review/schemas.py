from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

from smriti.core.schemas import Request, ShortName

FindingKind = Literal["contradiction", "hidden_assumption", "resolved_question", "disconnected_entity"]
RefField = Literal["decisions", "assumptions", "tasks", "open_questions", "entities"]


class ReviewRequest(Request, kw_only=True):
    provider: ShortName | None = None
    model: ShortName | None = None


class ItemRef(msgspec.Struct, frozen=True):
    """One item of the Checkpoint: `decisions[2]` is {field: "decisions", index: 2}."""

    field: RefField
    index: int


class Finding(msgspec.Struct):
    kind: FindingKind
    detail: str
    refs: list[ItemRef]
    source: Literal["rules", "model"]


class ReviewedBy(msgspec.Struct):
    provider: str
    model: str


class ReviewResult(msgspec.Struct):
    commit_id: UUID
    findings: list[Finding]
    reviewed_by: ReviewedBy
    limits: list[str] = []
    """What the review did not look at (a very large Checkpoint), in words; empty when nothing."""
