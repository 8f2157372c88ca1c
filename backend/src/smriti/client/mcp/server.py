"""The MCP server: the agent operations as MCP tools, each Space's HEAD and any Checkpoint as resources.

It is a second transport over the same client and operations as the CLI. Two ways to run it:

- `smriti mcp`: stdio, for desktop agent hosts (`stdio.py`); it talks to the server at --url.
- Streamable HTTP at `/mcp` on the API itself (`smriti.server.mcp`), reaching the API in-process.

Tool arguments are msgspec Structs, so their JSON schemas come from the same types the API uses
(`Task`, `Entity`, `Artifact`), and so do the output schemas; the tools are defined by domain in
`tools`, `commit`, `lines` and `merge`. Bad arguments, unknown Spaces, a stale
`expected_head`, an unreachable server: each is a tool error with a clear message (`isError`),
never a crash of the server.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import mcp_types as types
import msgspec
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from smriti import __version__
from smriti.client import operations
from smriti.client.errors import ClientError, Unreachable
from smriti.client.mcp.arguments import largest, not_text
from smriti.client.mcp.base import Call, ClientSource, ToolSpec, error_label, shown
from smriti.client.mcp.prompts import PROMPTS, PromptError, prompt_result
from smriti.client.mcp.resources import (
    CHECKPOINT_URI,
    HEAD_URI,
    head_uri,
    read_named,
    resource_error,
    resource_named,
)
from smriti.client.mcp.tools import BY_NAME as _BY_NAME
from smriti.client.mcp.tools import STRUCTURED_FIELDS as _STRUCTURED_FIELDS
from smriti.client.mcp.tools import TOOLS
from smriti.core.json_checks import duplicate_key

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from smriti.client.mcp.subscriptions import HeadSubscriptions


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
    "`line`. People and models talk in Sessions (`list_sessions`); what a Session's next message receives is "
    "its base Checkpoint plus its own Turns (`get_session`), and mounting a Checkpoint (`mount_checkpoint`) "
    "starts a Session based on it. To merge one line into another, call `preview_merge`: commit it with "
    "`commit_merge` only when it is clean; conflicts go to a person, and you commit only what the person "
    "chose, as each conflict's `choose`. When several agents share a Space, work on a line of your own "
    "(`create_line`) and, when it is ready, ask the person to merge it with `open_proposal`; a protected line "
    "(the default line, often) refuses your commits, and proposing is the way in. Follow it with "
    "`get_proposal`; close it with `close_proposal` if it is no longer wanted. To find earlier work, call "
    "`search`. The same state is also offered as resources (`smriti://spaces/{space}/head`, "
    "`smriti://checkpoints/{ref}`) and as prompts (`continue_from_head`, `review_checkpoint`)."
)


def _portable(node: Any) -> Any:
    """The schema in the JSON Schema every validator reads alike (2020-12 and draft-07, strict or not).

    Litestar's `extra` convention is unfolded: the shapes document some rules (a text pattern,
    say) under `extra`, where only Litestar's OpenAPI looks; JSON Schema clients would never see
    them there. A fixed-length tuple (`prefixItems` with `items: false`, msgspec's form) becomes
    `items` of its one element type plus the length bounds: strict validators (MCP Inspector's
    `--strict`) refuse a bare `false` there, and draft-07 ones do not know `prefixItems`.
    """
    if isinstance(node, list):
        return [_portable(item) for item in node]
    if not isinstance(node, dict):
        return node
    unfolded = {key: _portable(value) for key, value in node.items() if key != "extra"}
    extra = node.get("extra")
    if isinstance(extra, dict):
        unfolded.update({key: value for key, value in extra.items() if key not in unfolded})
    prefix = unfolded.get("prefixItems")
    if isinstance(prefix, list) and prefix and all(item == prefix[0] for item in prefix):
        del unfolded["prefixItems"]
        unfolded["items"] = prefix[0]
    elif isinstance(prefix, list):
        # Different element types: say "any of them" (the length bounds stay exact).
        del unfolded["prefixItems"]
        unfolded["items"] = {"anyOf": prefix} if prefix else {}
    return unfolded


def json_schema(kind: Any) -> dict[str, Any]:
    """msgspec's JSON schema for `kind`, portable (`_portable`), with the root definition inlined
    (MCP wants `type: object` at the root)."""
    schema: dict[str, Any] = _portable(msgspec.json.schema(kind))
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


def _too_large(exc: ClientError, arguments: dict[str, Any]) -> str:
    """For a body the API refused as too large (413): which argument to shorten."""
    found = largest(arguments) if exc.status_code == 413 else None
    if found is None:
        return ""
    name, size = found
    return f" The largest argument is `{name}` ({size:,} bytes of JSON): shorten it, or save it in parts."


def tool_error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


AGENT_HEADER = "x-smriti-agent"
"""The name whoever set up an HTTP host gave it (next to `Authorization`): credited on its saves
before anything the model passes (`Call.author`). The endpoint is stateless, so a legacy client's
`initialize` (and its name) is not seen by its later calls either."""


def _client_name(ctx: ServerRequestContext[Any, Any]) -> str | None:
    try:
        params = ctx.session.client_params
    except (AttributeError, RuntimeError):
        params = None
    info = params.client_info if params is not None else None
    name = info.name.strip()[:200] if info is not None and info.name else ""
    return name or None


def _agent_header(ctx: ServerRequestContext[Any, Any]) -> str | None:
    headers = getattr(ctx.request, "headers", None)
    name = str(headers.get(AGENT_HEADER, "")).strip()[:200] if headers is not None else ""
    return name or None


def build_server(
    clients: ClientSource,
    *,
    configured_author: str | None = None,
    subscriptions: HeadSubscriptions | None = None,
) -> Server[Any]:
    """The MCP server over the client `clients()` returns.

    `configured_author` names the agent on its saves (over stdio, `SMRITI_AGENT_NAME`); over HTTP
    the `X-Smriti-Agent` header does (`Call.author` says who is credited when neither is set).
    With `subscriptions` (over stdio), a Space's HEAD can be subscribed to, in the negotiated
    revision's way; the capability (`resources.subscribe`) is declared then only.
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
            return tool_error(f"Unknown tool {shown(params.name)}. The tools are: {', '.join(_BY_NAME)}.")
        arguments = params.arguments or {}
        unreadable = not_text(arguments)
        if unreadable is not None:
            return tool_error(
                f"Invalid arguments for {spec.name}: {unreadable}: holds a lone surrogate (such as \\ud800), which "
                "is not text: send it as UTF-8 text."
            )
        try:
            args = msgspec.convert(_prepare(arguments), spec.args)
        except msgspec.ValidationError as exc:
            return tool_error(f"Invalid arguments for {spec.name}: {operations.describe_invalid(exc)}")
        call = Call(clients(), configured_author or _agent_header(ctx), _client_name(ctx))
        try:
            result = await spec.run(call, args)
        except ClientError as exc:
            return tool_error(f"{error_label(exc)}: {exc.one_line()}{_too_large(exc, arguments)}")
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
            raise MCPError(code=types.INTERNAL_ERROR, message=f"{error_label(exc)}: {exc.one_line()}") from None
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
                ),
                types.ResourceTemplate(
                    uri_template=CHECKPOINT_URI,
                    name="checkpoint",
                    title="A Checkpoint",
                    description="Any Checkpoint, as JSON; {ref} is its id, its full hash or a unique hash prefix "
                    "(at least 7 hex digits). Named by id or full hash, it never changes.",
                    mime_type="application/json",
                ),
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        named = resource_named(ctx, uri)
        try:
            head = await read_named(clients(), *named)
        except ClientError as exc:
            raise resource_error(ctx, exc) from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=uri, mime_type="application/json", text=msgspec.json.encode(head).decode()
                )
            ]
        )

    async def list_prompts(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[spec.prompt for spec in PROMPTS])

    async def get_prompt(
        ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        call = Call(clients(), configured_author or _agent_header(ctx), _client_name(ctx))
        try:
            return await prompt_result(call, params.name, dict(params.arguments or {}))
        except PromptError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        except ClientError as exc:
            code = types.INTERNAL_ERROR if isinstance(exc, Unreachable) else types.INVALID_PARAMS
            raise MCPError(code=code, message=f"{error_label(exc)}: {exc.one_line()}") from None

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
        on_subscribe_resource=subscriptions.subscribe if subscriptions else None,
        on_unsubscribe_resource=subscriptions.unsubscribe if subscriptions else None,
        on_subscriptions_listen=subscriptions.listen if subscriptions else None,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )
