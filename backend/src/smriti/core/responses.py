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
    __slots__ = ("extra_headers",)

    def __init__(self, body: bytes, status_code: int, extra_headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        # Deliberately not ASGIResponse.__init__: there are no cookies and no background task,
        # so the two events can be sent as they are.
        self.body = body
        self.status_code = status_code
        self.extra_headers = extra_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": self.status_code,
                "headers": [_CONTENT_TYPE, (b"content-length", str(len(self.body)).encode()), *self.extra_headers]
                if self.status_code != 304  # a 304 has no body, and its length would be the 200's
                else list(self.extra_headers),
            }
        )
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


class EncodedJSON(Response[Any]):
    """JSON bytes sent as they are, with `content-type`, `content-length` and what `headers` adds
    (a 201's `Location`, a Checkpoint's `ETag`)."""

    __slots__ = ("_body", "_extra_headers")

    def __init__(
        self, body: bytes, status_code: int | None = None, headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        # Response.__init__ is skipped for the same reason. Without a status code, the route's
        # own (200, or 201 for a POST) applies, as with Litestar's Response.
        self._body = body
        self._extra_headers = headers
        self.status_code = status_code

    def to_asgi_response(self, app: Any, request: Any, *, status_code: int | None = None, **_: Any) -> ASGIResponse:
        return _SendEncoded(self._body, self.status_code or status_code or 200, self._extra_headers)


def location(path: str) -> tuple[bytes, bytes]:
    """A `Location` header for `EncodedJSON`: where a 201's new resource is."""
    return (b"location", path.encode())


_ID_PREFIX = b'{"id":"'


def checkpoint_location(body: bytes) -> tuple[bytes, bytes]:
    """The `Location` of a Checkpoint just saved, from its JSON: the id is its first field
    (`checkpoints/store.py` encodes them in CHECKPOINT_FIELDS order), so no decoding is needed."""
    if not body.startswith(_ID_PREFIX):
        raise ValueError("a saved Checkpoint's JSON starts with its id")
    return location(f"/v4/commits/{body[len(_ID_PREFIX) : len(_ID_PREFIX) + 36].decode()}")


IMMUTABLE = (b"cache-control", b"private, max-age=31536000, immutable")
REVALIDATE = (b"cache-control", b"private, no-cache")


def encoded_or_not_modified(body: bytes, tag: str, if_none_match: str | None, *, immutable: bool) -> EncodedJSON:
    """`body` with a strong `ETag` of `tag`, or a bodiless 304 when `If-None-Match` names it
    (compared weakly, as RFC 9110 §13.1.2 says; `*` matches any)."""
    etag = f'"{tag}"'
    headers = ((b"etag", etag.encode()), IMMUTABLE if immutable else REVALIDATE)
    if if_none_match is not None and _matches(if_none_match, etag):
        return EncodedJSON(b"", status_code=304, headers=headers)
    return EncodedJSON(body, headers=headers)


def _matches(if_none_match: str, etag: str) -> bool:
    for candidate in if_none_match.split(","):
        value = candidate.strip()
        if value == "*" or value.removeprefix("W/") == etag:
            return True
    return False
