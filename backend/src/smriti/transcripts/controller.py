from __future__ import annotations

from litestar import Response, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from smriti.core.errors import error_responses
from smriti.sessions.schemas import session_location
from smriti.transcripts.schemas import TranscriptImport, TranscriptResult
from smriti.transcripts.service import TranscriptService


@post(
    "/transcripts",
    operation_id="ingestTranscript",
    summary="Legacy: parse a pasted transcript into Turns and a text context pack",
    description=(
        "Kept for backfilling. With `repo_id` the Turns are also stored as a new Session of that Space "
        "(numbered 1..n); `session_id` is null otherwise."
    ),
    status_code=201,
    tags=["Legacy"],
    responses=error_responses(404, 413),
)
async def ingest_transcript(
    data: JSONBody[TranscriptImport], transcripts: NamedDependency[TranscriptService]
) -> Response[TranscriptResult]:
    result = await transcripts.ingest(data)
    # Without `repo_id` nothing is stored, so there is no new resource to point at.
    headers = {"Location": session_location(result.session_id)} if result.session_id is not None else None
    return Response(result, headers=headers)
