"""The MCP endpoint at `/mcp`: the client package's MCP server over streamable HTTP, on the API itself.

A route like any other: the API's token check and the origin guard below run before it, and what
it refuses goes through the one error mapper. Its tools are the same as `smriti mcp`'s and reach
the API the same way, as an HTTP client (here over `httpx.ASGITransport` on the app itself, so a
tool call is one more request through the same rules). Each tool's requests carry the credential
of the MCP request that called it: an agent's key reaches only what that agent may, over MCP too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, cast

import httpx
from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.exceptions import PermissionDeniedException, ServiceUnavailableException
from litestar.handlers import ASGIRouteHandler, BaseRouteHandler, asgi
from litestar.types import Receive, Scope, Send
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from smriti.access.guard import Middleware
from smriti.client.api import SmritiClient
from smriti.client.errors import Unreachable
from smriti.client.hints import MCP_HINTS
from smriti.client.mcp.server import build_server
from smriti.core.routes import ANY_BODY, READS, access, body_types

if TYPE_CHECKING:
    from litestar import Litestar

    from smriti.core.config import Settings

NOT_RUNNING = "The MCP endpoint is not running (the API is starting or stopping)."

# The `Authorization` header of the MCP request being handled; the tools it runs inherit it (the
# MCP SDK runs them in tasks started inside `handle`, which copy this context).
_CREDENTIAL: ContextVar[bytes | None] = ContextVar("smriti_mcp_credential", default=None)


class _CallersCredential(httpx.Auth):
    """Each in-process request carries the credential the MCP request came with, whoever's it is."""

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        credential = _CREDENTIAL.get()
        if credential is not None:
            request.headers["Authorization"] = credential.decode("latin-1")
        yield request


def _internal_base_url(settings: Settings) -> str:
    """A base URL whose Host the API's allowed hosts accept, for the in-process client."""
    hosts = settings.allowed_hosts
    exact = [host for host in hosts if "*" not in host]
    if exact:
        return f"http://{exact[0]}"
    wildcard = [host for host in hosts if host.startswith("*.")]
    return f"http://mcp{wildcard[0][1:]}" if wildcard else "http://localhost"


class McpEndpoint:
    """The MCP server mounted on the API at `/mcp` (streamable HTTP, stateless, JSON responses).

    Stateless, so any worker process can answer any request. Its tools reach the API in-process
    (the client runs over `httpx.ASGITransport` on the app), with the API token when one is set.
    Browser requests from origins that are not in SMRITI_CORS_ORIGINS are refused (a DNS-rebinding
    page cannot drive the tools).
    """

    path = "/mcp"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._client: SmritiClient | None = None
        self._manager: StreamableHTTPSessionManager | None = None
        self.server = build_server(self._current_client)

    def _current_client(self) -> SmritiClient:
        if self._client is None:
            raise Unreachable(NOT_RUNNING, url=self.path)
        return self._client

    @asynccontextmanager
    async def run(self, app: Litestar) -> AsyncIterator[None]:
        """Run inside the app's lifespan: the in-process client and the MCP session manager."""
        settings = self._settings
        timeout = settings.provider_timeout_s * (settings.provider_max_retries + 1) + 30
        transport = httpx.ASGITransport(app=cast("Any", app))  # Litestar's ASGI types are narrower than httpx's
        # A session manager runs once; a new one per lifespan lets the same app start again.
        manager = StreamableHTTPSessionManager(
            app=self.server,
            stateless=True,
            json_response=True,
            # Host checks are the app's (SMRITI_ALLOWED_HOSTS); origins are checked in `handle`.
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            max_request_body_size=settings.max_body_bytes,
        )
        async with SmritiClient(
            _internal_base_url(settings),
            auth=_CallersCredential(),
            timeout=timeout,
            transport=transport,
            hints=MCP_HINTS,
        ) as client:
            self._client = client
            try:
                async with manager.run():
                    self._manager = manager
                    yield
            finally:
                self._manager = None
                self._client = None

    def route_handler(self, protection: list[Middleware]) -> ASGIRouteHandler:
        endpoint = self

        @asgi(
            self.path,
            is_mount=True,
            copy_scope=True,
            middleware=protection,
            guards=[self._known_origin],
            # The MCP SDK's transport security refuses other bodies itself (400). What a tool does is
            # checked as the API request it makes with its caller's key: the endpoint only reads.
            opt={**body_types(ANY_BODY), **access(READS)},
        )
        async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
            await endpoint.handle(scope, receive, send)

        return mcp_endpoint

    def _known_origin(self, connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        origin = connection.headers.get("origin")
        if origin is not None and origin not in self._settings.cors_origins:
            raise PermissionDeniedException(
                "Browser requests to /mcp are refused unless their origin is in SMRITI_CORS_ORIGINS."
            )

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            if scope["type"] == ScopeType.WEBSOCKET:
                await send({"type": "websocket.close", "code": 1003, "reason": "MCP speaks HTTP here"})
            return
        manager = self._manager
        if manager is None:
            raise ServiceUnavailableException(NOT_RUNNING)
        credential = next((value for name, value in scope["headers"] if name == b"authorization"), None)
        token = _CREDENTIAL.set(credential)
        try:
            await manager.handle_request(cast("Any", scope), cast("Any", receive), cast("Any", send))
        finally:
            _CREDENTIAL.reset(token)
