"""Who is asking, decided in front of the API: declared on the routers that need it.

Every route of the API versions (`/v1`, `/v4`, `/v5`) and the MCP endpoint (`/mcp`) passes here
(`smriti.server.api`, `smriti.server.mcp`), not through a list of path prefixes, so a route added
to a domain's `routes.py` is covered without anyone remembering to; `tests/server/test_routes.py`
walks the built app and fails on any other route that is open. `/health` (status words only), the
OpenAPI document and the web app's files stay reachable, so a browser can load the app and then
ask for the token.

- `Authorization: Bearer smr_…`: an agent (`access/keys.py`); an unknown or revoked key is a 401.
- `SMRITI_API_TOKEN` set: that token is the person; anything else is a 401.
- No `SMRITI_API_TOKEN`: anyone without an agent key is the person (local mode).

For an agent, the routed request's path and what its route declares are then checked
(`access/scope.py`): another Space's id is a 404, a read-only key's write a 403.

The caller is kept for the request (`access/caller.py`). It is router middleware rather than a
Litestar guard: Litestar copies the route handler for every guarded request, which cost ~240 k
instructions per request (`make bench-instructions --token`, GET HEAD 345 k → 583 k); middleware
is wrapped around the handlers once, at start-up.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope

from smriti.access.caller import _CURRENT, PERSON, Caller
from smriti.access.keys import PREFIX, AgentKeys
from smriti.access.scope import check_route
from smriti.core.errors import PROBLEM_JSON, problem

UNAUTHORIZED = "Missing or wrong bearer token (Authorization: Bearer <token>)."
_BODY = msgspec.json.encode(problem(401, UNAUTHORIZED))
_HEADERS = [
    (b"content-type", PROBLEM_JSON.encode()),
    (b"www-authenticate", b'Bearer realm="smriti"'),
    (b"content-length", str(len(_BODY)).encode()),
]
_AGENT_PREFIX = PREFIX.encode()

Middleware = Any
"""What Litestar's `middleware=[…]` takes: here, a factory from the inner ASGI app to the guarded one."""


def _presented_token(scope: Scope) -> bytes | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            return token.strip() if scheme.lower() == b"bearer" else None
    return None


async def _refuse(scope: Scope, send: Any) -> None:
    if scope["type"] == ScopeType.WEBSOCKET:
        await send({"type": "websocket.close", "code": 1008})
        return
    await send({"type": "http.response.start", "status": 401, "headers": _HEADERS})
    await send({"type": "http.response.body", "body": _BODY})


def who_is_asking(person_token: str | None, keys: Callable[[], AgentKeys]) -> Middleware:
    """The middleware that decides the caller: `keys` gives the running app's agent keys."""
    expected = person_token.encode() if person_token else None

    async def caller_of(presented: bytes | None) -> Caller | None:
        # compare_digest: the time taken does not tell how much of a guess was right.
        if expected is not None and presented is not None and hmac.compare_digest(presented, expected):
            return PERSON
        if presented is not None and presented.startswith(_AGENT_PREFIX):
            return await keys().caller_for(presented)
        return PERSON if expected is None else None

    def middleware(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Any) -> None:  # raw events, sent as they are
            caller = await caller_of(_presented_token(scope))
            if caller is None:
                await _refuse(scope, send)
                return
            token = _CURRENT.set(caller)
            try:
                if caller.agent is not None:  # the person pays nothing here
                    await check_route(caller, scope)
                await app(scope, receive, send)
            finally:
                _CURRENT.reset(token)

        return guarded

    return middleware
