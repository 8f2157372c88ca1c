"""`HEAD` and `OPTIONS` on every route (docs/api.md, "Conventions").

Litestar answers neither the way HTTP says: a `HEAD` on a GET route is a 405, and the `OPTIONS`
answer it adds to a path can list only some of its methods (`OPTIONS /v4/repos/{id}` said
`DELETE, OPTIONS`, leaving out GET and PATCH). This wraps the app before routing: a `HEAD` is
routed as the path's GET with the body left off (the headers, `Content-Length` included, are the
GET's), and an `OPTIONS` answer lists every method of the path. Both still pass every rule the
route has (Host, token). A CORS preflight is left to Litestar's CORS handling.
"""

from __future__ import annotations

from typing import Any

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Receive, Scope, Send

from smriti.core.streaming import HEAD_REQUEST

_STATE_KEY = "smriti.methods_by_path"


def head_and_options(app: ASGIApp) -> ASGIApp:
    """Wrap the app's handler (`Litestar.asgi_handler`), which routes, with the two methods."""

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or scope.get("method") not in ("HEAD", "OPTIONS") or _is_preflight(scope):
            await app(scope, receive, send)
            return
        http = scope
        allowed = _allowed_methods(http)
        if allowed is None:  # no such path: the router's own 404
            await app(scope, receive, send)
        elif http["method"] == "OPTIONS":
            await app(scope, receive, _with_allow(send, _allow(allowed)))
        elif "GET" in allowed:
            # In place, not a copy: Litestar's send hooks (the ORM session's close) look the
            # request's state up in this very scope. It is a HEAD again before the response
            # leaves: the server reads the same scope to know no body follows.
            http["method"] = "GET"
            http[HEAD_REQUEST] = True  # type: ignore[literal-required]
            await app(scope, receive, _without_body(send, http))
        else:
            await app(scope, receive, _without_body(send, http))  # a 405 with the path's `Allow`

    return handle


def _allow(methods: frozenset[str]) -> bytes:
    listed = set(methods) | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())
    return ", ".join(sorted(listed)).encode()


def _with_allow(send: Send, allow: bytes) -> Send:
    async def send_options(message: Any) -> None:
        if message["type"] == "http.response.start" and message["status"] < 300:
            headers = [(name, value) for name, value in message["headers"] if name.lower() != b"allow"]
            message = {**message, "headers": [*headers, (b"allow", allow)]}
        await send(message)

    return send_options


def _without_body(send: Send, scope: Any) -> Send:
    async def send_head(message: Any) -> None:
        if message["type"] == "http.response.start":
            scope["method"] = "HEAD"
        elif message["type"] == "http.response.body":
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    return send_head


def _allowed_methods(scope: Scope) -> frozenset[str] | None:
    """Every method the request's path answers, or None for a path no route has."""
    app = scope["litestar_app"]
    try:
        *_, template = app.asgi_router.handle_routing(scope["path"], "OPTIONS")
    except HTTPException:
        return None
    methods: dict[str, frozenset[str]] | None = app.state.get(_STATE_KEY)
    if methods is None:  # built once per app, on its first HEAD or OPTIONS
        found: dict[str, set[str]] = {}
        for route in app.routes:
            found.setdefault(route.path_format, set()).update(getattr(route, "methods", ()))
        methods = {path: frozenset(m - {"OPTIONS", "HEAD"}) for path, m in found.items()}
        app.state[_STATE_KEY] = methods
    return methods.get(template)


def _is_preflight(scope: Scope) -> bool:
    names = {name for name, _ in scope["headers"]}
    return b"origin" in names and b"access-control-request-method" in names
