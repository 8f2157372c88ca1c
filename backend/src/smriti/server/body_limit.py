"""Let a client that sent too much still read its 413.

Litestar stops reading a body once it passes the limit and answers 413. If the server then closes
the connection while the client is still sending, the client's kernel gets a reset and throws the
413 away; the client sees "connection reset" instead of the reason. After a 413 this middleware
reads and discards the rest of the body, within a bound, so the answer arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Scope, Send

_DRAIN_BYTES = 64 * 1024 * 1024
_DRAIN_SECONDS = 5.0
# No handler reads a body for these, so none can answer 413; they skip the wrapping (hot reads).
_BODYLESS = frozenset({"GET", "HEAD", "OPTIONS", "DELETE"})
# Headers that say how long the body is; exactly one Content-Length and no Transfer-Encoding fits.
_FRAMING = frozenset({b"content-length", b"transfer-encoding"})


def drain_rejected_bodies(max_body_bytes: int) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware factory for Litestar's `middleware=[…]`, given the app's body limit."""

    def wrap(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Any, send: Send) -> None:
            if scope["type"] != ScopeType.HTTP or scope["method"] in _BODYLESS or _fits(scope, max_body_bytes):
                await app(scope, receive, send)
            else:
                await _drain_after_413(app, scope, receive, send)

        return middleware

    return wrap


def _fits(scope: Scope, max_body_bytes: int) -> bool:
    """Whether the request announces a body within the limit by one plain Content-Length. Such a
    body cannot be refused as too large (the server delivers exactly the announced bytes), so
    there is nothing to drain. With Transfer-Encoding too, some servers stream the body chunked
    whatever the length says, so that request is not trusted to fit."""
    lengths = [value for name, value in scope["headers"] if name in _FRAMING]
    return len(lengths) == 1 and lengths[0].isdigit() and int(lengths[0]) <= max_body_bytes


async def _drain_after_413(app: ASGIApp, scope: Scope, receive: Any, send: Send) -> None:
    more_body = True
    rejected = False

    async def tracking_receive() -> Any:
        nonlocal more_body
        message = await receive()
        if message["type"] == "http.request":
            more_body = bool(message.get("more_body", False))
        elif message["type"] == "http.disconnect":
            more_body = False
        return message

    async def tracking_send(message: Message) -> None:
        nonlocal rejected
        if message["type"] == "http.response.start" and message["status"] == 413:
            rejected = True
        await send(message)

    await app(scope, tracking_receive, tracking_send)
    if rejected and more_body:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_drain(tracking_receive), timeout=_DRAIN_SECONDS)


async def _drain(receive: Any) -> None:
    drained = 0
    while drained < _DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body", False):
            return
