"""The optional bearer token in front of the API: declared on the routers that need it.

With `SMRITI_API_TOKEN` set, every route of the API versions (`/v1`, `/v4`, `/v5`) and the MCP
endpoint (`/mcp`) answers 401 unless the request carries `Authorization: Bearer <token>`. The
check is declared on those routers (`smriti.server.api`, `smriti.server.mcp`), not as a list of
path prefixes, so a route added to a domain's `routes.py` is covered without anyone remembering
to; `tests/server/test_routes.py` walks the built app and fails on any other route that is open.
`/health` (status words only), the OpenAPI document and the web app's files stay reachable, so
a browser can load the app and then ask for the token.

It is router middleware rather than a Litestar guard: Litestar copies the route handler for
every guarded request, which cost ~240 k instructions per request (`make bench-instructions
--token`, GET HEAD 345 k → 583 k); middleware is wrapped around the handlers once, at start-up.
"""

from __future__ import annotations

import hmac
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope

from smriti.core.errors import PROBLEM_JSON, problem

UNAUTHORIZED = "Missing or wrong bearer token (Authorization: Bearer <token>)."
_BODY = msgspec.json.encode(problem(401, UNAUTHORIZED))
_HEADERS = [
    (b"content-type", PROBLEM_JSON.encode()),
    (b"www-authenticate", b'Bearer realm="smriti"'),
    (b"content-length", str(len(_BODY)).encode()),
]

Middleware = Any
"""What Litestar's `middleware=[…]` takes: here, a factory from the inner ASGI app to the guarded one."""


def _presented_token(scope: Scope) -> bytes | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            return token.strip() if scheme.lower() == b"bearer" else None
    return None


def require_token(token: str) -> Middleware:
    expected = token.encode()

    def middleware(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Any) -> None:  # raw events, sent as they are
            presented = _presented_token(scope)
            # compare_digest: the time taken does not tell how much of a guess was right.
            if presented is None or not hmac.compare_digest(presented, expected):
                if scope["type"] == ScopeType.WEBSOCKET:
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await send({"type": "http.response.start", "status": 401, "headers": _HEADERS})
                await send({"type": "http.response.body", "body": _BODY})
                return
            await app(scope, receive, send)

        return guarded

    return middleware


def protection_for(token: str | None) -> list[Middleware]:
    """What every protected router carries: the token check, when a token is set."""
    return [require_token(token)] if token else []
