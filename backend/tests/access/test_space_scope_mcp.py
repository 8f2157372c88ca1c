"""Over MCP (the official SDK's client against `/mcp`, the agent's key as its bearer), an agent's
key shows nothing of another Space: resources, prompts and tools answer for it exactly what they
answer for a Space or Checkpoint that does not exist (SYSTEM.md §13)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Local mode: no credential is the person; an `smr_` key is the agent.
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": ""}
    with live_server(env, tmp_path_factory.mktemp("scope-mcp-logs")) as running:
        yield running


@asynccontextmanager
async def as_agent(server: LiveServer, token: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    async with (
        http,
        Client(streamable_http_client(f"{server.url}/mcp", http_client=http), read_timeout_seconds=60) as client,
    ):
        yield client


async def _space(http: httpx.AsyncClient, name: str, word: str) -> dict[str, Any]:
    space = (await http.post("/v4/repos", json={"name": name})).json()
    saved = await http.post("/v4/chat/commit", json={"repo_id": space["id"], "message": f"{word} saved"})
    assert saved.status_code == 201, saved.text
    return {**space, "head": saved.json()}


def _tool_text(result: Any) -> str:
    assert result.is_error, result.structured_content
    return "".join(getattr(block, "text", "") for block in result.content)


def _without_ids(text: str, *named: str) -> str:
    for value in named:
        text = text.replace(value, "⟨named⟩")
    return _UUID.sub("⟨id⟩", text)


async def test_mcp_never_shows_another_space(server: LiveServer, tmp_path: Path) -> None:
    suffix = uuid.uuid4().hex[:8]
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as person:
        a = await _space(person, f"A {suffix}", "alpha")
        b = await _space(person, f"B {suffix}", f"zebra{suffix}")
        made = await person.post("/v5/agents", json={"name": "a-only", "spaces": [a["id"]]})
        assert made.status_code == 201, made.text
        token = made.json()["token"]

    missing_space, missing_commit = str(uuid.uuid4()), str(uuid.uuid4())
    async with as_agent(server, token) as client:
        # Resources: A's HEAD is listed, nothing of B; reading B's is reading a Space never made.
        listed = " ".join(str(r.uri) + (r.title or "") for r in (await client.list_resources()).resources)
        assert a["id"] in listed
        assert b["id"] not in listed
        assert b["name"] not in listed
        for b_address, missing_address, named in (
            (f"smriti://spaces/{b['id']}/head", f"smriti://spaces/{missing_space}/head", (b["id"], missing_space)),
            (
                f"smriti://checkpoints/{b['head']['id']}",
                f"smriti://checkpoints/{missing_commit}",
                (b["head"]["id"], missing_commit),
            ),
            (
                f"smriti://checkpoints/{b['head']['commit_hash']}",
                f"smriti://checkpoints/{'0' * 64}",
                (b["head"]["commit_hash"], "0" * 64),
            ),
        ):
            errors = []
            for address in (b_address, missing_address):
                with pytest.raises(MCPError) as caught:
                    await client.read_resource(address)
                errors.append((caught.value.error.code, _without_ids(caught.value.error.message, *named)))
            assert errors[0] == errors[1], errors

        # Prompts: B by name or id is a Space that does not exist.
        for space in (b["name"], b["id"]):
            with pytest.raises(MCPError) as caught:
                await client.get_prompt("continue_from_head", {"space": space})
            with pytest.raises(MCPError) as random_caught:
                await client.get_prompt("continue_from_head", {"space": missing_space if space == b["id"] else "Z"})
            assert _without_ids(caught.value.error.message, space) == _without_ids(
                random_caught.value.error.message, missing_space, "Z"
            )
        handoff = await client.get_prompt("continue_from_head", {"space": a["name"]})
        assert "alpha saved" in getattr(handoff.messages[0].content, "text", "")

        # Tools: the list, search and every tool naming B.
        spaces = (await client.call_tool("list_spaces", {})).structured_content
        assert [s["id"] for s in spaces["items"]] == [a["id"]]
        found = (await client.call_tool("search", {"query": f"zebra{suffix}"})).structured_content
        assert found["total"] == 0
        assert json.dumps(found).find(b["id"]) == -1
        for tool, b_arguments, random_arguments, named in (
            ("get_head", {"space": b["id"]}, {"space": missing_space}, (b["id"], missing_space)),
            ("get_head", {"space": b["name"]}, {"space": "Z"}, (b["name"], "Z")),
            (
                "get_checkpoint",
                {"ref": b["head"]["id"]},
                {"ref": missing_commit},
                (b["head"]["id"], missing_commit),
            ),
            (
                "get_checkpoint",
                {"ref": b["head"]["commit_hash"][:12]},
                {"ref": "0123456789ab"},
                (b["head"]["commit_hash"][:12], "0123456789ab"),
            ),
            (
                "commit_checkpoint",
                {"space": b["id"], "message": "intrusion"},
                {"space": missing_space, "message": "intrusion"},
                (b["id"], missing_space),
            ),
            ("list_sessions", {"space": b["id"]}, {"space": missing_space}, (b["id"], missing_space)),
        ):
            b_text = _tool_text(await client.call_tool(tool, b_arguments))
            random_text = _tool_text(await client.call_tool(tool, random_arguments))
            assert _without_ids(b_text, *named) == _without_ids(random_text, *named), (tool, b_text, random_text)
        assert (await client.call_tool("get_head", {"space": a["id"]})).structured_content["id"] == a["head"]["id"]

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as person:
        b_log = (await person.get(f"/v4/repos/{b['id']}/commits")).json()
        assert b_log["total"] == 1  # nothing was written to B
