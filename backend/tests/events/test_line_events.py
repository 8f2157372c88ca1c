"""Every change to a line writes one event in its own transaction, naming who made it: created,
updated (renamed, made the default, protected: one event a request, saying what changed), deleted;
a refused change writes none (SYSTEM.md §14)."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from tests.access.agents import agent_headers
from tests.events.change_events import Written, events_since, mark
from tests.support.api import commit, create_space


async def _space(client: httpx.AsyncClient) -> tuple[str, dict[str, Any]]:
    """A Space with one Checkpoint on `main`."""
    space = await create_space(client, "lines")
    return space["id"], await commit(client, space["id"], "base")


@pytest.mark.parametrize("by_agent", [False, True], ids=["person", "agent"])
async def test_creating_renaming_and_deleting_a_line_each_write_one_event(
    client: httpx.AsyncClient, db: asyncpg.Connection, by_agent: bool
) -> None:
    repo_id, base = await _space(client)
    headers: dict[str, str] = {}
    actor: tuple[str | None, str] = (None, "person")
    if by_agent:
        agent, headers = await agent_headers(client, "planner")
        actor = (agent["id"], "planner")
    later = await commit(client, repo_id, "later")
    steps: list[tuple[str, str, dict[str, Any] | None, int, str, dict[str, Any]]] = [
        # From the Space's HEAD, and from a named Checkpoint.
        ("POST", "", {"name": "idea"}, 201, "line.created", {"name": "idea", "head_commit_id": later["id"]}),
        ("POST", "", {"name": "old", "from_ref": base["id"]}, 201, "line.created",
         {"name": "old", "head_commit_id": base["id"]}),
        ("PATCH", "/idea", {"name": "Idea 2"}, 200, "line.updated", {"name": "Idea 2", "old_name": "idea"}),
        ("PATCH", "/idea 2", {"is_default": True}, 200, "line.updated", {"name": "Idea 2", "is_default": True}),
        ("DELETE", "/OLD", None, 204, "line.deleted", {"name": "old"}),
    ]  # fmt: skip
    for method, path, body, status, type, data in steps:
        before = await mark(db)
        response = await client.request(method, f"/v4/repos/{repo_id}/branches{path}", json=body, headers=headers)
        assert response.status_code == status, f"{method} {path}: {response.text}"
        assert await events_since(db, before) == [Written(repo_id, type, *actor, data)], f"{method} {path}"


async def test_a_line_on_an_empty_space_starts_with_no_head(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    repo_id = (await create_space(client, "empty"))["id"]
    before = await mark(db)
    assert (await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "first"})).status_code == 201
    assert await events_since(db, before) == [
        Written(repo_id, "line.created", None, "person", {"name": "first", "head_commit_id": None})
    ]


async def test_one_request_that_changes_several_things_is_one_event(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    repo_id, _ = await _space(client)
    assert (await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "side"})).status_code == 201
    before = await mark(db)
    changed = await client.patch(
        f"/v4/repos/{repo_id}/branches/side", json={"name": "trunk", "is_default": True, "protected": True}
    )
    assert changed.status_code == 200, changed.text
    # Making a line the default is one event, for the new default, not one for the old as well.
    assert await events_since(db, before) == [
        Written(
            repo_id,
            "line.updated",
            None,
            "person",
            {"name": "trunk", "old_name": "side", "is_default": True, "protected": True},
        )
    ]
    before = await mark(db)
    unprotected = await client.patch(f"/v4/repos/{repo_id}/branches/trunk", json={"protected": False})
    assert unprotected.status_code == 200, unprotected.text
    assert [event.data for event in await events_since(db, before)] == [{"name": "trunk", "protected": False}]


async def test_a_change_that_changes_nothing_writes_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    repo_id, _ = await _space(client)
    before = await mark(db)
    same = await client.patch(
        f"/v4/repos/{repo_id}/branches/main", json={"name": "main", "is_default": True, "protected": False}
    )
    assert same.status_code == 200, same.text
    assert await events_since(db, before) == []


async def test_a_refused_change_of_a_line_writes_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    repo_id, base = await _space(client)
    assert (await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "side"})).status_code == 201
    assert (await client.patch(f"/v4/repos/{repo_id}/branches/side", json={"protected": True})).status_code == 200
    _, agent = await agent_headers(client, "planner")
    lines = f"/v4/repos/{repo_id}/branches"
    refusals: list[tuple[str, str, dict[str, Any] | None, dict[str, str], int]] = [
        ("POST", lines, {"name": "SIDE"}, {}, 409),
        ("POST", lines, {"name": "x\u0000"}, {}, 400),
        ("POST", lines, {"name": "new", "from_ref": "0000000"}, {}, 404),
        ("POST", f"/v4/repos/{base['id']}/branches", {"name": "new"}, {}, 404),
        ("PATCH", f"{lines}/side", {"name": "main"}, {}, 409),
        ("PATCH", f"{lines}/side", {"is_default": False}, {}, 400),
        ("PATCH", f"{lines}/nowhere", {"name": "else"}, {}, 404),
        ("PATCH", f"{lines}/side", {"name": "mine"}, agent, 403),
        ("PATCH", f"{lines}/side", {"is_default": True}, agent, 403),
        ("PATCH", f"{lines}/main", {"protected": True}, agent, 403),
        ("DELETE", f"{lines}/main", None, {}, 409),
        ("DELETE", f"{lines}/side", None, agent, 403),
        ("DELETE", f"{lines}/nowhere", None, {}, 404),
    ]
    for method, path, body, headers, status in refusals:
        before = await mark(db)
        response = await client.request(method, path, json=body, headers=headers)
        assert response.status_code == status, f"{method} {path} {body}: {response.text}"
        assert await events_since(db, before) == [], f"{method} {path} {body}"
    # The person may: one event.
    before = await mark(db)
    assert (await client.patch(f"{lines}/side", json={"name": "mine"})).status_code == 200
    assert [event.type for event in await events_since(db, before)] == ["line.updated"]
