"""Sessions as MCP tools (SYSTEM.md §12), driven by the `mcp` SDK's own client over stdio (`smriti
mcp`) and streamable HTTP (`/mcp` of a real `smriti serve`): list them with ids, read what the next
message and save start from, mount a Checkpoint (a based Session), delete a Session."""

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
    with live_server(env, tmp_path_factory.mktemp("mcp-sessions-logs")) as running:
        yield running


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_mount_list_read_and_delete_sessions(server: LiveServer, transport: str) -> None:
    name = f"MCP sessions {uuid4().hex[:8]}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": name})
        plan = await ok(
            client, "commit_checkpoint", {"space": name, "message": "Plan", "decisions": ["Use PostgreSQL"]}
        )
        mounted = await ok(client, "mount_checkpoint", {"space": name, "checkpoint": "HEAD"})
        assert (mounted["repo_id"], mounted["base_commit_id"]) == (space["id"], plan["id"])
        # The next message in it receives the base, whichever client sends it.
        async with httpx.AsyncClient(headers=headers, timeout=30) as http:
            preview = (await http.post(f"{server.url}/v4/chat/context", json={"session_id": mounted["id"]})).json()
        assert (preview["checkpoint_id"], preview["checkpoint_from"]) == (plan["id"], "base")

        continued = await ok(
            client,
            "mount_checkpoint",
            {"space": name, "checkpoint": plan["commit_hash"][:9], "session": mounted["id"], "title": "Go on"},
        )
        assert continued["forked_from"] == {"session_id": mounted["id"], "sequence_number": 0, "deleted": False}
        listed = await ok(client, "list_sessions", {"space": name})
        assert [s["id"] for s in listed["items"]] == [continued["id"], mounted["id"]]
        assert (await ok(client, "list_sessions", {"space": name, "title": "GO ON"}))["total"] == 1
        forks = await ok(client, "list_sessions", {"space": name, "forked_from": mounted["id"]})
        assert [s["id"] for s in forks["items"]] == [continued["id"]]
        origin = await ok(client, "get_session", {"session": mounted["id"]})
        assert (origin["continued_count"], origin["continued_in"][0]["session_id"]) == (1, continued["id"])
        assert origin["last_saved"] is None

        deleted = await ok(client, "delete_session", {"session": mounted["id"]})
        assert deleted["id"] == mounted["id"]
        assert "No Session" in await fails(client, "get_session", {"session": mounted["id"]})
        after = await ok(client, "get_session", {"session": continued["id"]})
        assert after["forked_from"]["deleted"] is True
        assert "is not a Session id" in await fails(client, "delete_session", {"session": "chat-1"})
        assert "No Session" in await fails(
            client, "mount_checkpoint", {"space": name, "checkpoint": "HEAD", "session": str(uuid4())}
        )
