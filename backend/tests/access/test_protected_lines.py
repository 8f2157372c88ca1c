"""Protected lines (SYSTEM.md §13): only the person changes them. An agent's commit, apply,
restore, merge, rename, delete or (un)default of one is a 403 naming `branch` that writes nothing,
decided under the line's row lock, so a line protected while an agent commits in a loop takes no
commit after the protect returned."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import httpx
import pytest

from tests.access.agents import agent_headers
from tests.support.api import commit, create_space

Verb = Callable[[httpx.AsyncClient, dict[str, Any], dict[str, str]], Awaitable[httpx.Response]]


async def _protect(client: httpx.AsyncClient, repo_id: str, line: str, protected: bool = True) -> dict[str, Any]:
    response = await client.patch(f"/v4/repos/{repo_id}/branches/{line}", json={"protected": protected})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["protected"] is protected
    return body


async def _setup(client: httpx.AsyncClient) -> dict[str, Any]:
    """A Space whose default line `main` is protected, with a first and a second Checkpoint, and a
    line `side` one Checkpoint ahead of the first."""
    space = await create_space(client, "guarded")
    repo_id = space["id"]
    first = await commit(client, repo_id, "first", summary="one")
    second = await commit(client, repo_id, "second", summary="two")
    made = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "side", "from_ref": first["id"]})
    assert made.status_code == 201, made.text
    side = await commit(client, repo_id, "on side", branch="side", summary="side")
    default = (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"][0]
    assert default["is_default"]
    assert default["protected"] is False
    await _protect(client, repo_id, default["name"])
    return {"repo_id": repo_id, "main": default["name"], "first": first, "second": second, "side": side}


def _commit_default(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    return client.post("/v4/chat/commit", json={"repo_id": s["repo_id"], "message": "m"}, headers=h)


def _commit_named(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    body = {"repo_id": s["repo_id"], "message": "m", "branch": s["main"].upper()}
    return client.post("/v4/chat/commit", json=body, headers=h)


def _commit_on_parent(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    body = {"repo_id": s["repo_id"], "message": "m", "parent_commit_id": s["second"]["id"]}
    return client.post("/v4/chat/commit", json=body, headers=h)


def _apply(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    body = {"repo_id": s["repo_id"], "message": "m", "set": {"summary": "x"}}
    return client.post("/v5/checkpoints/apply", json=body, headers=h)


def _apply_on_parent(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    body = {"repo_id": s["repo_id"], "message": "m", "parent_commit_id": s["second"]["id"], "branch": s["main"]}
    return client.post("/v5/checkpoints/apply", json=body, headers=h)


def _restore(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    return client.post(f"/v5/commits/{s['first']['id']}/restore", json={}, headers=h)


def _merge(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    body = {"repo_id": s["repo_id"], "message": "merge", "merge_parent_id": s["side"]["id"], "branch": s["main"]}
    return client.post("/v4/chat/commit", json=body, headers=h)


def _rename(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    return client.patch(f"/v4/repos/{s['repo_id']}/branches/{s['main']}", json={"name": "mine"}, headers=h)


def _undefault(client: httpx.AsyncClient, s: dict[str, Any], h: dict[str, str]) -> Awaitable[httpx.Response]:
    return client.patch(f"/v4/repos/{s['repo_id']}/branches/side", json={"is_default": True}, headers=h)


VERBS: dict[str, Verb] = {
    "commit to the default line": _commit_default,
    "commit naming the line": _commit_named,
    "commit on a named parent": _commit_on_parent,
    "apply": _apply,
    "apply on a named parent": _apply_on_parent,
    "restore": _restore,
    "merge": _merge,
    "rename": _rename,
    "make another line the default": _undefault,
}


async def _state(db: asyncpg.Connection, repo_id: str) -> list[tuple[Any, ...]]:
    rows = await db.fetch(
        "SELECT name, is_default, protected, head_commit_id, commit_count FROM branches "
        "WHERE repo_id = $1::uuid ORDER BY name",
        repo_id,
    )
    space = await db.fetchrow("SELECT head_commit_id FROM repos WHERE id = $1::uuid", repo_id)
    count = await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1::uuid", repo_id)
    return [tuple(row.values()) for row in rows] + [(space["head_commit_id"] if space else None, count)]


@pytest.mark.parametrize("verb", list(VERBS))
async def test_an_agent_cannot_change_a_protected_line_but_the_person_can(
    client: httpx.AsyncClient, db: asyncpg.Connection, verb: str
) -> None:
    setup = await _setup(client)
    _, headers = await agent_headers(client)
    before = await _state(db, setup["repo_id"])
    refused = await VERBS[verb](client, setup, headers)
    assert refused.status_code == 403, refused.text
    problem = refused.json()
    assert problem["errors"][0]["field"] == "branch"
    assert "protected" in problem["detail"]
    assert "proposal" in problem["detail"]
    assert await _state(db, setup["repo_id"]) == before
    # The person, without a key, still can.
    done = await VERBS[verb](client, setup, {})
    assert done.status_code in (200, 201), done.text


async def test_an_agent_cannot_delete_a_protected_line(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    setup = await _setup(client)
    repo_id = setup["repo_id"]
    await _protect(client, repo_id, "side")
    _, headers = await agent_headers(client)
    before = await _state(db, repo_id)
    refused = await client.delete(f"/v4/repos/{repo_id}/branches/side", headers=headers)
    assert refused.status_code == 403, refused.text
    assert refused.json()["errors"][0]["field"] == "branch"
    assert await _state(db, repo_id) == before
    assert (await client.delete(f"/v4/repos/{repo_id}/branches/side")).status_code == 204


async def test_an_agent_cannot_make_a_protected_line_the_default(client: httpx.AsyncClient) -> None:
    setup = await _setup(client)
    repo_id = setup["repo_id"]
    await _protect(client, repo_id, setup["main"], False)
    await _protect(client, repo_id, "side")
    _, headers = await agent_headers(client)
    refused = await client.patch(f"/v4/repos/{repo_id}/branches/side", json={"is_default": True}, headers=headers)
    assert refused.status_code == 403, refused.text
    assert refused.json()["errors"][0]["field"] == "branch"
    assert (await client.get(f"/v4/repos/{repo_id}/branches/side")).json()["is_default"] is False


async def test_only_the_person_sets_protected(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "who protects")
    repo_id = space["id"]
    await commit(client, repo_id)
    main = (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"][0]["name"]
    _, headers = await agent_headers(client)
    for value in (True, False):
        refused = await client.patch(f"/v4/repos/{repo_id}/branches/{main}", json={"protected": value}, headers=headers)
        assert refused.status_code == 403, refused.text
    assert await db.fetchval("SELECT protected FROM branches WHERE repo_id = $1::uuid", repo_id) is False
    await _protect(client, repo_id, main)
    refused = await client.patch(f"/v4/repos/{repo_id}/branches/{main}", json={"protected": False}, headers=headers)
    assert refused.status_code == 403, refused.text
    await _protect(client, repo_id, main, False)
    listed = (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"]
    assert listed[0]["protected"] is False
    bad = await client.patch(f"/v4/repos/{repo_id}/branches/{main}", json={"protected": "yes"})
    assert bad.status_code == 400
    assert "protected" in bad.text


async def test_an_agent_still_makes_and_writes_lines_of_its_own(client: httpx.AsyncClient) -> None:
    setup = await _setup(client)
    repo_id = setup["repo_id"]
    _, headers = await agent_headers(client)
    made = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "agent/work"}, headers=headers)
    assert made.status_code == 201, made.text
    assert made.json()["protected"] is False
    body = {"repo_id": repo_id, "message": "mine", "branch": "agent/work"}
    assert (await client.post("/v4/chat/commit", json=body, headers=headers)).status_code == 201
    body = {"repo_id": repo_id, "message": "applied", "branch": "agent/work", "set": {"summary": "s"}}
    assert (await client.post("/v5/checkpoints/apply", json=body, headers=headers)).status_code == 201
    renamed = await client.patch(
        f"/v4/repos/{repo_id}/branches/agent/work", json={"name": "agent/done"}, headers=headers
    )
    assert renamed.status_code == 200, renamed.text
    assert (await client.delete(f"/v4/repos/{repo_id}/branches/agent/done", headers=headers)).status_code == 204


async def _race(
    client: httpx.AsyncClient, db: asyncpg.Connection, repo_id: str, main: str, headers: dict[str, str], round_: int
) -> None:
    await _protect(client, repo_id, main, False)
    protected = asyncio.Event()
    landed_after: list[str] = []

    async def agent_loop(writer: int) -> None:
        while True:
            was_protected = protected.is_set()
            body = {"repo_id": repo_id, "message": f"r{round_} w{writer}"}
            response = await client.post("/v4/chat/commit", json=body, headers=headers)
            if response.status_code == 201:
                if was_protected:
                    landed_after.append(response.json()["id"])
                continue
            assert response.status_code in (403, 409), response.text
            if response.status_code == 403:
                return

    loops = [asyncio.create_task(agent_loop(n)) for n in range(3)]
    await asyncio.sleep(0.005 * (round_ % 5))
    await _protect(client, repo_id, main)
    protected.set()
    await asyncio.wait_for(asyncio.gather(*loops), 30)
    assert landed_after == [], f"round {round_}: commits sent after the protect returned landed"
    # Nothing at all was written after the protect's transaction: the HEAD's created_at (read
    # under the line's lock) precedes the protect's updated_at.
    row = await db.fetchrow(
        "SELECT b.updated_at AS protected_at, c.created_at AS head_at FROM branches b "
        "JOIN commits c ON c.id = b.head_commit_id WHERE b.repo_id = $1::uuid AND b.is_default",
        repo_id,
    )
    assert row is not None
    assert row["head_at"] <= row["protected_at"], round_


async def test_no_agent_commit_lands_after_the_protect_returned(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """An agent commits in a loop (three at once) while the person protects the line, 20 times:
    every commit that landed was written before the protect's transaction, none after it."""
    space = await create_space(client, "race")
    repo_id = space["id"]
    await commit(client, repo_id)
    main = (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"][0]["name"]
    _, headers = await agent_headers(client)
    for round_ in range(20):
        await _race(client, db, repo_id, main, headers, round_)
