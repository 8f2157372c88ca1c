"""The optional bearer token in front of the API: a guard on the routers that need it.

With `SMRITI_API_TOKEN` set, every route of the API versions (`/v1`, `/v4`, `/v5`) and the MCP
endpoint (`/mcp`) answers 401 unless the request carries `Authorization: Bearer <token>`. It is
a guard on the routers (`smriti.server.api`), not a list of path prefixes, so a route added to a
domain's `routes.py` is guarded without anyone remembering to; `tests/server/test_routes.py`
walks the built app and fails on any other route that is open. `/health` (status words only),
the OpenAPI document and the web app's files stay reachable, so a browser can load the app and
then ask for the token.
"""

from __future__ import annotations

import hmac
from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers import BaseRouteHandler
from litestar.types import Guard

UNAUTHORIZED = "Missing or wrong bearer token (Authorization: Bearer <token>)."
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="smriti"'}


def _presented_token(connection: ASGIConnection[Any, Any, Any, Any]) -> bytes | None:
    for name, value in connection.scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            return token.strip() if scheme.lower() == b"bearer" else None
    return None


def token_guard(token: str) -> Guard:
    expected = token.encode()

    def require_token(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        presented = _presented_token(connection)
        # compare_digest: the time taken does not tell how much of a guess was right.
        if presented is None or not hmac.compare_digest(presented, expected):
            raise NotAuthorizedException(UNAUTHORIZED, headers=CHALLENGE)

    return require_token


def guards_for(token: str | None) -> list[Guard]:
    """The guards every protected router carries: the token's, when one is set."""
    return [token_guard(token)] if token else []
