"""The optional bearer token in front of the API.

With `SMRITI_API_TOKEN` set, every API route (`/v1`, `/v4`, `/v5`) and the MCP endpoint (`/mcp`)
answer 401 unless the request carries `Authorization: Bearer <token>`. `/health` (status words
only), the OpenAPI document and the web app's files stay reachable, so a browser can load the
app and then ask for the token.
"""

from __future__ import annotations

import hmac
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope

from smriti.core.errors import ErrorResponse

PROTECTED_PREFIXES = ("/v1/", "/v4/", "/v5/", "/mcp")

_UNAUTHORIZED = msgspec.json.encode(
    ErrorResponse(status_code=401, detail="Missing or wrong bearer token (Authorization: Bearer <token>).")
)


def _presented_token(scope: Scope) -> bytes | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            return token.strip() if scheme.lower() == b"bearer" else None
    return None


def require_token(token: str) -> Any:
    """ASGI middleware factory for Litestar's `middleware=[…]`."""
    expected = token.encode()

    def middleware(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Any) -> None:
            if scope["path"].startswith(PROTECTED_PREFIXES):
                presented = _presented_token(scope)
                # compare_digest: the time taken does not tell how much of a guess was right.
                if presented is None or not hmac.compare_digest(presented, expected):
                    if scope["type"] == ScopeType.WEBSOCKET:
                        await send({"type": "websocket.close", "code": 1008})
                        return
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 401,
                            "headers": [
                                (b"content-type", b"application/json"),
                                (b"www-authenticate", b'Bearer realm="smriti"'),
                                (b"content-length", str(len(_UNAUTHORIZED)).encode()),
                            ],
                        }
                    )
                    await send({"type": "http.response.body", "body": _UNAUTHORIZED})
                    return
            await app(scope, receive, send)

        return guarded

    return middleware
