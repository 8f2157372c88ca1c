from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

from smriti.core.schemas import Request, ShortName

FindingKind = Literal["contradiction", "hidden_assumption", "resolved_question", "disconnected_entity"]
RefField = Literal["decisions", "assumptions", "tasks", "open_questions", "entities"]
RivalKind = Literal["negation", "ruled_out", "same_slot"]
"""How two items make rival choices (`review/statements.py`): one negates the other ("Use X" / "Do
not use X"), one chooses what the other rules out ("X instead of Y" / "Y"), or both give one slot
different values ("Stay in Baixa" / "Stay in Graca")."""


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
    rival: RivalKind | None = None
    """For a contradiction the rules found: which kind of rival choice the two items make."""


class RivalChoice(msgspec.Struct, kw_only=True):
    """Two items, a decision and another decision or an assumption, that make rival choices: the
    pairs the review reports as contradictions (`rival`), found by the same rules."""

    kind: RivalKind
    refs: list[ItemRef]
    """The two items, the earlier first."""
    detail: str


class ReviewedBy(msgspec.Struct):
    provider: str
    model: str


class ReviewResult(msgspec.Struct):
    commit_id: UUID
    findings: list[Finding]
    reviewed_by: ReviewedBy
    limits: list[str] = []
    """What the review did not look at (a very large Checkpoint), in words; empty when nothing."""
