"""A merge as it travels over the wire: its preview (`GET /v5/repos/{repo_id}/merge`) and its review
(`POST …/merge/review`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import Artifact, Entity, Task
from smriti.core.schemas import Request, ShortName
from smriti.review.schemas import Finding, ReviewedBy, RivalChoice


class MergeState(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The part of a Checkpoint that is merged."""

    summary: str = ""
    decisions: list[str] = []
    assumptions: list[str] = []
    tasks: list[Task] = []
    open_questions: list[str] = []
    entities: list[Entity] = []
    artifacts: list[Artifact] = []


ConflictValue = str | dict[str, Any] | None
"""One side's value of a conflicting item: the summary's text; a task, entity or artifact as its
object; null where that side does not have it."""


class ConflictingItem(msgspec.Struct, kw_only=True):
    """An item both sides changed, differently (or one removed and the other changed)."""

    field: str
    key: str | None
    """The item's text (tasks: `text`; entities, artifacts: `name`); null for the summary."""
    occurrence: int
    """0 for the first item with this key in its list, 1 for the second…: the same text twice in
    a list is two items."""
    base: ConflictValue
    ours: ConflictValue
    theirs: ConflictValue


MergeRelation = Literal["diverged", "up_to_date", "fast_forward"]


class MergePreview(msgspec.Struct, kw_only=True):
    """`theirs` merged into `ours`, three-way against their nearest common ancestor. Nothing is
    saved: the client resolves the conflicts and commits the whole state with `merge_parent_id`."""

    base_commit_id: UUID | None
    """The merge base; null when the two have no common ancestor (then the base is empty)."""
    base_candidates: list[UUID]
    """Every nearest common ancestor, the base first: more than one in a criss-cross history,
    where the newest was taken."""
    ours_commit_id: UUID
    theirs_commit_id: UUID
    relation: MergeRelation
    """`up_to_date`: theirs is already in ours' history (nothing comes in); `fast_forward`: ours
    is in theirs' history (merged is theirs); `diverged`: both changed since the base."""
    merged: MergeState
    """The merged state; for a conflict it holds ours' value until the person chooses."""
    conflicts: list[ConflictingItem]
    clean: bool
    """No conflicts: `merged` can be committed as it is."""
    rivals: list[RivalChoice]
    """Pairs of `merged`'s decisions (or a decision and an assumption) that make rival choices and
    that neither line had together: the item rules keep both ("Stay in Baixa" from one line, "Stay in
    Graca" from the other), so they are no conflict, but a person should see them before saving.
    Found by the review's own rules, which report the same pairs as contradictions. Empty for a
    fast-forward or when nothing came in."""
    limits: list[str] = []
    """What the search for rival choices did not compare (a very large state), in words."""


_Side = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class MergeReviewRequest(Request, kw_only=True):
    """`POST /v5/repos/{repo_id}/merge/review`: the state a person is about to save as the merge
    of `theirs` into `ours` (both as in the preview), reviewed on demand."""

    ours: _Side
    theirs: _Side
    merged: MergeState
    provider: ShortName | None = None
    model: ShortName | None = None


class MergeFinding(Finding, kw_only=True):
    from_merge: bool
    """True when neither line had every item the finding points at: it comes from combining them."""


class MergeReview(msgspec.Struct, kw_only=True):
    base_commit_id: UUID | None
    ours_commit_id: UUID
    theirs_commit_id: UUID
    findings: list[MergeFinding]
    reviewed_by: ReviewedBy
    limits: list[str] = []
