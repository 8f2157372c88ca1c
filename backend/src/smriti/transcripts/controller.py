from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, Schema
from litestar.openapi.spec.enums import OpenAPIFormat, OpenAPIType
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.response import Stream

from smriti.access.caller import Caller
from smriti.access.scope import require_space
from smriti.core.error_docs import error_responses
from smriti.core.operation_docs import documented
from smriti.core.routes import NDJSON, WRITES, access, body_types
from smriti.sessions.schemas import session_location
from smriti.transcripts.schemas import ConversationImportResult, TranscriptImport, TranscriptResult
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
    opt=access(WRITES),
)
async def ingest_transcript(
    data: JSONBody[TranscriptImport], transcripts: NamedDependency[TranscriptService], caller: NamedDependency[Caller]
) -> Response[TranscriptResult]:
    if data.repo_id is not None:
        require_space(data.repo_id)
    result = await transcripts.ingest(data, agent=caller.agent)
    # Without `repo_id` nothing is stored, so there is no new resource to point at.
    headers = {"Location": session_location(result.session_id)} if result.session_id is not None else None
    return Response(result, headers=headers)


ZIP = "application/zip"
ZIP_ALIASES = ("application/x-zip-compressed",)
"""How Windows names a ZIP."""
_CONVERSATIONS = {
    "application/json": OpenAPIMediaType(
        schema=Schema(
            type=OpenAPIType.ARRAY,
            items=Schema(type=OpenAPIType.OBJECT),
            description="The conversations.json of a ChatGPT or Claude data export, or an Open WebUI chat export.",
        )
    ),
    ZIP: OpenAPIMediaType(
        schema=Schema(
            type=OpenAPIType.STRING,
            format=OpenAPIFormat.BINARY,
            description="A data export's ZIP, as it downloads: its conversations.json is read.",
        )
    ),
    NDJSON: OpenAPIMediaType(
        schema=Schema(
            type=OpenAPIType.STRING,
            description="A Claude Code session's transcript (`<sessionId>.jsonl`): one JSON object a line.",
        )
    ),
}


@post(
    "/repos/{repo_id:str}/import/conversations",
    operation_id="importConversations",
    summary="Import a ChatGPT, Claude, Open WebUI or Claude Code export's conversations as Sessions",
    description=(
        "The body is the `conversations.json` of a ChatGPT or Claude data export, or the ZIP the export downloads "
        "as, an Open WebUI chat export, or a Claude Code session's JSONL transcript, up to SMRITI_MAX_IMPORT_BYTES; "
        "the kind is told by the content, whatever the Content-Type (JSON, `application/zip` or "
        "`application/x-ndjson`). One Session per conversation, in the file's order, titles kept, Turns numbered "
        "1..n: what the user and the assistant said, in the order they said it (the branch last seen; messages "
        "in time order). Reasoning, tool calls and hidden messages are left out, and each Session's `left_out` "
        "counts them. A conversation this Space already holds (imported before: known by its own id) is "
        "skipped, naming its Session, unless `copies=true`. A conversation that cannot be read is listed in "
        "`skipped` with its reason; the rest are stored in one transaction. A file that is not such an export "
        "is a 400 and stores nothing; one conversation larger than SMRITI_MAX_BUNDLE_LINE_BYTES is a 413 "
        "naming it."
    ),
    status_code=201,
    request_max_body_size=None,
    tags=["Sessions"],
    responses={
        201: ResponseSpec(
            data_container=ConversationImportResult,
            description="Document created, URL follows",  # Litestar's own words for a 201, as the other routes
            generate_examples=False,
        ),
        **error_responses(404, 409, 413, 415),
    },
    # The body is read as it arrives (past the request limit), so Litestar does not describe it.
    operation_class=documented(request_body=_CONVERSATIONS),
    opt={**body_types(NDJSON, ZIP, *ZIP_ALIASES), **access(WRITES)},
)
async def import_conversations(
    repo_id: FromPath[UUID],
    request: Request[Any, Any, Any],
    transcripts: NamedDependency[TranscriptService],
    caller: NamedDependency[Caller],
    copies: Annotated[
        bool,
        QueryParameter(
            description="Import conversations this Space already holds again, as new Sessions (by default they "
            "are skipped, naming the Session that holds each)."
        ),
    ] = False,
) -> Stream:
    answer = await transcripts.import_conversations(
        repo_id, request.stream(), declared_bytes=request.content_length, copies=copies, agent=caller.agent
    )
    # The answer lists every conversation, so it is sent from the files it was written to (answer.py).
    return Stream(
        answer.body(),
        status_code=201,
        media_type="application/json",
        headers={"Location": f"/v4/repos/{repo_id}/sessions"},
    )
