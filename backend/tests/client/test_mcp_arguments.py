"""What MCP answers to arguments the API can never take: over-long, too large for a body, or not
text. Each is the caller's to fix, so it is a tool error (or, for a resource or prompt, an
invalid-params error) that names the argument, never an "internal error" of the server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import httpx
import pytest
from mcp import MCPError

from tests.client.test_mcp import NO_KEYS, TOKEN, TRANSPORTS, connect, fails, ok
from tests.support.cli import smriti
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

LONG = "a" * 100_000
"""A hex ref far past any Checkpoint ref (64), and an address httpx refuses (over 64 KB)."""
MODERN = "2026-07-28"


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": TOKEN}
    with live_server(env, tmp_path_factory.mktemp("mcp-arguments-logs")) as running:
        yield running


def over_long_calls(space: str, checkpoint: str, session: str) -> list[tuple[str, dict[str, Any], str]]:
    """(tool, arguments, the argument the error must name): every argument that reaches the API's
    address (a path or a query), each far too long."""
    return [
        ("get_checkpoint", {"ref": LONG}, "ref"),
        ("diff_checkpoints", {"from_ref": checkpoint, "to_ref": LONG}, "to_ref"),
        ("review_checkpoint", {"ref": LONG}, "ref"),
        ("restore_checkpoint", {"ref": LONG}, "ref"),
        ("restore_checkpoint", {"ref": checkpoint, "expected_head": LONG}, "expected_head"),
        ("fork_session", {"session": session, "checkpoint": LONG}, "checkpoint"),
        ("fork_session", {"session": LONG, "checkpoint": checkpoint}, "session"),
        ("get_session", {"session": LONG}, "session"),
        ("delete_session", {"session": LONG}, "session"),
        ("list_sessions", {"space": space, "title": LONG}, "title"),
        ("list_sessions", {"space": space, "forked_from": LONG}, "forked_from"),
        ("mount_checkpoint", {"space": space, "checkpoint": LONG}, "checkpoint"),
        ("mount_checkpoint", {"space": space, "checkpoint": checkpoint, "session": LONG}, "session"),
        ("create_line", {"space": space, "name": "from-far", "from_ref": LONG}, "from_ref"),
        ("commit_checkpoint", {"space": space, "message": "m", "expected_head": LONG}, "expected_head"),
        ("commit_checkpoint", {"space": space, "message": "m", "parent": LONG}, "parent"),
        ("verify_space", {"space": space, "anchors": [LONG]}, "anchors[0]"),
        ("verify_space", {"space": space, "anchors": ["0" * 64] * 1_000}, "anchors"),
        ("get_head", {"space": "x" * 1_000_000}, "space"),
        ("handoff_brief", {"space": LONG}, "space"),
        ("list_checkpoints", {"space": LONG}, "space"),
    ]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_an_over_long_argument_is_a_tool_error_naming_it(server: LiveServer, transport: str) -> None:
    name = f"Long {uuid4().hex[:8]}"
    async with connect(transport, server) as client:
        await ok(client, "create_space", {"name": name})
        saved = await ok(client, "commit_checkpoint", {"space": name, "message": "Start"})
        session = str(uuid4())
        for tool, arguments, argument in over_long_calls(name, saved["id"], session):
            message = await fails(client, tool, arguments)
            assert message.startswith(f"Invalid arguments for {tool}: {argument}: Expected "), (tool, message[:300])
            assert len(message) < 300, "the value is not echoed back"
        # Still serving, and a ref of the longest real length is not refused as long.
        assert (await ok(client, "get_checkpoint", {"ref": saved["commit_hash"]}))["id"] == saved["id"]


async def test_a_body_too_large_for_the_api_names_the_largest_argument(server: LiveServer) -> None:
    """Over stdio (over HTTP, /mcp's own body limit refuses such a call before any tool runs)."""
    name = f"Large {uuid4().hex[:8]}"
    async with connect("stdio", server) as client:
        await ok(client, "create_space", {"name": name})
        message = await fails(
            client, "commit_checkpoint", {"space": name, "message": "m", "decisions": ["d"], "summary": "s" * 1_100_000}
        )
        assert message.startswith("Invalid input: "), message[:300]
        assert "The largest argument is `summary` (1,100,002 bytes of JSON)" in message
        assert "SMRITI_MAX_BODY_BYTES" in message


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_an_over_long_resource_or_prompt_argument_is_invalid_params_naming_it(
    server: LiveServer, transport: str
) -> None:
    async with connect(transport, server) as client:
        for uri, words in (
            (f"smriti://checkpoints/{LONG}", "{ref} is 100,000 characters long; it is at most 64"),
            (f"smriti://spaces/{'s' * 1_000}/head", "{space} is 1,000 characters long; it is at most 200"),
        ):
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            assert caught.value.error.code == -32602, uri
            assert words in caught.value.error.message
            assert len(caught.value.error.message) < 400
        for prompt, arguments, words in (
            ("review_checkpoint", {"ref": LONG}, "ref: Expected `str` of length <= 64"),
            ("continue_from_head", {"space": LONG}, "space: Expected `str` of length <= 200"),
            ("continue_from_head", {"space": "Any", "line": LONG}, "line: Expected `str` of length <= 200"),
        ):
            with pytest.raises(MCPError) as caught:
                await client.get_prompt(prompt, arguments)
            assert caught.value.error.code == -32602, prompt
            assert caught.value.error.message == f"Invalid arguments: {words}"


async def modern_call(server: LiveServer, method: str, params_json: str) -> dict[str, Any]:
    """One request of the 2026-07-28 revision over HTTP, its params written as JSON text, so it
    can hold what the SDK's client never sends: a lone surrogate escape (valid JSON, no text)."""
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    params = json.loads(params_json)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}})
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": method,
        "Mcp-Name": params["name"],
    }
    async with httpx.AsyncClient(timeout=60) as http:
        answer = await http.post(f"{server.url}/mcp", content=body, headers=headers)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


async def test_a_lone_surrogate_in_an_argument_is_a_tool_error_naming_it(server: LiveServer) -> None:
    name = f"Surrogate {uuid4().hex[:8]}"
    async with connect("http", server) as client:
        await ok(client, "create_space", {"name": name})
    for params, named in (
        ('{"name": "create_space", "arguments": {"name": "A\\ud800"}}', "create_space: name"),
        ('{"name": "get_head", "arguments": {"space": "\\udc00"}}', "get_head: space"),
        (
            f'{{"name": "commit_checkpoint", "arguments": {{"space": "{name}", "message": "m", '
            '"decisions": ["fine", "\\ud800"]}}',
            "commit_checkpoint: decisions[1]",
        ),
        (
            f'{{"name": "commit_checkpoint", "arguments": {{"space": "{name}", "message": "m", '
            '"metadata": {"note\\ud800": 1}}}',
            "commit_checkpoint: metadata (a key)",
        ),
        ('{"name": "search", "arguments": {"query": "\\ud800"}}', "search: query"),
    ):
        result = await modern_call(server, "tools/call", params)
        assert result["isError"] is True, result
        text = result["content"][0]["text"]
        assert text.startswith(f"Invalid arguments for {named}: holds a lone surrogate"), text
    async with connect("http", server) as client:
        assert (await fails(client, "get_head", {"space": name})).startswith("Not found: "), "nothing was saved"


def test_the_cli_refuses_a_ref_too_long_for_an_address_as_a_usage_error(server: LiveServer) -> None:
    run = smriti("show", "a" * 70_000, url=server.url, env={"SMRITI_API_TOKEN": TOKEN})
    assert run.code == 2, run.stderr[-500:]
    assert run.error_line() == "smriti: The request was not sent: its address is too long or malformed (URL too long)."
