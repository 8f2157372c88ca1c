"""Proposals as MCP tools, driven by the `mcp` SDK's own client over stdio (`smriti mcp`) and
streamable HTTP (`/mcp` of a real `smriti serve`), each as an agent with its own key."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import uuid4

import httpx
import pytest

from tests.client.test_mcp import NO_KEYS, TOKEN, TRANSPORTS, connect, fails, ok
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": TOKEN}
    with live_server(env, tmp_path_factory.mktemp("mcp-proposals-logs")) as running:
        yield running


def _key(server: LiveServer, name: str) -> str:
    response = httpx.post(
        f"{server.url}/v5/agents",
        json={"name": name, "spaces": None},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


async def test_the_instructions_tell_an_agent_to_propose_its_own_line(server: LiveServer) -> None:
    async with connect("stdio", server) as client:
        instructions = client.instructions
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert instructions is not None
    assert "line of your own" in instructions
    assert "open_proposal" in instructions
    assert "protected" in instructions
    opener = tools["open_proposal"]
    assert {"space", "from_line", "into", "title", "description"} == set(opener.input_schema["properties"])
    assert opener.output_schema is not None
    assert {"number", "from", "relation", "conflicts"} <= set(opener.output_schema["properties"])


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_an_agent_opens_reads_lists_and_closes_its_proposals(server: LiveServer, transport: str) -> None:
    name = f"MCP proposals {uuid4().hex[:8]}"
    key, other = _key(server, f"mcp-{transport}"), _key(server, f"other-{transport}")
    async with connect(transport, server, token=key) as agent:
        await ok(agent, "create_space", {"name": name})
        base = await ok(agent, "commit_checkpoint", {"space": name, "message": "base", "decisions": ["A"]})
        await ok(agent, "create_line", {"space": name, "name": "mine"})
        mine = await ok(
            agent, "commit_checkpoint", {"space": name, "line": "mine", "message": "more", "decisions": ["B"]}
        )
        opened = await ok(agent, "open_proposal", {"space": name, "from_line": "mine", "title": "Add B"})
        assert (opened["number"], opened["from"], opened["into"], opened["status"]) == (1, "mine", "main", "open")
        assert opened["created_by"]["name"] == f"mcp-{transport}"
        assert (opened["from_head_commit_id"], opened["into_head_commit_id"]) == (mine["id"], base["id"])
        assert opened["relation"] == "fast_forward"
        again = await fails(agent, "open_proposal", {"space": name, "from_line": "mine", "title": "Again"})
        assert "#1" in again
        missing = await fails(agent, "open_proposal", {"space": name, "from_line": "nope", "title": "x"})
        assert "nope" in missing

        read = await ok(agent, "get_proposal", {"space": name, "number": 1})
        assert read["preview"]["merged"]["decisions"] == ["A", "B"]
        listed = await ok(agent, "list_proposals", {"space": name, "status": "open"})
        assert [p["number"] for p in listed["items"]] == [1]
        assert "no proposal #7" in await fails(agent, "get_proposal", {"space": name, "number": 7})

    async with connect(transport, server, token=other) as stranger:
        refused = await fails(stranger, "close_proposal", {"space": name, "number": 1})
        assert "opened" in refused
    async with connect(transport, server, token=key) as agent:
        closed = await ok(agent, "close_proposal", {"space": name, "number": 1, "reason": "Rethinking"})
        assert (closed["status"], closed["closed_reason"]) == ("closed", "Rethinking")
        assert "closed" in await fails(agent, "close_proposal", {"space": name, "number": 1})
        assert (await ok(agent, "list_proposals", {"space": name, "status": "open"}))["total"] == 0
