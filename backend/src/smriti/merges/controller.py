"""API v5: preview a merge of two lines (or two Checkpoints) of a Space."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from smriti.core.error_docs import error_responses
from smriti.core.routes import READS, access
from smriti.merges.review import MergeReviewService
from smriti.merges.schemas import MergePreview, MergeReview, MergeReviewRequest
from smriti.merges.service import MergeService

_SIDE = (
    "A line's name (matched whatever its case, Unicode form or spacing), else a Checkpoint id, full hash or unique "
    "prefix of this Space: a line's name comes first."
)


@get(
    "/repos/{repo_id:str}/merge",
    operation_id="previewMerge",
    summary="Merge theirs into ours, three-way, without saving anything",
    description=(
        "Against the nearest common ancestor over both parent links. Items are keyed by text (tasks by text, "
        "entities and artifacts by name): a change made on one side only is taken, the same change on both "
        "sides once; an item changed differently on both sides, or removed on one and changed on the other, "
        "and a summary changed differently on both, are conflicts, for which `merged` keeps ours. Save the "
        "resolved state with `POST /v4/chat/commit` and `merge_parent_id` = `theirs_commit_id` (docs/merge.md)."
    ),
    tags=["Lines"],
    responses=error_responses(404),
)
async def preview_merge(
    repo_id: FromPath[UUID],
    ours: Annotated[str, QueryParameter(description=f"The side merged into. {_SIDE}", min_length=1, max_length=200)],
    theirs: Annotated[str, QueryParameter(description=f"The side merged in. {_SIDE}", min_length=1, max_length=200)],
    merges: NamedDependency[MergeService],
) -> MergePreview:
    return await merges.preview(repo_id, ours, theirs)


@post(
    "/repos/{repo_id:str}/merge/review",
    operation_id="reviewMerge",
    summary="Review a merge's resolved state before saving it",
    description=(
        "`merged` is the state about to be saved as the merge of `theirs` into `ours` (as in the preview). "
        "It is reviewed like a Checkpoint (on demand, rules and, with a model-backed provider, the model); "
        "a finding whose items no single line had is marked `from_merge`. Nothing is saved."
    ),
    status_code=200,
    tags=["Lines"],
    responses=error_responses(404, 429, 502, 504),
    opt=access(READS),
)
async def review_merge(
    repo_id: FromPath[UUID], data: JSONBody[MergeReviewRequest], merge_reviews: NamedDependency[MergeReviewService]
) -> MergeReview:
    return await merge_reviews.review(repo_id, data)
