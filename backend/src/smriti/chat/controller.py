from __future__ import annotations

import msgspec
from litestar import Controller, Response, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from smriti.chat.exchange import ChatService
from smriti.chat.schemas import ContextPreview, ContextRequest, SendRequest, SendResponse
from smriti.core.errors import error_responses
from smriti.core.responses import EncodedJSON

_encode = msgspec.json.Encoder().encode


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
            "nothing is stored. A repeated `request_id` returns the stored pair."
        ),
        responses=error_responses(404, 409, 429, 502, 504),
    )
    async def send_message(
        self, data: JSONBody[SendRequest], chat: NamedDependency[ChatService]
    ) -> Response[SendResponse]:
        sent = await chat.send(data)
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
    )
    async def preview_context(
        self, data: JSONBody[ContextRequest], chat: NamedDependency[ChatService]
    ) -> ContextPreview:
        return await chat.preview(data)
