"""A streamed response that a client who stops reading cannot hold open for ever.

An ASGI server's `send` waits while the client's socket is full: a client that asks for a
download and reads nothing keeps its response, and whatever the response holds, as long as it
keeps the connection open. `PacedStream` ends the response when one chunk has waited
`IDLE_SEND_S` to be taken; the server closes the connection.
"""

from __future__ import annotations

from typing import Any

import anyio
import structlog
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import Message, Receive, Scope, Send

log = structlog.get_logger("smriti")

EVENT_STREAM = "text/event-stream"
STREAM_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}
"""A Server-Sent Events response's headers: no cache, and no buffering by a proxy in front (nginx
reads X-Accel-Buffering)."""


def wants_event_stream(scope: Scope) -> bool:
    """Whether the client asked for Server-Sent Events (`Accept: text/event-stream`). Read off the
    raw headers: a plain request, often a hot path, pays one scan of them."""
    return any(name == b"accept" and b"text/event-stream" in value for name, value in scope["headers"])


HEAD_REQUEST = "smriti.head"
"""Set in the scope of a `HEAD` routed as its GET (`server/methods.py`): a handler whose GET never
ends (a live stream) answers the headers alone instead."""


def is_head(scope: Scope) -> bool:
    return bool(scope.get(HEAD_REQUEST))


IDLE_SEND_S = 60.0
"""How long a chunk may wait for a client to take it before the response is cut off."""


class PacedStream(Stream):
    """Litestar's `Stream`, cut off when the client stops reading for `idle_s` seconds."""

    def __init__(self, content: Any, *, idle_s: float | None = None, **options: Any) -> None:
        super().__init__(content, **options)
        self.idle_s = IDLE_SEND_S if idle_s is None else idle_s

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        return _Paced(super().to_asgi_response(*args, **kwargs), self.idle_s)


class _Paced(ASGIResponse):
    __slots__ = ("idle_s", "inner")

    def __init__(self, inner: ASGIResponse, idle_s: float) -> None:
        # Deliberately not ASGIResponse.__init__: this only wraps the response Litestar built.
        self.inner = inner
        self.idle_s = idle_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def paced(message: Message) -> None:
            if message["type"] == "http.response.body":
                with anyio.fail_after(self.idle_s):
                    await send(message)
            else:
                await send(message)

        try:
            await self.inner(scope, receive, paced)
        except* TimeoutError:
            # The response stays unfinished, so the server closes the connection.
            log.warning("client stopped reading: response cut off", path=scope.get("path"), idle_s=self.idle_s)
