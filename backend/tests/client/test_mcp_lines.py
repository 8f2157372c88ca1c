"""Lines, carry-forward, restore and forks as MCP tools, driven by the `mcp` SDK's own client over
stdio (`smriti mcp`) and streamable HTTP (`/mcp` of a real `smriti serve`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from uuid import uuid4

import httpx
import pytest

from tests.client.test_mcp import NO_KEYS, TOKEN, TRANSPORTS, checkpoint_of, connect, fails, ok
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": TOKEN}
    with live_server(env, tmp_path_factory.mktemp("mcp-lines-logs")) as running:
        yield running


def unique(name: str) -> str:
    return f"{name} {uuid4().hex[:8]}"


async def test_the_commit_tool_says_it_starts_from_the_parent(server: LiveServer) -> None:
    async with connect("stdio", server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    commit = tools["commit_checkpoint"]
    assert commit.description is not None
    assert "starts from the parent's state" in commit.description
    properties = commit.input_schema["properties"]
    assert {"line", "replace", "remove", "complete_tasks"} <= set(properties)
    assert "Omit to keep the parent's" in json.dumps(properties["summary"])
    assert commit.output_schema is not None
    assert {"line", "changes", "commit_hash"} <= set(commit.output_schema["properties"])
    assert "create_line" in properties["parent"]["description"]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_lines_carry_forward_restore_and_fork(server: LiveServer, transport: str) -> None:
    name = unique("MCP lines")
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": name})
        first = await ok(
            client,
            "commit_checkpoint",
            {
                "space": name,
                "message": "Plan",
                "summary": "Where we are.",
                "decisions": ["Use PostgreSQL"],
                "tasks": ["Benchmark", "Write docs"],
                "open_questions": ["Which TTL?"],
                "artifacts": [{"name": "plan.md", "content": "# Plan"}],
                "expected_head": "none",
            },
        )
        assert (first["line"], first["changes"]) == ("main", None)

        # Carry-forward: name what changed, keep the rest; `changes` says what changed.
        second = await ok(
            client,
            "commit_checkpoint",
            {
                "space": name,
                "message": "Progress",
                "decisions": ["Cache reads"],
                "remove": {"open_questions": ["Which TTL?"]},
                "complete_tasks": ["Benchmark"],
                "expected_head": first["id"],
            },
        )
        assert second["parent_commit_id"] == first["id"]
        assert second["decisions"] == ["Use PostgreSQL", "Cache reads"]
        assert second["tasks"] == [{"text": "Benchmark", "done": True}, {"text": "Write docs", "done": False}]
        assert (second["summary"], second["artifacts"], second["open_questions"]) == (
            first["summary"],
            first["artifacts"],
            [],
        )
        changes = second["changes"]
        assert changes["decisions"] == {"added": ["Cache reads"], "removed": []}
        assert changes["open_questions"] == {"added": [], "removed": ["Which TTL?"]}
        assert changes["tasks"]["changed"] == [{"text": "Benchmark", "before_done": False, "after_done": True}]
        missing = await fails(
            client, "commit_checkpoint", {"space": name, "message": "x", "remove": {"decisions": ["Never"]}}
        )
        assert missing.startswith("Invalid input: remove.decisions[0]")
        twice = await fails(client, "commit_checkpoint", {"space": name, "message": "x", "tasks": ["Write docs"]})
        assert "carried forward already" in twice
        assert "`complete_tasks`" in twice
        mixed = await fails(
            client,
            "commit_checkpoint",
            {"space": name, "message": "x", "replace": True, "complete_tasks": ["Write docs"]},
        )
        assert mixed.startswith("Invalid input: `remove` and `complete_tasks`")

        # A parent that is not the line's HEAD: refused, with the tool call that starts a line there.
        refused = await fails(
            client, "commit_checkpoint", {"space": name, "message": "From the plan", "parent": first["id"]}
        )
        assert refused.startswith(f"Conflict: {first['id']} is not the HEAD of line 'main'")
        assert f'call `create_line` with space "{name}", a name and from_ref "{first["id"]}"' in refused
        stale = await fails(
            client, "commit_checkpoint", {"space": name, "message": "Late", "expected_head": first["id"]}
        )
        assert stale.startswith("Conflict: HEAD has moved")
        assert "`create_line`" in stale
        assert (await ok(client, "list_checkpoints", {"space": name}))["total"] == 2

        line = await ok(client, "create_line", {"space": name, "name": "plan-b", "from_ref": first["commit_hash"][:9]})
        assert (line["name"], line["head_commit_id"], line["is_default"]) == ("plan-b", first["id"], False)
        assert (await fails(client, "create_line", {"space": name, "name": "PLAN-B"})).startswith("Conflict: ")
        on_b = await ok(
            client,
            "commit_checkpoint",
            {"space": name, "line": "plan-b", "parent": first["id"], "message": "B", "decisions": ["Use SQLite"]},
        )
        assert (on_b["line"], on_b["parent_commit_id"]) == ("plan-b", first["id"])
        assert on_b["decisions"] == ["Use PostgreSQL", "Use SQLite"]
        assert await ok(client, "get_head", {"space": name, "line": "Plan-B"}) == checkpoint_of(on_b)
        assert (await ok(client, "get_head", {"space": name}))["id"] == second["id"]
        history = await ok(client, "list_checkpoints", {"space": name, "line": "plan-b"})
        assert [c["id"] for c in history["items"]] == [on_b["id"], first["id"]]
        unknown = await fails(client, "commit_checkpoint", {"space": name, "line": "nope", "message": "x"})
        assert unknown.startswith("Not found: This Space has no line named 'nope'")
        assert (await fails(client, "list_checkpoints", {"space": name, "line": "nope"})).startswith("Not found: ")

        lines = await ok(client, "list_lines", {"space": name})
        assert [(item["name"], item["is_default"]) for item in lines["items"]] == [("main", True), ("plan-b", False)]
        brief = await ok(client, "handoff_brief", {"space": name, "line": "plan-b"})
        assert (brief["line"], brief["lines"]) == ("plan-b", ["main", "plan-b"])
        assert '`line` = "plan-b"' in brief["brief"]
        assert f'`expected_head` = "{on_b["id"]}"' in brief["brief"]
        assert "- Use SQLite" in brief["brief"]

        # Restore on a line; the result says what changed against that line's HEAD.
        restored = await ok(
            client, "restore_checkpoint", {"ref": second["id"], "line": "plan-b", "expected_head": on_b["id"]}
        )
        assert (restored["line"], restored["parent_commit_id"]) == ("plan-b", on_b["id"])
        assert restored["decisions"] == second["decisions"]
        assert restored["metadata"]["restored_from"]["commit_id"] == second["id"]
        assert restored["changes"]["decisions"] == {"added": ["Cache reads"], "removed": ["Use SQLite"]}
        again = await fails(
            client, "restore_checkpoint", {"ref": second["id"], "line": "plan-b", "expected_head": on_b["id"]}
        )
        assert again.startswith("Conflict: ")
        assert (await fails(client, "restore_checkpoint", {"ref": "deadbeef00"})).startswith("Not found: ")

        # Rename, make default (the Space's HEAD follows), delete.
        renamed = await ok(client, "rename_line", {"space": name, "name": "plan-b", "new_name": "b"})
        assert renamed["name"] == "b"
        made = await ok(client, "set_default_line", {"space": name, "name": "b"})
        assert made["is_default"] is True
        assert (await ok(client, "get_head", {"space": name}))["id"] == restored["id"]
        kept = await fails(client, "delete_line", {"space": name, "name": "b"})
        assert kept.startswith("Conflict: ")
        assert "default line" in kept
        gone = await ok(client, "delete_line", {"space": name, "name": "main"})
        assert (gone["name"], gone["head_commit_id"]) == ("main", second["id"])
        assert (await fails(client, "delete_line", {"space": name, "name": "main"})).startswith("Not found: ")
        assert (await ok(client, "get_checkpoint", {"ref": second["id"]}))["id"] == second["id"]
        assert (await ok(client, "verify_space", {"space": name}))["ok"] is True

        # Fork a Session (made over REST, as the web app does) from a Checkpoint.
        async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
            made_session = await http.post(f"/v4/repos/{space['id']}/sessions", json={"title": "Chat"})
        assert made_session.status_code == 201, made_session.text
        origin = made_session.json()
        forked = await ok(
            client, "fork_session", {"session": origin["id"], "checkpoint": first["commit_hash"][:10], "title": "Fork"}
        )
        assert (forked["base_commit_id"], forked["title"]) == (first["id"], "Fork")
        assert forked["forked_from"] == {"session_id": origin["id"], "sequence_number": 0, "deleted": False}
        bad = await fails(client, "fork_session", {"session": "chat", "checkpoint": first["id"]})
        assert bad.startswith("Invalid input: 'chat' is not a Session id")
        assert (await fails(client, "fork_session", {"session": str(uuid4()), "checkpoint": first["id"]})).startswith(
            "Not found: "
        )


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("create_line", {"space": "S"}, "missing required field `name`"),
        ("create_line", {"space": "S", "name": ""}, "name: Expected `str` of length >= 1"),
        ("rename_line", {"space": "S", "name": "a"}, "missing required field `new_name`"),
        ("delete_line", {"space": "S", "name": "a", "force": True}, "unknown field `force`"),
        ("commit_checkpoint", {"space": "S", "message": "m", "remove": {"decision": ["x"]}}, "unknown field"),
        ("commit_checkpoint", {"space": "S", "message": "m", "replace": "yes"}, "replace: Expected `bool`"),
        ("commit_checkpoint", {"space": "S", "message": "m", "line": ""}, "line: Expected `str` of length >= 1"),
        ("restore_checkpoint", {}, "missing required field `ref`"),
        ("fork_session", {"session": "x"}, "missing required field `checkpoint`"),
        ("list_checkpoints", {"space": "S", "line": 3}, "line: Expected `str | null`, got `int`"),
    ],
)
async def test_bad_line_arguments_are_tool_errors(
    server: LiveServer, tool: str, arguments: dict[str, object], expected: str
) -> None:
    async with connect("http", server) as client:
        message = await fails(client, tool, dict(arguments))
    assert message.startswith(f"Invalid arguments for {tool}: "), message
    assert expected in message, message


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_line_name_reaches_its_own_route_and_no_other(server: LiveServer, transport: str) -> None:
    # rename_line with `x/../..` used to send PATCH /v4/repos/{id}: the Space was renamed, then
    # the tool reported an error. Every segment is encoded now; the server answers for the line.
    name = unique("MCP dots")
    async with connect(transport, server) as client:
        space = await ok(client, "create_space", {"name": name})
        for line in ("..", "x/../..", "."):
            failed = await fails(client, "rename_line", {"space": name, "name": line, "new_name": "pwned"})
            assert f"no line named {line!r}" in failed, failed
        failed = await fails(client, "delete_line", {"space": name, "name": "main/"})
        assert "none of them empty" in failed, failed
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        now = (await http.get(f"/v4/repos/{space['id']}")).json()
        lines = (await http.get(f"/v4/repos/{space['id']}/branches")).json()["items"]
    assert now["name"] == name
    assert [line["name"] for line in lines] == ["main"]
