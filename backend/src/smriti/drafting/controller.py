from __future__ import annotations

from litestar import post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from smriti.access.scope import require_session
from smriti.core.error_docs import error_responses
from smriti.core.routes import READS, access
from smriti.drafting.schemas import CheckpointDraft, DraftRequest
from smriti.drafting.service import DraftService


@post(
    "/checkpoints/draft",
    operation_id="draftCheckpoint",
    summary="Draft a Checkpoint from the Turns in scope (nothing is saved)",
    description=(
        "Only the Turns of the Session above `history_base_seq` are sent to the provider — never an "
        "earlier Checkpoint. The draft carries `source` and `drafted_by` for the Checkpoint's metadata."
    ),
    status_code=200,
    tags=["Checkpoints"],
    responses=error_responses(404, 429, 502, 504),
    opt=access(READS),
)
async def draft_checkpoint(data: JSONBody[DraftRequest], drafts: NamedDependency[DraftService]) -> CheckpointDraft:
    await require_session(data.session_id)
    return await drafts.draft(data)
