"""Carrying state forward (apply) and restore: a new Checkpoint never drops what its parent had
unless the request named it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.support.api import commit, create_space

FULL: dict[str, Any] = {
    "summary": "We are building the importer.",
    "decisions": ["Use PostgreSQL", "Ship weekly"],
    "assumptions": ["Users have Python 3.11"],
    "open_questions": ["Which CSV dialect?"],
    "tasks": [{"text": "Write the parser", "done": False}, {"text": "Pick a name", "done": False}],
    "entities": [{"name": "Importer", "kind": "component", "description": "reads files"}],
    "artifacts": [{"name": "plan.md", "content": "step 1", "media_type": "text/markdown"}],
    "metadata": {"team": "core"},
}


async def _apply(client: httpx.AsyncClient, space: str, status: int = 201, **body: Any) -> dict[str, Any]:
    response = await client.post("/v5/checkpoints/apply", json={"repo_id": space, "message": "next", **body})
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def test_apply_keeps_everything_it_was_not_told_to_change(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    parent = await commit(client, space["id"], "full", **FULL)
    child = await _apply(client, space["id"], add={"decisions": ["Use msgspec"]})
    assert child["parent_commit_id"] == parent["id"]
    for field in ("summary", "assumptions", "open_questions", "tasks", "entities", "artifacts", "metadata"):
        assert child[field] == parent[field], field
    assert child["decisions"] == ["Use PostgreSQL", "Ship weekly", "Use msgspec"]
    diff = (await client.get(f"/v5/commits/{parent['id']}/diff/{child['id']}")).json()
    assert diff["decisions"] == {"added": ["Use msgspec"], "removed": []}


async def test_apply_sets_removes_completes_and_replaces_by_name(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "full", **FULL)
    child = await _apply(
        client,
        space["id"],
        set={"summary": "The importer reads CSV."},
        remove={"decisions": ["Ship weekly"], "open_questions": ["Which CSV dialect?"], "artifacts": ["plan.md"]},
        complete_tasks=["Write the parser"],
        add={
            "tasks": [{"text": "Write docs"}],
            "entities": [{"name": "Importer", "kind": "component", "description": "reads CSV"}, {"name": "CSV"}],
        },
        metadata={"reviewed": True},
    )
    assert child["summary"] == "The importer reads CSV."
    assert child["decisions"] == ["Use PostgreSQL"]
    assert child["open_questions"] == []
    assert child["artifacts"] == []
    assert child["tasks"] == [
        {"text": "Write the parser", "done": True},
        {"text": "Pick a name", "done": False},
        {"text": "Write docs", "done": False},
    ]
    assert [e["description"] for e in child["entities"]] == ["reads CSV", None]  # replaced in place, then added
    assert child["metadata"] == {"team": "core", "reviewed": True}


async def test_apply_refuses_what_cannot_apply_and_writes_nothing(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "full", **FULL)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"remove": {"decisions": ["Never said"]}}, "remove.decisions[0]"),
        ({"remove": {"tasks": ["Pick a name", "Pick a name"]}}, "remove.tasks[1]"),
        ({"add": {"decisions": ["Use PostgreSQL"]}}, "add.decisions[0]"),
        ({"add": {"decisions": ["New", " New "]}}, "add.decisions[1]"),
        ({"add": {"tasks": [{"text": "Write the parser", "done": True}]}}, "add.tasks[0]"),
        ({"complete_tasks": ["No such task"]}, "complete_tasks[0]"),
        ({"remove": {"tasks": ["Pick a name"]}, "complete_tasks": ["Pick a name"]}, "complete_tasks[0]"),
        ({"add": {"entities": [{"name": "X"}, {"name": "X"}]}}, "add.entities[1]"),
        ({"add": {"decisions": ["bad\u0000text"]}}, "add.decisions[0]"),
        ({"add": {"tasks": [{"text": "   "}]}}, "add.tasks[0].text"),
        ({"set": {"summary": "nul\u0000"}}, "summary"),
    ]
    for body, field in cases:
        answer = await _apply(client, space["id"], 400, **body)
        assert answer["errors"][0]["field"] == field, (body, answer)
    assert (await client.get(f"/v4/repos/{space['id']}/commits")).json()["total"] == 1


async def test_apply_on_an_empty_space_starts_empty(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    first = await _apply(client, space["id"], add={"decisions": ["Start"]})
    assert (first["parent_commit_id"], first["decisions"], first["summary"]) == (None, ["Start"], "")


async def test_racing_applies_each_keep_the_others_changes(client: httpx.AsyncClient) -> None:
    # Without a pinned HEAD, each apply lands on the latest state: none overwrites another's item.
    space = await create_space(client)
    await commit(client, space["id"], "base")
    await asyncio.gather(*(_apply(client, space["id"], add={"decisions": [f"d{i}"]}) for i in range(12)))
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert sorted(head["decisions"]) == sorted(f"d{i}" for i in range(12))


async def test_a_pinned_apply_is_a_compare_and_swap(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    await commit(client, space["id"], "moved")
    answer = await _apply(client, space["id"], 409, expected_head_commit_id=base["id"], add={"decisions": ["late"]})
    assert answer["errors"][0]["field"] == "expected_head_commit_id"
    # An older parent is refused unless the request says which HEAD it replaces.
    sideways = await _apply(client, space["id"], 409, parent_commit_id=base["id"], add={"decisions": ["from base"]})
    assert sideways["errors"][0]["field"] == "expected_head_commit_id"
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    chosen = await _apply(
        client, space["id"], parent_commit_id=base["id"], expected_head_commit_id=head["id"], add={"decisions": ["b"]}
    )
    assert chosen["parent_commit_id"] == base["id"]
    missing = await _apply(client, space["id"], 404, parent_commit_id="0" * 8 + "-0000-0000-0000-" + "0" * 12)
    assert missing["errors"][0]["field"] == "parent_commit_id"


async def test_apply_to_a_line_starts_from_that_lines_head(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base", decisions=["A"])
    await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "idea", "from_ref": base["id"]})
    await commit(client, space["id"], "main moves", decisions=["A", "B"])
    on_line = await _apply(client, space["id"], branch="idea", add={"decisions": ["C"]})
    assert (on_line["parent_commit_id"], on_line["decisions"]) == (base["id"], ["A", "C"])


async def test_restore_makes_a_new_checkpoint_equal_to_an_old_one(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    old = await commit(client, space["id"], "good", **FULL)
    bad = await commit(client, space["id"], "wrong turn", decisions=["Use MongoDB"])
    response = await client.post(f"/v5/commits/{old['commit_hash'][:10]}/restore", json={})
    assert response.status_code == 201, response.text
    restored = response.json()
    assert restored["parent_commit_id"] == bad["id"]
    for field in ("summary", "decisions", "assumptions", "open_questions", "tasks", "entities", "artifacts"):
        assert restored[field] == old[field], field
    assert restored["metadata"] == {
        **FULL["metadata"],
        "restored_from": {"commit_id": old["id"], "commit_hash": old["commit_hash"]},
    }
    assert restored["message"].startswith(f"Restore {old['commit_hash'][:7]}")
    assert (await client.get(f"/v4/repos/{space['id']}/head")).json()["id"] == restored["id"]
    stale = await client.post(f"/v5/commits/{old['id']}/restore", json={"expected_head_commit_id": bad["id"]})
    assert stale.status_code == 409
    unknown = await client.post(f"/v5/commits/{old['id']}/restore", json={"branch": "nope"})
    assert (unknown.status_code, unknown.json()["errors"][0]["field"]) == (404, "branch")


async def test_provenance_describes_one_checkpoint_and_is_not_inherited(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    drafted = {
        "author": {"kind": "human", "name": "asha"},
        "source": {"session_id": "s", "from_seq": 1, "to_seq": 4},
        "drafted_by": {"provider": "offline", "model": "offline-1"},
        "team": "core",
    }
    old = await commit(client, space["id"], "drafted", decisions=["A"], metadata=drafted)
    restored = (await client.post(f"/v5/commits/{old['id']}/restore", json={})).json()
    # A restore is that state again (SYSTEM.md §8), its provenance included, plus where it came from.
    assert restored["metadata"] == {
        **drafted,
        "restored_from": {"commit_id": old["id"], "commit_hash": old["commit_hash"]},
    }
    after = await _apply(client, space["id"], add={"decisions": ["B"]})
    assert after["metadata"] == {"team": "core"}  # not a restore, not drafted, no one's authorship claimed
