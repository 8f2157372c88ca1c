"""The MCP `search` tool through the official SDK's client, over both transports."""

from __future__ import annotations

import pytest

from tests.client.test_mcp import TRANSPORTS, connect, fails, ok, server, unique
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.slow
__all__ = ["server"]  # the live server fixture, shared with test_mcp


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_search_finds_checkpoints_in_one_space_or_all(server: LiveServer, transport: str) -> None:
    # A word no other test writes: letters only, so the English stemmer treats it as a word.
    word = "zebra" + unique("x").split()[1].translate(str.maketrans("0123456789", "ghijklmnop"))
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": unique("MCP search")})
        other = await ok(client, "create_space", {"name": unique("MCP search other")})
        saved = await ok(
            client, "commit_checkpoint", {"space": space["id"], "message": "Plan", "decisions": [f"Feed the {word}s"]}
        )
        await ok(client, "commit_checkpoint", {"space": other["id"], "message": f"About {word}"})

        everywhere = await ok(client, "search", {"query": word})
        assert everywhere["total"] == 2
        inside = await ok(client, "search", {"query": word, "space": space["name"], "kind": "checkpoint"})
        [hit] = inside["items"]
        assert (hit["commit_id"], hit["field"]) == (saved["id"], "decisions[0]")
        assert (hit["commit_hash"], hit["earlier"]) == (saved["commit_hash"], [])
        start, end = hit["highlights"][0]
        assert hit["snippet"][start:end] == f"{word}s"

        # Carried forward into a second Checkpoint, the decision is one hit naming both.
        again = await ok(
            client,
            "commit_checkpoint",
            {"space": space["id"], "message": "Next"},
        )
        [carried] = (await ok(client, "search", {"query": word, "space": space["name"], "kind": "checkpoint"}))["items"]
        assert (carried["commit_hash"], carried["earlier"][0]["commit_hash"]) == (
            again["commit_hash"],
            saved["commit_hash"],
        )

        assert "q" in await fails(client, "search", {"query": "the"})
        assert "Not found" in await fails(client, "search", {"query": word, "space": unique("nowhere")})
        assert "query" in await fails(client, "search", {"query": ""})
