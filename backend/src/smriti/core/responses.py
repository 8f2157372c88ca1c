"""A response for JSON that is already encoded.

Litestar's `Response` renders content, merges header dicts and builds an `ASGIResponse` whose
headers go through a mutable header structure: work that buys nothing when the body is bytes
PostgreSQL or msgspec already produced and the only headers are its type and length. The hot
handlers return `EncodedJSON`, which is its own ASGI response.
"""

from __future__ import annotations

from typing import Any

from litestar import Response
from litestar.response.base import ASGIResponse
from litestar.types import Receive, Scope, Send

_CONTENT_TYPE = (b"content-type", b"application/json")


class _SendEncoded(ASGIResponse):
    __slots__ = ()

    def __init__(self, body: bytes, status_code: int) -> None:
        # Deliberately not ASGIResponse.__init__: there are no cookies, no extra headers and no
        # background task, so the two events can be sent as they are.
        self.body = body
        self.status_code = status_code

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": self.status_code,
                "headers": [_CONTENT_TYPE, (b"content-length", str(len(self.body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


class EncodedJSON(Response[Any]):
    """JSON bytes sent as they are, with `content-type` and `content-length` only."""

    __slots__ = ("_body",)

    def __init__(self, body: bytes, status_code: int | None = None) -> None:
        # Response.__init__ is skipped for the same reason. Without a status code, the route's
        # own (200, or 201 for a POST) applies, as with Litestar's Response.
        self._body = body
        self.status_code = status_code

    def to_asgi_response(self, app: Any, request: Any, *, status_code: int | None = None, **_: Any) -> ASGIResponse:
        return _SendEncoded(self._body, self.status_code or status_code or 200)
