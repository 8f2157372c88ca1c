"""The MCP server: the agent operations as MCP tools, and each Space's HEAD as a resource.

It is a second transport over the same client and operations as the CLI. Two ways to run it:

- `smriti mcp`: stdio, for desktop agent hosts; it talks to the server at --url / SMRITI_URL.
- Streamable HTTP at `/mcp` on the API itself (`McpEndpoint`), reaching the API in-process.

Tool arguments are msgspec Structs, so their JSON schemas come from the same types the API uses
(`Task`, `Entity`, `Artifact`), and so do the output schemas; the tools are defined by domain in
`mcp_tools`, `mcp_commit` and `mcp_lines`. Bad arguments, unknown Spaces, a stale
`expected_head`, an unreachable server: each is a tool error with a clear message (`isError`),
never a crash of the server.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote, unquote, urlsplit

import anyio
import httpx
import mcp_types as types
import msgspec
from litestar.enums import ScopeType
from litestar.handlers import ASGIRouteHandler, asgi
from litestar.types import Receive, Scope, Send
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError

from smriti import __version__
from smriti.client import operations
from smriti.client.api import DEFAULT_TIMEOUT, SmritiClient
from smriti.client.errors import ClientError, ConflictError, InvalidInput, MissingError, Unreachable
from smriti.client.mcp.base import Call, ClientSource, ToolSpec
from smriti.client.mcp.tools import BY_NAME as _BY_NAME
from smriti.client.mcp.tools import STRUCTURED_FIELDS as _STRUCTURED_FIELDS
from smriti.client.mcp.tools import TOOLS
from smriti.core.json_checks import duplicate_key
from smriti.spaces.schemas import Space

if TYPE_CHECKING:
    from litestar import Litestar
    from mcp.server.context import ServerRequestContext

    from smriti.core.config import Settings

log = logging.getLogger("smriti.mcp")

INSTRUCTIONS = (
    "Smriti keeps the state of a line of work as versioned Checkpoints inside Spaces: a summary, decisions, "
    "assumptions, tasks, open questions, entities and artifacts. It is shared memory between agents and people, "
    "not a chat: do your reasoning yourself, and read and write state here. Before you start, call "
    "`handoff_brief` (or `get_head`) for the Space. When you reach a point worth keeping, call "
    "`commit_checkpoint` with `expected_head` set to the HEAD you started from and only what changed: the new "
    "Checkpoint starts from its parent's state. If it reports a conflict, someone saved in the meantime: read "
    "the new HEAD, reconcile, and commit again. Each Space has lines of Checkpoints (`list_lines`), each with "
    "its own HEAD; to continue from an older Checkpoint, start a line there (`create_line`) and commit with "
    "`line`."
)


def json_schema(kind: Any) -> dict[str, Any]:
    """msgspec's JSON schema for `kind`, with the root definition inlined (MCP wants `type: object` at the root)."""
    schema: dict[str, Any] = msgspec.json.schema(kind)
    ref = schema.pop("$ref", None)
    if ref is None:
        return schema
    defs: dict[str, Any] = schema.pop("$defs", {})
    root: dict[str, Any] = dict(defs.pop(ref.rsplit("/", 1)[1]))
    if defs:
        root["$defs"] = defs
    return root


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=json_schema(spec.args),
        output_schema=json_schema(spec.output),
        annotations=types.ToolAnnotations(
            title=spec.title,
            read_only_hint=spec.read_only,
            destructive_hint=spec.destructive,
            idempotent_hint=spec.read_only,
            open_world_hint=spec.name == "review_checkpoint",
        ),
    )


def _prepare(arguments: dict[str, Any]) -> dict[str, Any]:
    prepared = dict(arguments)
    for key in _STRUCTURED_FIELDS & prepared.keys():
        value = prepared[key]
        if isinstance(value, str) and value.strip()[:1] in {"[", "{"}:
            # Else left as is: validation names the field (too deep, or a name twice, included).
            with contextlib.suppress(msgspec.DecodeError, RecursionError):
                if duplicate_key(value) is None:
                    prepared[key] = msgspec.json.decode(value)
    return prepared


_KIND_LABELS: tuple[tuple[type[ClientError], str], ...] = (
    (Unreachable, "Smriti server unreachable"),
    (InvalidInput, "Invalid input"),
    (MissingError, "Not found"),
    (ConflictError, "Conflict"),
)


def _label(exc: ClientError) -> str:
    for kind, label in _KIND_LABELS:
        if isinstance(exc, kind):
            return label
    return f"Server error{f' {exc.status_code}' if exc.status_code else ''}"


def tool_error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def _client_name(ctx: ServerRequestContext[Any, Any]) -> str | None:
    try:
        params = ctx.session.client_params
    except (AttributeError, RuntimeError):
        return None
    info = params.client_info if params is not None else None
    name = info.name.strip() if info is not None and info.name else ""
    return name or None


HEAD_URI = "smriti://spaces/{space}/head"


def head_uri(space: Space) -> str:
    return HEAD_URI.format(space=space.id)


def build_server(clients: ClientSource, *, default_author: str | None = None) -> Server[Any]:
    """The MCP server over the client `clients()` returns.

    `default_author` names the agent on commits that do not say who they are; without it, the
    MCP client's own name (from its `initialize`) is used, else `mcp-agent`.
    """

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(spec) for spec in TOOLS])

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = _BY_NAME.get(params.name)
        if spec is None:
            return tool_error(f"Unknown tool {params.name!r}. The tools are: {', '.join(_BY_NAME)}.")
        try:
            args = msgspec.convert(_prepare(params.arguments or {}), spec.args)
        except msgspec.ValidationError as exc:
            return tool_error(f"Invalid arguments for {spec.name}: {operations.describe_invalid(exc)}")
        call = Call(client=clients(), default_author=default_author or _client_name(ctx) or "mcp-agent")
        try:
            result = await spec.run(call, args)
        except ClientError as exc:
            return tool_error(f"{_label(exc)}: {exc.one_line()}")
        except Exception:
            log.exception("MCP tool %s failed", spec.name)
            return tool_error(f"{spec.name} failed with an internal error in the Smriti MCP server.")
        structured = msgspec.to_builtins(result)
        text = spec.text(result) if spec.text else msgspec.json.encode(result).decode()
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)

    async def list_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        try:
            spaces = await clients().all_spaces()
        except ClientError as exc:
            raise MCPError(code=types.INTERNAL_ERROR, message=f"{_label(exc)}: {exc.one_line()}") from None
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=head_uri(space),
                    name=f"{space.name} HEAD",
                    title=f"HEAD of {space.name}",
                    description=f"The latest Checkpoint of Space “{space.name}”: {space.head_message}",
                    mime_type="application/json",
                )
                for space in spaces
                if space.head_commit_id is not None
            ]
        )

    async def list_templates(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=HEAD_URI,
                    name="space_head",
                    title="HEAD of a Space",
                    description="The HEAD Checkpoint of a Space, as JSON; {space} is its id or its URL-encoded name.",
                    mime_type="application/json",
                )
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        space_ref = _space_from_uri(uri)
        if space_ref is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource {uri!r}; expected {HEAD_URI}.")
        try:
            client = clients()
            space = await client.resolve_space(space_ref)
            head = await client.head(space.id)
        except ClientError as exc:
            code = types.INTERNAL_ERROR if isinstance(exc, Unreachable) else types.INVALID_PARAMS
            raise MCPError(code=code, message=f"{_label(exc)}: {exc.one_line()}") from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=uri, mime_type="application/json", text=msgspec.json.encode(head).decode()
                )
            ]
        )

    return Server(
        "smriti",
        version=__version__,
        title="Smriti",
        description="Versioned reasoning state shared between agents and people: Spaces and Checkpoints.",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def _space_from_uri(uri: str) -> str | None:
    parts = urlsplit(uri)
    if parts.scheme != "smriti" or parts.netloc != "spaces":
        return None
    segments = parts.path.strip("/").split("/")
    if len(segments) != 2 or segments[1] != "head" or not segments[0]:
        return None
    return unquote(segments[0])


def space_head_uri(name_or_id: str) -> str:
    """The HEAD resource URI for a Space given by name or id."""
    return HEAD_URI.format(space=quote(name_or_id, safe=""))


# stdio ------------------------------------------------------------------------------------------


def run_stdio(url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Serve MCP on stdin/stdout until the host closes the stream (`smriti mcp`)."""
    client = SmritiClient(url, token=token, timeout=timeout)  # a bad URL fails here, before serving

    async def serve() -> None:
        async with client:
            author = os.environ.get("SMRITI_AGENT_NAME", "").strip() or None
            server = build_server(lambda: client, default_author=author)
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)


# Streamable HTTP on the API -------------------------------------------------------------------


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
    The endpoint itself asks for that token too, and refuses browser requests from origins that
    are not in SMRITI_CORS_ORIGINS (a DNS-rebinding page cannot drive the tools).
    """

    path = "/mcp"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._client: SmritiClient | None = None
        self._manager: StreamableHTTPSessionManager | None = None
        self.server = build_server(self._current_client)

    def _current_client(self) -> SmritiClient:
        if self._client is None:
            raise Unreachable("The MCP endpoint is not running (the API is starting or stopping).", url=self.path)
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
            _internal_base_url(settings), token=settings.api_token, timeout=timeout, transport=transport
        ) as client:
            self._client = client
            try:
                async with manager.run():
                    self._manager = manager
                    yield
            finally:
                self._manager = None
                self._client = None

    def route_handler(self) -> ASGIRouteHandler:
        endpoint = self

        @asgi(self.path, is_mount=True, copy_scope=True)
        async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
            await endpoint.handle(scope, receive, send)

        return mcp_endpoint

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            if scope["type"] == ScopeType.WEBSOCKET:
                await send({"type": "websocket.close", "code": 1003, "reason": "MCP speaks HTTP here"})
            return
        headers = {key.decode("latin-1").lower(): value for key, value in scope.get("headers", [])}
        token = self._settings.api_token
        if token:
            given = headers.get("authorization", b"")
            if not hmac.compare_digest(given, f"Bearer {token}".encode()):
                await _refuse(send, 401, "Missing or wrong bearer token.", {"www-authenticate": "Bearer"})
                return
        origin = headers.get("origin")
        if origin is not None and origin.decode("latin-1") not in self._settings.cors_origins:
            detail = "Browser requests to /mcp are refused unless their origin is in SMRITI_CORS_ORIGINS."
            await _refuse(send, 403, detail)
            return
        manager = self._manager
        if manager is None:
            await _refuse(send, 503, "The MCP endpoint is not running (the API is starting or stopping).")
            return
        await manager.handle_request(cast("Any", scope), cast("Any", receive), cast("Any", send))


async def _refuse(send: Send, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
    body = msgspec.json.encode({"status_code": status, "detail": detail})
    raw_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw_headers += [(key.encode(), value.encode()) for key, value in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


__all__ = ["TOOLS", "McpEndpoint", "build_server", "json_schema", "run_stdio", "space_head_uri"]
