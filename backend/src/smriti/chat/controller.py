from __future__ import annotations

import asyncio
from typing import Any, cast
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.response import Stream

from smriti.access.caller import Caller, current_caller
from smriti.access.scope import require_session
from smriti.chat.exchange import ChatService
from smriti.chat.schemas import AnsweredContext, ContextPreview, ContextRequest, SendRequest, SendResponse
from smriti.chat.streaming import StopReason
from smriti.core.error_docs import error_responses
from smriti.core.pagination import query_int
from smriti.core.path_params import SequenceNumberPath
from smriti.core.responses import EncodedJSON
from smriti.core.routes import READS, WRITES, access
from smriti.core.schemas import MAX_INT4
from smriti.core.streaming import EVENT_STREAM, STREAM_HEADERS, wants_event_stream

_encode = msgspec.json.Encoder().encode


async def _event_stream(chat: ChatService, data: SendRequest, caller: Caller) -> Stream:
    stream = chat.stream(data, agent=caller.agent)
    try:
        # A refusal (bad input, an unknown Session, a context too big) raises here: JSON, as ever.
        await asyncio.shield(stream.started)
    except asyncio.CancelledError:  # the client went away before the stream began
        stream.stop(StopReason.CLIENT_GONE)
        raise
    return Stream(stream.frames(), status_code=200, media_type=EVENT_STREAM, headers=STREAM_HEADERS)


class ChatController(Controller):
    path = "/chat"
    tags = ["Chat"]

    @post(
        "/send",
        operation_id="sendMessage",
        summary="Send a message in a Session and store the exchange",
        description=(
            "With `checkpoint_id` (a mounted Checkpoint), `history_base_seq` is required and the "
            "provider receives the Checkpoint's state plus only the Turns after the boundary. "
            "Both Turns are stored together after the provider answered; on a provider failure "
            "nothing is stored. A repeated `request_id` returns the stored pair. With `Accept: "
            "text/event-stream` the reply streams as Server-Sent Events (`context`, `delta`..., then "
            "`done` with this body, or `error`); refusals still answer as JSON before the stream. "
            "See docs/api.md."
        ),
        responses=error_responses(404, 409, 429, 502, 503, 504),
        opt=access(WRITES),
    )
    async def send_message(
        self,
        request: Request[Any, Any, Any],
        data: JSONBody[SendRequest],
        chat: NamedDependency[ChatService],
    ) -> Response[SendResponse]:
        await require_session(data.session_id)
        # The caller read where the guard put it, not as a second dependency: Litestar resolves
        # two in a task group, +21% of a send's instructions (bench/instructions.py send).
        caller = current_caller()
        if wants_event_stream(request.scope):
            # The OpenAPI document keeps the JSON body as the answer; the events are in docs/api.md.
            return cast("Response[SendResponse]", await _event_stream(chat, data, caller))
        sent = await chat.send(data, agent=caller.agent)
        # The pair just stored: the Turns after the one before it.
        after = sent.user_turn.sequence_number - 1
        # The id as msgspec writes it (C): Python's UUID.__str__ was most of the header's cost.
        session = _encode(data.session_id)[1:-1]
        pair = (b"location", b"/v4/sessions/%s/turns?after_seq=%d" % (session, after))
        return EncodedJSON(_encode(sent), headers=(pair,))

    @post(
        "/context",
        operation_id="previewContext",
        summary="Exactly what the provider would receive next, with token estimates",
        status_code=200,
        responses=error_responses(404),
        opt=access(READS),
    )
    async def preview_context(
        self, data: JSONBody[ContextRequest], chat: NamedDependency[ChatService]
    ) -> ContextPreview:
        await require_session(data.session_id)
        return await chat.preview(data)


class AnsweredContextController(Controller):
    tags = ["Chat"]

    @get(
        "/sessions/{session_id:str}/turns/{sequence_number:str}/context",
        operation_id="getAnsweredContext",
        summary="The context a reply was answered from, rebuilt, with its receipt",
        description=(
            "Rebuilds exactly what the provider was sent for reply `sequence_number` (an assistant "
            "Turn) from the Checkpoint and Turns it was sent with, and hashes it as the send did: "
            "`matches` says whether the hash is the reply's recorded `context_sha256`."
        ),
        responses=error_responses(404),
    )
    async def answered_context(
        self, session_id: FromPath[UUID], sequence_number: SequenceNumberPath, chat: NamedDependency[ChatService]
    ) -> AnsweredContext:
        seq = query_int("sequence_number", sequence_number, minimum=1, maximum=MAX_INT4, source="path")
        return await chat.answered(session_id, seq)
