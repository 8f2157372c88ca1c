"""The MCP server, driven by the `mcp` SDK's own client: over stdio (a real `smriti mcp` subprocess)
and over streamable HTTP (the `/mcp` endpoint of a real `smriti serve`)."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote
from uuid import uuid4

import asyncpg
import httpx
import httpx2
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation

from smriti.core.config import Settings
from smriti.core.schemas import NON_EMPTY_PATTERN
from tests.conftest import make_client
from tests.support.live_server import LiveServer, free_port, live_server, tree_env

pytestmark = pytest.mark.slow

TOKEN = "mcp-test-token-" + uuid4().hex
NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}
TOOL_NAMES = {
    "list_spaces",
    "create_space",
    "get_head",
    "get_checkpoint",
    "list_checkpoints",
    "commit_checkpoint",
    "diff_checkpoints",
    "review_checkpoint",
    "verify_space",
    "handoff_brief",
    "list_lines",
    "create_line",
    "rename_line",
    "set_default_line",
    "delete_line",
    "restore_checkpoint",
    "list_sessions",
    "get_session",
    "mount_checkpoint",
    "fork_session",
    "delete_session",
    "preview_merge",
    "commit_merge",
    "open_proposal",
    "list_proposals",
    "get_proposal",
    "close_proposal",
    "search",
}
WRITERS = {
    "create_space",
    "commit_checkpoint",
    "create_line",
    "rename_line",
    "set_default_line",
    "delete_line",
    "restore_checkpoint",
    "mount_checkpoint",
    "fork_session",
    "delete_session",
    "commit_merge",
    "open_proposal",
    "close_proposal",
}
SAVED_EXTRAS = ("line", "changes")
"""What a saved Checkpoint's result has beyond the Checkpoint itself."""
TRANSPORTS = ["stdio", "http"]


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {
        **NO_KEYS,
        "DATABASE_URL": database_url,
        "SMRITI_DEFAULT_PROVIDER": "offline",
        "SMRITI_API_TOKEN": TOKEN,
    }
    with live_server(env, tmp_path_factory.mktemp("mcp-logs")) as running:
        yield running


@asynccontextmanager
async def connect(
    transport: str,
    server: LiveServer,
    *,
    api_url: str | None = None,
    mode: str = "auto",
    client_info: Implementation | None = None,
    agent: str | None = None,
    token: str = TOKEN,
) -> AsyncIterator[Client]:
    """An MCP SDK client connected to `smriti mcp` (stdio) or to the API's `/mcp` (HTTP), as the
    person (`TOKEN`) or an agent (its key)."""
    if transport == "stdio":
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "smriti", "mcp"],
            env={
                **tree_env(),
                "SMRITI_URL": api_url or server.url,
                "SMRITI_API_TOKEN": token,
                **({"SMRITI_AGENT_NAME": agent} if agent else {}),
            },
        )
        async with Client(params, mode=mode, client_info=client_info, read_timeout_seconds=60) as client:
            yield client
    else:
        named = {"X-Smriti-Agent": agent} if agent else {}
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}", **named}, timeout=60)
        async with (
            http,
            Client(
                streamable_http_client(f"{server.url}/mcp", http_client=http),
                mode=mode,
                client_info=client_info,
                read_timeout_seconds=60,
            ) as client,
        ):
            yield client


def unique(name: str) -> str:
    return f"{name} {uuid4().hex[:8]}"


async def ok(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    """Call a tool that must succeed; its text content is the same JSON as its structured content."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}: {_text(result)}"
    if tool != "handoff_brief":
        assert json.loads(_text(result)) == result.structured_content
    return result.structured_content


async def fails(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    """Call a tool that must fail as a tool error (isError), not a protocol error or a crash."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} should have failed: {result.structured_content}"
    assert result.structured_content is None
    return _text(result)


def checkpoint_of(saved: dict[str, Any]) -> dict[str, Any]:
    """The Checkpoint in a `commit_checkpoint` result, as `get_head` returns it."""
    return {key: value for key, value in saved.items() if key not in SAVED_EXTRAS}


def _text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    return block.text


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_tools_are_listed_with_descriptions_and_schemas(server: LiveServer, transport: str) -> None:
    async with connect(transport, server) as client:
        listed = await client.list_tools()
        info = client.server_info
    assert info is not None
    assert info.name == "smriti"
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == TOOL_NAMES
    for name, tool in tools.items():
        assert tool.description is not None
        assert len(tool.description) > 60, name
        assert tool.title
        assert tool.input_schema["type"] == "object", name
        assert tool.input_schema["additionalProperties"] is False, name
        assert tool.output_schema is not None
        assert tool.output_schema["type"] == "object", name
        assert "$ref" not in tool.input_schema
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (name not in WRITERS), name
        assert tool.annotations.destructive_hint is (name in {"delete_line", "delete_session"}), name

    commit = tools["commit_checkpoint"].input_schema
    assert commit["required"] == ["space", "message"]
    expected_head = commit["properties"]["expected_head"]["description"]
    assert "compare-and-swap" in expected_head.lower()
    # null (no check) and "none" (the line must be empty) are told apart in so many words.
    assert "Omitted or null: no check" in expected_head
    assert 'The string "none": saved only if the line has no Checkpoint yet' in expected_head
    task_item = commit["properties"]["tasks"]["items"]
    assert {"type": "string"} in task_item["anyOf"]
    assert set(commit["$defs"]["Task"]["properties"]) == {"text", "done"}
    # The text rules are standard JSON Schema, where clients look: no Litestar-only `extra`.
    assert "extra" not in json.dumps(commit)
    assert commit["$defs"]["Task"]["properties"]["text"]["pattern"] == NON_EMPTY_PATTERN
    assert tools["get_head"].input_schema["properties"]["space"]["description"] == "The Space's exact name, or its id."
    head_output, brief_output = tools["get_head"].output_schema, tools["handoff_brief"].output_schema
    assert head_output is not None
    assert brief_output is not None
    assert {"commit_hash", "decisions", "parent_commit_id"} <= set(head_output["properties"])
    assert "brief" in brief_output["properties"]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_every_tool_works_and_fails_cleanly(server: LiveServer, transport: str) -> None:
    name = unique("MCP hand-off")
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": name, "description": "Made over MCP"})
        assert (space["name"], space["head_commit_id"]) == (name, None)
        assert (await fails(client, "create_space", {"name": name})).startswith("Conflict: ")

        listed = await ok(client, "list_spaces", {"limit": 200})
        assert space["id"] in {s["id"] for s in listed["items"]}
        assert "limit" in await fails(client, "list_spaces", {"limit": 0})

        assert await fails(client, "get_head", {"space": name}) == "Not found: This Space has no Checkpoint yet."
        empty = await ok(client, "handoff_brief", {"space": name})
        assert empty["head_commit_id"] is None
        assert '`expected_head` = "none"' in empty["brief"]

        first = await ok(
            client,
            "commit_checkpoint",
            {
                "space": name,
                "message": "Plan",
                "summary": "Where we are.",
                "decisions": ["Cache API responses"],
                "assumptions": ["Traffic stays low"],
                "tasks": ["Write tests", {"text": "Pick a cache", "done": True}],
                "open_questions": ["Which TTL?"],
                "entities": ["Redis", {"name": "API", "kind": "service"}],
                "artifacts": [{"name": "plan.md", "content": "# Plan", "media_type": "text/markdown"}],
                "metadata": {"run": 1},
                "expected_head": "none",
                "author": "planner",
            },
        )
        assert first["repo_id"] == space["id"]
        assert first["tasks"] == [{"text": "Write tests", "done": False}, {"text": "Pick a cache", "done": True}]
        assert first["entities"] == [
            {"name": "Redis", "kind": None, "description": None},
            {"name": "API", "kind": "service", "description": None},
        ]
        assert first["metadata"] == {"run": 1, "author": {"kind": "agent", "name": "planner"}}
        stale = await fails(client, "commit_checkpoint", {"space": name, "message": "Late", "expected_head": "none"})
        assert stale.startswith("Conflict: HEAD has moved")

        # Agent B: reads the brief, continues on top of HEAD with a compare-and-swap.
        brief = await client.call_tool("handoff_brief", {"space": space["id"]})
        assert not brief.is_error
        markdown = _text(brief)
        assert markdown == brief.structured_content["brief"]
        assert "- Cache API responses" in markdown
        assert f'`expected_head` = "{first["id"]}"' in markdown
        second = await ok(
            client,
            "commit_checkpoint",
            {
                "space": name,
                "message": "Decided",
                "decisions": ["Do not cache API responses"],
                "expected_head": first["commit_hash"][:10],
                "author": "builder",
            },
        )
        assert second["parent_commit_id"] == first["id"]
        assert second["decisions"] == ["Cache API responses", "Do not cache API responses"]
        assert second["summary"] == "Where we are.", "the parent's state is carried forward"
        assert second["changes"]["decisions"] == {"added": ["Do not cache API responses"], "removed": []}
        stale = await fails(
            client, "commit_checkpoint", {"space": name, "message": "Late", "expected_head": first["id"]}
        )
        assert f"but it is {second['id']}" in stale

        assert await ok(client, "get_head", {"space": name}) == checkpoint_of(second)
        assert await ok(client, "get_checkpoint", {"ref": first["commit_hash"][:8]}) == checkpoint_of(first)
        assert (await fails(client, "get_checkpoint", {"ref": "deadbeef00"})).startswith("Not found: ")

        log = await ok(client, "list_checkpoints", {"space": name, "limit": 1})
        assert ([c["id"] for c in log["items"]], log["total"]) == ([second["id"]], 2)
        missing = await fails(client, "list_checkpoints", {"space": "No such Space"})
        assert missing.startswith("Not found: No Space")
        # An agent over MCP is pointed at the tool, not at a CLI it may not have.
        assert "`list_spaces` tool" in missing
        assert "smriti spaces" not in missing

        diff = await ok(client, "diff_checkpoints", {"from_ref": first["id"], "to_ref": second["id"]})
        assert diff["decisions"] == {"added": ["Do not cache API responses"], "removed": []}
        other = await ok(client, "create_space", {"name": unique("Other")})
        elsewhere = await ok(client, "commit_checkpoint", {"space": other["id"], "message": "Elsewhere"})
        across = await fails(client, "diff_checkpoints", {"from_ref": first["id"], "to_ref": elsewhere["id"]})
        assert across.startswith("Invalid input: ")
        assert "two different Spaces" in across

        review = await ok(client, "review_checkpoint", {"ref": second["id"]})
        # The entities carried forward from the first Checkpoint are named by no decision: findings too.
        assert [f["kind"] for f in review["findings"] if f["kind"] != "disconnected_entity"] == ["contradiction"]
        assert (await fails(client, "review_checkpoint", {"ref": "deadbeef00"})).startswith("Not found: ")
        # HEAD-relative refs, as in the CLI, with the Space they are of; refs are quoted as written.
        at_head = await ok(client, "review_checkpoint", {"ref": "HEAD", "space": name})
        assert at_head["commit_id"] == second["id"]
        assert (await ok(client, "get_checkpoint", {"ref": "HEAD~1", "space": name}))["id"] == first["id"]
        back = await ok(client, "diff_checkpoints", {"from_ref": "HEAD^", "to_ref": "HEAD", "space": name})
        assert back == diff
        assert "needs a Space" in await fails(client, "review_checkpoint", {"ref": "HEAD"})
        assert "'NotARef'" in await fails(client, "review_checkpoint", {"ref": "NotARef"})

        assert await ok(client, "verify_space", {"space": name}) == {
            "repo_id": space["id"],
            "checked": 2,
            "ok": True,
            "problems": [],
        }
        anchored = await ok(client, "verify_space", {"space": name, "anchors": [second["commit_hash"]]})
        assert anchored["ok"] is True
        missing = await ok(client, "verify_space", {"space": name, "anchors": ["0" * 64]})
        assert [p["kind"] for p in missing["problems"]] == ["anchor_missing"]
        assert (await fails(client, "verify_space", {"space": "No such Space"})).startswith("Not found: ")
        assert (await fails(client, "handoff_brief", {"space": "No such Space"})).startswith("Not found: ")


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(server: LiveServer, transport: str) -> None:
    name = unique("Robust")
    bad_calls: list[tuple[str, dict[str, Any], str]] = [
        ("list_spaces", {"limit": "many"}, "limit: Expected `int`, got `str`"),
        ("list_spaces", {"page": 2}, "unknown field `page`"),
        ("create_space", {}, "missing required field `name`"),
        ("create_space", {"name": ""}, "name: Expected `str` of length >= 1"),
        ("get_head", {"space": 42}, "space: Expected `str`, got `int`"),
        ("get_checkpoint", {"ref": None}, "ref: Expected `str`, got `null`"),
        ("list_checkpoints", {"space": name, "limit": 1000}, "limit: Expected `int` <= 200"),
        ("commit_checkpoint", {"space": name}, "missing required field `message`"),
        ("commit_checkpoint", {"space": name, "message": "m", "tasks": [{"done": True}]}, "tasks[0]"),
        ("commit_checkpoint", {"space": name, "message": "m", "decisions": "not a list"}, "decisions: Expected"),
        ("diff_checkpoints", {"from_ref": "a"}, "missing required field `to_ref`"),
        ("review_checkpoint", {"ref": "x", "model": 3}, "model: Expected `str | null`, got `int`"),
        ("verify_space", {"space": ["a"]}, "space: Expected `str`, got `array`"),
        ("handoff_brief", {"spaces": name}, "unknown field `spaces`"),
    ]
    async with connect(transport, server) as client:
        await ok(client, "create_space", {"name": name})
        for tool, arguments, expected in bad_calls:
            message = await fails(client, tool, arguments)
            assert message.startswith(f"Invalid arguments for {tool}: "), message
            assert expected in message, (tool, message)
        assert (await fails(client, "no_such_tool", {})).startswith("Unknown tool 'no_such_tool'")
        # The server is still there, and a host that sends lists as JSON text is understood.
        saved = await ok(
            client,
            "commit_checkpoint",
            {"space": name, "message": "After the storm", "decisions": '["A", "B"]', "tasks": '["T"]'},
        )
        assert saved["decisions"] == ["A", "B"]
        assert saved["tasks"] == [{"text": "T", "done": False}]
        assert (await ok(client, "get_head", {"space": name}))["id"] == saved["id"]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_each_space_head_and_every_checkpoint_is_a_resource(server: LiveServer, transport: str) -> None:
    name = unique("Resource / with slash")
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": name})
        head = await ok(client, "commit_checkpoint", {"space": name, "message": "Readable"})
        empty = await ok(client, "create_space", {"name": unique("No head")})

        resources = {str(r.uri): r for r in (await client.list_resources()).resources}
        uri = f"smriti://spaces/{space['id']}/head"
        assert uri in resources
        assert resources[uri].mime_type == "application/json"
        assert name in (resources[uri].title or "")
        assert f"smriti://spaces/{empty['id']}/head" not in resources, "a Space without a HEAD has no HEAD resource"

        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["smriti://spaces/{space}/head", "smriti://checkpoints/{ref}"]

        for address in (
            uri,
            f"smriti://spaces/{quote(name, safe='')}/head",
            f"smriti://checkpoints/{head['id']}",
            f"smriti://checkpoints/{head['commit_hash'][:12]}",
        ):
            read = await client.read_resource(address)
            assert len(read.contents) == 1
            content = read.contents[0]
            assert content.mime_type == "application/json"
            assert json.loads(getattr(content, "text", "")) == checkpoint_of(head)

        # A missing resource answers what the negotiated revision specifies: 2026-07-28 retired
        # -32002 for -32602 (a legacy handshake gets -32002: the in-process test below).
        assert client.protocol_version == "2026-07-28"
        for address, words in (
            ("smriti://spaces/No%20such%20Space/head", "No Space named"),
            (f"smriti://spaces/{empty['id']}/head", "no Checkpoint yet"),
            ("smriti://elsewhere/x", "Unknown resource"),
            ("smriti://checkpoints/0123456789abcdef", "Not found"),
        ):
            with pytest.raises(MCPError, match=words) as caught:
                await client.read_resource(address)
            assert caught.value.error.code == -32602, address


async def test_stdio_server_reports_an_unreachable_api_and_stays_up(server: LiveServer) -> None:
    down = f"http://127.0.0.1:{free_port()}"
    async with connect("stdio", server, api_url=down) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOL_NAMES
        for _ in range(2):
            message = await fails(client, "get_head", {"space": "Anything"})
            assert message.startswith(f"Smriti server unreachable: Cannot reach the Smriti server at {down}")
        with pytest.raises(MCPError, match="unreachable"):
            await client.list_resources()


async def test_stdio_records_the_hosts_name_as_author_under_the_classic_handshake(server: LiveServer) -> None:
    name = unique("Author")
    host = Implementation(name="desk-host", version="1.0")
    async with connect("stdio", server, mode="legacy", client_info=host) as client:
        assert client.protocol_version == "2025-11-25"
        await ok(client, "create_space", {"name": name})
        saved = await ok(client, "commit_checkpoint", {"space": name, "message": "Hello"})
        assert saved["metadata"] == {"author": {"kind": "agent", "name": "desk-host"}}
        explicit = await ok(
            client,
            "commit_checkpoint",
            {"space": name, "message": "Again", "metadata": {"author": {"kind": "human", "name": "Asha"}}},
        )
        assert explicit["metadata"]["author"] == {"kind": "human", "name": "Asha"}


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_the_configured_name_then_the_author_argument_then_the_clients_name_is_credited(
    server: LiveServer, transport: str
) -> None:
    """docs/agents.md's order, under the current protocol: the header (HTTP) or SMRITI_AGENT_NAME
    (stdio) first, since the model cannot change it; then `author`; then the client's name."""
    name = unique("Credited")
    host = Implementation(name="desk-host", version="1.0")
    async with connect(transport, server, client_info=host, agent="planner-configured") as client:
        await ok(client, "create_space", {"name": name})
        for given in (None, "builder"):
            arguments = {"space": name, "message": f"By {given}", **({"author": given} if given else {})}
            saved = await ok(client, "commit_checkpoint", arguments)
            assert saved["metadata"]["author"] == {"kind": "agent", "name": "planner-configured"}
    async with connect(transport, server, client_info=host) as client:
        saved = await ok(client, "commit_checkpoint", {"space": name, "message": "Named", "author": "builder"})
        assert saved["metadata"]["author"] == {"kind": "agent", "name": "builder"}
        saved = await ok(client, "commit_checkpoint", {"space": name, "message": "Unnamed"})
        assert saved["metadata"]["author"]["name"] in {"desk-host", "mcp-agent"}
        if transport == "stdio":  # over stdio the handshake's name is always seen
            assert saved["metadata"]["author"]["name"] == "desk-host"


async def test_http_endpoint_requires_the_token_and_refuses_foreign_origins(server: LiveServer) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for auth in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            refused = await http.post("/mcp", json=initialize, headers={**headers, **auth})
            assert refused.status_code == 401, auth
            assert refused.json()["status"] == 401
            assert "bearer token" in refused.json()["detail"].lower()
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert TOKEN not in refused.text
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        foreign = await http.post("/mcp", json=initialize, headers={**headers, **bearer, "Origin": "http://evil.test"})
        assert foreign.status_code == 403
        assert "SMRITI_CORS_ORIGINS" in foreign.json()["detail"]
        accepted = await http.post("/mcp", json=initialize, headers={**headers, **bearer})
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["result"]["serverInfo"]["name"] == "smriti"


@pytest.mark.parametrize("allowed", [("smriti.example.com",), ("*.example.com",)])
async def test_in_process_tools_get_through_allowed_hosts_and_the_token(
    settings: Settings, db: asyncpg.Connection, allowed: tuple[str, ...]
) -> None:
    """Inside the API process the tools call the API over ASGI: with its token, and a Host it accepts."""
    async with make_client(settings, api_token="in-process-token", allowed_hosts=allowed) as client:
        headers = {"Authorization": "Bearer in-process-token", "Host": "api.example.com"}
        if allowed[0] == "smriti.example.com":
            headers["Host"] = "smriti.example.com"
        legacy = {
            **headers,
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": "2025-11-25",
        }
        created = await client.post("/v4/repos", json={"name": "In process"}, headers=headers)
        assert created.status_code == 201, created.text
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "commit_checkpoint", "arguments": {"space": "In process", "message": "Over ASGI"}},
        }
        answer = await client.post(
            "/mcp",
            json=call,
            headers=legacy,
        )
    assert answer.status_code == 200, answer.text
    result = answer.json()["result"]
    assert result.get("isError") is not True, result
    assert result["structuredContent"]["repo_id"] == created.json()["id"]
    assert result["structuredContent"]["metadata"]["author"] == {"kind": "agent", "name": "mcp-agent"}
    # Stateless HTTP never sees a legacy client's `initialize`: the client names itself per request.
    async with make_client(settings, api_token="in-process-token", allowed_hosts=allowed) as client:
        named = await client.post(
            "/mcp",
            json=call,
            headers={**legacy, "X-Smriti-Agent": "planner-http"},
        )
        legacy_read = await client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "smriti://elsewhere/x"}},
            headers=legacy,
        )
    author = named.json()["result"]["structuredContent"]["metadata"]["author"]
    assert author == {"kind": "agent", "name": "planner-http"}
    assert legacy_read.json()["error"]["code"] == -32002, legacy_read.text


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_prompts_hand_off_and_review(server: LiveServer, transport: str) -> None:
    name = unique("Prompted")
    async with connect(transport, server) as client:
        await ok(client, "create_space", {"name": name})
        head = await ok(
            client, "commit_checkpoint", {"space": name, "message": "Stay in Baixa", "decisions": ["Baixa"]}
        )

        listed = {prompt.name: prompt for prompt in (await client.list_prompts()).prompts}
        assert set(listed) == {"continue_from_head", "review_checkpoint"}
        assert [a.name for a in listed["continue_from_head"].arguments or [] if a.required] == ["space"]

        handoff = await client.get_prompt("continue_from_head", {"space": name})
        (message,) = handoff.messages
        text = getattr(message.content, "text", "")
        assert message.role == "user"
        assert "Stay in Baixa" in text
        assert "`commit_checkpoint`" in text
        assert head["commit_hash"][:7] in text

        review = await client.get_prompt("review_checkpoint", {"ref": head["id"]})
        review_text = getattr(review.messages[0].content, "text", "")
        assert "contradict" in review_text
        assert head["commit_hash"] in review_text
        at_head = await client.get_prompt("review_checkpoint", {"ref": "HEAD", "space": name})
        assert head["commit_hash"] in getattr(at_head.messages[0].content, "text", "")

        with pytest.raises(MCPError, match="Unknown prompt"):
            await client.get_prompt("no_such_prompt", {})
        with pytest.raises(MCPError, match="needs space"):
            await client.get_prompt("continue_from_head", {})
        with pytest.raises(MCPError, match="No Space named"):
            await client.get_prompt("continue_from_head", {"space": "No such Space"})
