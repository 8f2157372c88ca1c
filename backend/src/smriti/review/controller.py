from __future__ import annotations

from uuid import UUID

from litestar import post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from smriti.core.error_docs import error_responses
from smriti.core.routes import READS, access
from smriti.review.schemas import ReviewRequest, ReviewResult
from smriti.review.service import ReviewService


@post(
    "/commits/{commit_id:str}/review",
    operation_id="reviewCheckpoint",
    summary="Review a Checkpoint for contradictions, hidden assumptions, answered questions, loose entities",
    description="On demand only. Deterministic checks always run; a configured model adds what rules cannot see.",
    status_code=200,
    tags=["Checkpoints"],
    responses=error_responses(404, 429, 502, 504),
    opt=access(READS),
)
async def review_checkpoint(
    commit_id: FromPath[UUID], data: JSONBody[ReviewRequest], reviews: NamedDependency[ReviewService]
) -> ReviewResult:
    return await reviews.review(str(commit_id), data)
