"""Review of a merge before it is saved: the merged state reviewed like any Checkpoint, and each
finding that only the combination of the two lines produces said to be one.

A finding points at items of the merged state. When neither line had all of those items (one
came from ours only and another from theirs only, or a person wrote one while resolving), no
review of either line could have seen it: it comes from combining them, and the person merging
should look at it before saving.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, get_args
from uuid import UUID

from smriti.checkpoints.schemas import Checkpoint
from smriti.merges.schemas import MergeFinding, MergePreview, MergeReview, MergeReviewRequest, MergeState
from smriti.merges.service import MergeService
from smriti.review.schemas import Finding, RefField, ReviewRequest
from smriti.review.service import ReviewService


@dataclass(frozen=True, slots=True)
class MergeReviewService:
    merges: MergeService
    reviews: ReviewService

    async def review(self, repo_id: UUID, data: MergeReviewRequest) -> MergeReview:
        run = await self.merges.run(repo_id, data.ours, data.theirs)
        preview, ours, theirs = run.preview, run.ours, run.theirs
        result = await self.reviews.review_state(
            _as_checkpoint(data.merged, preview, repo_id), ReviewRequest(provider=data.provider, model=data.model)
        )
        # Each side's items by field, looked up once for every finding.
        ours_keys = {field: _keys(ours, field) for field in _REF_FIELDS}
        theirs_keys = {field: _keys(theirs, field) for field in _REF_FIELDS}
        findings = [_classified(finding, data.merged, ours_keys, theirs_keys) for finding in result.findings]
        return MergeReview(
            base_commit_id=preview.base_commit_id,
            ours_commit_id=preview.ours_commit_id,
            theirs_commit_id=preview.theirs_commit_id,
            findings=findings,
            reviewed_by=result.reviewed_by,
            limits=result.limits,
        )


def _as_checkpoint(state: MergeState, preview: MergePreview, repo_id: UUID) -> Checkpoint:
    """The unsaved merge as a Checkpoint for the review's rules (which read only its content)."""
    return Checkpoint(
        id=preview.ours_commit_id,
        repo_id=repo_id,
        parent_commit_id=preview.ours_commit_id,
        merge_parent_id=preview.theirs_commit_id,
        commit_hash="",
        message="Merge (not saved yet)",
        metadata={},
        created_at=datetime.datetime.now(datetime.UTC),
        **{name: getattr(state, name) for name in MergeState.__struct_fields__},
    )


# The fields a finding can point into (`review.schemas.RefField`).
_REF_FIELDS: tuple[str, ...] = get_args(RefField)


def _key(field: str, item: Any) -> str:
    """An item's identity in a merge: its text (tasks: text; entities: name)."""
    if field == "tasks":
        return str(item.text)
    if field in ("entities", "artifacts"):
        return str(item.name)
    return str(item)


def _keys(checkpoint: Checkpoint | MergeState, field: str) -> set[str]:
    return {_key(field, item) for item in getattr(checkpoint, field)}


def _classified(
    finding: Finding, merged: MergeState, ours: dict[str, set[str]], theirs: dict[str, set[str]]
) -> MergeFinding:
    items = [(ref.field, _key(ref.field, getattr(merged, ref.field)[ref.index])) for ref in finding.refs]
    in_ours = all(key in ours[field] for field, key in items)
    in_theirs = all(key in theirs[field] for field, key in items)
    from_merge = bool(items) and not in_ours and not in_theirs
    detail = finding.detail
    if from_merge:
        detail += " This comes from combining the two lines: neither had all of these items."
    return MergeFinding(
        kind=finding.kind,
        detail=detail,
        refs=finding.refs,
        source=finding.source,
        rival=finding.rival,
        from_merge=from_merge,
    )
