"""Merging lines as MCP tools, driven by the `mcp` SDK's own client over stdio (`smriti mcp`) and
streamable HTTP (`/mcp` of a real `smriti serve`): merge when clean, hand conflicts to a person."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from mcp import Client

from tests.client.test_mcp import NO_KEYS, TOKEN, TRANSPORTS, checkpoint_of, connect, fails, ok
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": TOKEN}
    with live_server(env, tmp_path_factory.mktemp("mcp-merge-logs")) as running:
        yield running


def unique(name: str) -> str:
    return f"{name} {uuid4().hex[:8]}"


async def diverged(client: Client, name: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The worked example of docs/merge.md, over the tools: `main` and `budget`, one summary conflict."""
    await ok(client, "create_space", {"name": name})
    base = await ok(
        client,
        "commit_checkpoint",
        {
            "space": name,
            "message": "base",
            "summary": "A trip to Lisbon.",
            "decisions": ["Stay in Baixa"],
            "tasks": ["Book hotel"],
        },
    )
    await ok(client, "create_line", {"space": name, "name": "budget"})
    ours = await ok(
        client,
        "commit_checkpoint",
        {
            "space": name,
            "message": "ours",
            "summary": "A three-day trip to Lisbon.",
            "decisions": ["Day 3: Sintra"],
            "complete_tasks": ["Book hotel"],
        },
    )
    theirs = await ok(
        client,
        "commit_checkpoint",
        {
            "space": name,
            "line": "budget",
            "message": "theirs",
            "summary": "A cheap trip to Lisbon.",
            "decisions": ["Keep it under 900 EUR"],
            "tasks": ["Compare flights"],
        },
    )
    return base, ours, theirs


async def test_the_merge_tools_tell_an_agent_that_conflicts_go_to_a_person(server: LiveServer) -> None:
    async with connect("stdio", server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    preview, commit = tools["preview_merge"], tools["commit_merge"]
    assert preview.description is not None
    assert commit.description is not None
    assert "do not resolve the conflicts yourself: show them to a person" in preview.description
    assert "Call it only when the preview was `clean`, or after a person chose" in commit.description
    assert preview.input_schema["required"] == ["space", "from", "into"]
    assert set(commit.input_schema["required"]) == {
        "space",
        "into",
        "theirs_commit_id",
        "expected_head_commit_id",
        "merged",
    }
    for tool in (preview, commit):
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False
        assert "$ref" not in tool.input_schema
    merged = commit.input_schema["$defs"][commit.input_schema["properties"]["merged"]["$ref"].rsplit("/", 1)[1]]
    assert merged["additionalProperties"] is False
    assert set(merged["required"]) == {
        "summary",
        "decisions",
        "assumptions",
        "tasks",
        "open_questions",
        "entities",
        "artifacts",
    }
    assert commit.input_schema["properties"]["theirs_commit_id"]["format"] == "uuid"
    conflicts = commit.input_schema["properties"]["conflicts"]
    assert "each with `choose` set to what a person chose" in conflicts["description"]
    choice = commit.input_schema["$defs"][conflicts["items"]["$ref"].rsplit("/", 1)[1]]
    assert choice["additionalProperties"] is False
    assert choice["required"] == ["field", "key"]
    assert {"enum": ["base", "edited", "ours", "theirs"]} in choice["properties"]["choose"]["anyOf"]
    assert preview.output_schema is not None
    assert {"how_to_resolve", "merged", "conflicts", "clean", "ours_commit_id", "theirs_commit_id"} <= set(
        preview.output_schema["properties"]
    )
    assert preview.annotations is not None
    assert commit.annotations is not None
    assert (preview.annotations.read_only_hint, commit.annotations.read_only_hint) == (True, False)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_clean_merge_is_committed_and_a_resolved_conflict_too(server: LiveServer, transport: str) -> None:
    name = unique("MCP merge")
    async with connect(transport, server) as client:
        base, ours, theirs = await diverged(client, name)
        preview = await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "main"})
        assert (preview["base_commit_id"], preview["relation"], preview["clean"]) == (base["id"], "diverged", False)
        assert (preview["ours_commit_id"], preview["theirs_commit_id"]) == (ours["id"], theirs["id"])
        assert preview["conflicts"] == [
            {
                "field": "summary",
                "key": None,
                "occurrence": 0,
                "base": "A trip to Lisbon.",
                "ours": "A three-day trip to Lisbon.",
                "theirs": "A cheap trip to Lisbon.",
                "choose": None,
            }
        ]
        assert 'set "choose" to "edited"' in preview["how_to_resolve"]
        log = await ok(client, "list_checkpoints", {"space": name, "limit": 1})
        assert log["total"] == 3, "a preview writes nothing"

        # A person chose a summary of their own; the agent commits exactly that.
        chosen = {**preview["merged"], "summary": "A cheap three-day trip to Lisbon."}
        merge = await ok(
            client,
            "commit_merge",
            {
                "space": name,
                "into": "main",
                "theirs_commit_id": preview["theirs_commit_id"],
                "expected_head_commit_id": preview["ours_commit_id"],
                "merged": chosen,
                "conflicts": [{**preview["conflicts"][0], "choose": "edited"}],
            },
        )
        assert (merge["parent_commit_id"], merge["merge_parent_id"], merge["line"]) == (
            ours["id"],
            theirs["id"],
            "main",
        )
        assert merge["message"] == f"Merge {theirs['commit_hash'][:7]} into main"
        assert merge["summary"] == "A cheap three-day trip to Lisbon."
        assert merge["decisions"] == ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"]
        assert merge["changes"]["decisions"] == {"added": ["Keep it under 900 EUR"], "removed": []}
        assert merge["metadata"]["author"]["kind"] == "agent"
        assert await ok(client, "get_head", {"space": name}) == checkpoint_of(merge)
        assert (await ok(client, "verify_space", {"space": name}))["ok"] is True

        # budget moves on: a clean merge, committed as previewed, with a message (`merged` as a JSON string too).
        more = await ok(
            client, "commit_checkpoint", {"space": name, "line": "budget", "message": "more", "decisions": ["No taxis"]}
        )
        clean = await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "MAIN"})
        assert (clean["clean"], clean["conflicts"], clean["base_commit_id"]) == (True, [], theirs["id"])
        again = await ok(
            client,
            "commit_merge",
            {
                "space": name,
                "into": "main",
                "theirs_commit_id": clean["theirs_commit_id"],
                "expected_head_commit_id": clean["ours_commit_id"],
                "merged": json.dumps(clean["merged"]),
                "message": "Merge budget into main",
            },
        )
        assert (again["merge_parent_id"], again["parent_commit_id"], again["message"]) == (
            more["id"],
            merge["id"],
            "Merge budget into main",
        )
        assert again["decisions"][-1] == "No taxis"
        assert (await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "main"}))[
            "relation"
        ] == "up_to_date"
        assert (await ok(client, "verify_space", {"space": name}))["checked"] == 6


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_commit_merge_refuses_a_conflict_no_person_chose_and_saves_nothing(
    server: LiveServer, transport: str
) -> None:
    """Issue 42, item 4: `commit_merge` saved the preview's `merged` as it was, keeping ours' side of
    each conflict as if chosen, and recorded theirs as merged."""
    name = unique("MCP unchosen")
    async with connect(transport, server) as client:
        _base, ours, theirs = await diverged(client, name)
        preview = await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "main"})
        arguments = {
            "space": name,
            "into": "main",
            "theirs_commit_id": preview["theirs_commit_id"],
            "expected_head_commit_id": preview["ours_commit_id"],
            "merged": preview["merged"],
        }
        # Without `conflicts`; with the preview's, none chosen; with `merged` edited but nothing marked.
        edited = {**preview["merged"], "summary": "A cheap three-day trip to Lisbon."}
        for call in (
            arguments,
            {**arguments, "conflicts": preview["conflicts"]},
            {**arguments, "merged": edited, "conflicts": []},
        ):
            error = await fails(client, "commit_merge", call)
            assert error == (
                "Open conflicts: The merge's conflict has no choice: summary. Nothing was written. Show each to a "
                "person, and pass what they chose as its `choose` in `conflicts`; never choose for them."
            )
        assert (await ok(client, "list_checkpoints", {"space": name, "limit": 1}))["total"] == 3
        assert (await ok(client, "get_head", {"space": name}))["id"] == ours["id"]
        again = await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "main"})
        assert (again["clean"], again["conflicts"][0]["theirs"]) == (False, theirs["summary"])

        # The person chose theirs (the conflicts as a JSON string, as some hosts send lists).
        chosen = json.dumps([{**preview["conflicts"][0], "choose": "theirs"}])
        merge = await ok(client, "commit_merge", {**arguments, "conflicts": chosen})
        assert (merge["summary"], merge["merge_parent_id"]) == (theirs["summary"], theirs["id"])
        assert merge["changes"]["summary"] == {"changed": True, "before": ours["summary"], "after": theirs["summary"]}


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_merge_into_a_line_that_moved_is_a_conflict_and_bad_calls_are_tool_errors(
    server: LiveServer, transport: str
) -> None:
    name = unique("MCP merge race")
    async with connect(transport, server) as client:
        _base, ours, _theirs = await diverged(client, name)
        preview = await ok(client, "preview_merge", {"space": name, "from": "budget", "into": "main"})
        moved = await ok(client, "commit_checkpoint", {"space": name, "message": "meanwhile", "decisions": ["Cascais"]})
        arguments = {
            "space": name,
            "into": "main",
            "theirs_commit_id": preview["theirs_commit_id"],
            "expected_head_commit_id": preview["ours_commit_id"],
            "merged": preview["merged"],
        }
        stale = await fails(client, "commit_merge", arguments)
        moved_text = f"its HEAD is {moved['commit_hash'][:7]}, not {ours['commit_hash'][:7]}."
        assert stale.startswith(f"Conflict: Line 'main' has moved since the merge was previewed: {moved_text}")
        assert "Nothing was written. Call `preview_merge` again" in stale
        assert (await ok(client, "list_checkpoints", {"space": name, "limit": 1}))["total"] == 4

        missing_field = {**preview["merged"]}
        del missing_field["tasks"]
        for tool, args, start in (
            ("preview_merge", {"space": name, "from": "nope", "into": "main"}, "Not found: This Space has no line"),
            ("preview_merge", {"space": name, "from": "budget", "into": "nope"}, "Not found: This Space has no line"),
            (
                "preview_merge",
                {"space": unique("No such Space"), "from": "budget", "into": "main"},
                "Not found: No Space",
            ),
            ("preview_merge", {"space": name, "from": "main", "into": "main"}, "Invalid input: ours and theirs"),
            ("preview_merge", {"space": name, "into": "main"}, "Invalid arguments for preview_merge: "),
            ("commit_merge", {**arguments, "merged": missing_field}, "Invalid arguments for commit_merge: merged: "),
            ("commit_merge", {**arguments, "theirs_commit_id": "x"}, "Invalid arguments for commit_merge: "),
            ("commit_merge", {**arguments, "into": "nope"}, "Not found: This Space has no line named 'nope'."),
            (
                "commit_merge",
                {**arguments, "expected_head_commit_id": moved["id"], "theirs_commit_id": moved["id"]},
                "Invalid input: ",
            ),
        ):
            error = await fails(client, tool, args)
            assert error.startswith(start), (tool, args, error)
        assert (await ok(client, "list_checkpoints", {"space": name, "limit": 1}))["total"] == 4
        assert (await ok(client, "verify_space", {"space": name}))["ok"] is True
