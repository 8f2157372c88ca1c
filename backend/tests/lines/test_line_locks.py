"""Changing lines while commits run: the locks a change takes, and races that used to deadlock.

A change of a Space's lines takes its locks as a commit does (`checkpoints/line_locks.py`): the
Space's row share-locked, then the default line's row, then the line it changes. It took the
Space's row `FOR UPDATE` before, which deadlocked with commits to the default line (they update
that row after share-locking it): 503s under load, nothing lost.
"""

from __future__ import annotations

import asyncio
import collections
import random
import uuid
from contextlib import AsyncExitStack
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_space
from tests.support.locks import someone_waits_on_a_lock


async def _line(client: httpx.AsyncClient, space: str, name: str, **fields: Any) -> dict[str, Any]:
    response = await client.post(f"/v4/repos/{space}/branches", json={"name": name, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_change_waits_only_for_commits_on_the_lines_it_touches(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    sid = space["id"]
    await commit(client, sid, "base")
    for name in ("a", "b", "c"):
        await _line(client, sid, name)
    async with db.transaction():  # what a commit to line `a` holds while it is written
        await db.execute("SELECT 1 FROM repos WHERE id = $1 FOR KEY SHARE", uuid.UUID(sid))
        await db.execute("SELECT 1 FROM branches WHERE repo_id = $1 AND name = 'a' FOR UPDATE", uuid.UUID(sid))
        changes = [
            client.patch(f"/v4/repos/{sid}/branches/b", json={"name": "b2"}),
            client.patch(f"/v4/repos/{sid}/branches/c", json={"is_default": True}),
            client.post(f"/v4/repos/{sid}/branches", json={"name": "d"}),
            client.delete(f"/v4/repos/{sid}/branches/d"),
        ]
        for change in changes:
            response = await asyncio.wait_for(change, timeout=5)
            assert response.status_code in {200, 201, 204}, response.text
        renaming_a = asyncio.create_task(client.patch(f"/v4/repos/{sid}/branches/a", json={"name": "a2"}))
        await someone_waits_on_a_lock(db)
        assert not renaming_a.done()
    assert (await renaming_a).status_code == 200
    lines = (await client.get(f"/v4/repos/{sid}/branches")).json()["items"]
    assert [(line["name"], line["is_default"]) for line in lines] == [
        ("c", True),
        ("a2", False),
        ("b2", False),
        ("main", False),
    ]
    assert (await client.get(f"/v4/repos/{sid}/verify")).json()["ok"] is True


@pytest.mark.parametrize("verb", ["commit", "apply", "rename", "delete"])
async def test_a_change_of_default_line_while_one_waits_is_followed_not_refused(
    client: httpx.AsyncClient, db: asyncpg.Connection, verb: str
) -> None:
    # A save that names no line, or another change of the lines, waits for the default line's
    # row while the default changes: it goes on with the new default. (PostgreSQL leaves the old
    # default's row locked by a statement that then found it no longer the default: the change
    # starts its transaction again rather than wait for the new default while holding that row.)
    space = await create_space(client)
    sid = uuid.UUID(space["id"])
    await commit(client, space["id"], "base")
    for name in ("next", "other"):
        await _line(client, space["id"], name)
    await commit(client, space["id"], "on other", branch="other")
    requests = {
        "commit": ("POST", "/v4/chat/commit", {"repo_id": space["id"], "message": "waited"}),
        "apply": (
            "POST",
            "/v5/checkpoints/apply",
            {"repo_id": space["id"], "message": "waited", "add": {"decisions": ["x"]}},
        ),
        "rename": ("PATCH", f"/v4/repos/{sid}/branches/other", {"name": "renamed"}),
        "delete": ("DELETE", f"/v4/repos/{sid}/branches/other", None),
    }
    method, path, body = requests[verb]
    async with db.transaction():  # what making `next` the default does, held open
        await db.execute("SELECT 1 FROM repos WHERE id = $1 FOR KEY SHARE", sid)
        await db.execute("UPDATE branches SET is_default = false WHERE repo_id = $1 AND is_default", sid)
        await db.execute("UPDATE branches SET is_default = true WHERE repo_id = $1 AND name = 'next'", sid)
        waiting = asyncio.create_task(client.request(method, path, json=body))
        await someone_waits_on_a_lock(db)
    response = await waiting
    assert response.status_code in {200, 201, 204}, response.text
    if verb in {"commit", "apply"}:
        head = (await client.get(f"/v4/repos/{sid}/head", params={"branch": "next"})).json()
        assert head["id"] == response.json()["id"]
    # A deleted line's Checkpoints are counted on the default line as it is now, so the counts
    # still add up.
    assert (await client.get(f"/v4/repos/{sid}/verify")).json()["ok"] is True


@pytest.mark.slow
async def test_renames_deletes_and_new_defaults_racing_commits_never_deadlock(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    # Six servers (each with its own pool and group commit) write to three Spaces while lines
    # are renamed, made the default, created and deleted. While every change took the Space's row
    # FOR UPDATE, three runs in four of this size had a PostgreSQL deadlock (a 503); a deadlock
    # needs the row's versions to move in a narrow order, so no smaller test showed it reliably.
    rng = random.Random(42)
    spaces = []
    for n in range(3):
        sid = (await create_space(client, name=f"Race {n}"))["id"]
        await commit(client, sid, "base")
        for name in ("a", "b"):
            await _line(client, sid, name)
        spaces.append(sid)
    answers: collections.Counter[tuple[str, int]] = collections.Counter()
    failures: list[str] = []
    refused: list[tuple[str | None, str]] = []

    def note(what: str, response: httpx.Response) -> None:
        answers[(what, response.status_code)] += 1
        if response.status_code >= 500:
            failures.append(f"{what}: {response.text}")

    async def commits(server: httpx.AsyncClient, k: int) -> None:
        for i in range(30):
            body: dict[str, Any] = {"repo_id": rng.choice(spaces), "message": f"c{k}-{i}"}
            branch = rng.choice([None, None, "main", "a", "B"])
            if branch is not None:
                body["branch"] = branch
            response = await server.post("/v4/chat/commit", json=body)
            note("commit", response)
            if response.status_code == 409:
                refused.append((branch, response.json()["detail"]))

    async def changes(server: httpx.AsyncClient, k: int) -> None:
        for i in range(30):
            sid = rng.choice(spaces)
            what = rng.choice(["rename", "default", "create and delete"])
            if what == "rename":
                name = rng.choice(["a", "b"])
                new = name.upper() if i % 2 else name.lower()
                note(what, await server.patch(f"/v4/repos/{sid}/branches/{name}", json={"name": new}))
            elif what == "default":
                name = rng.choice(["main", "a", "b"])
                note(what, await server.patch(f"/v4/repos/{sid}/branches/{name}", json={"is_default": True}))
            else:
                note(what, await server.post(f"/v4/repos/{sid}/branches", json={"name": f"t{k}-{i}"}))
                note(what, await server.delete(f"/v4/repos/{sid}/branches/t{k}-{i}"))

    async with AsyncExitStack() as stack:
        servers = [client] + [await stack.enter_async_context(make_client(settings)) for _ in range(5)]
        await asyncio.gather(
            *(commits(servers[k % 6], k) for k in range(36)), *(changes(servers[k % 6], k) for k in range(6))
        )
    assert failures == [], (failures[:3], sorted(answers.items()))
    written = answers[("commit", 201)]
    # A commit to the default line follows a default that moved while it waited, three times;
    # one that meets a fourth move is told so (409, nothing written). How many do depends on how
    # the machine schedules the six servers (0-14 of 1,080 seen), so only their kind is exact.
    assert all(branch is None and "default line kept changing" in detail for branch, detail in refused), refused
    assert written + len(refused) == 36 * 30, sorted(answers.items())
    assert len(refused) <= 36 * 30 // 20, sorted(answers.items())
    totals = [(await client.get(f"/v4/repos/{sid}/commits")).json()["total"] for sid in spaces]
    assert sum(totals) == written + len(spaces)
    for sid in spaces:
        report = (await client.get(f"/v4/repos/{sid}/verify")).json()
        assert report["ok"] is True, report
