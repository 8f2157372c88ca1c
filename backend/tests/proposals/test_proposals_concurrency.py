"""Many agents proposing at once while the person merges (SYSTEM.md §13): nothing lost, every
merge Checkpoint's parents right, numbers never shared."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx

from tests.proposals.helpers import BASE, bearer, line, make_agent, merge, propose, space_with_line
from tests.support.api import commit, create_space

AGENTS = 20


async def test_twenty_agents_propose_while_the_person_merges_as_they_arrive(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "busy")
    space_id = space["id"]
    base = await commit(client, space_id, "base", **BASE)
    agents = [await make_agent(client, f"agent-{n}") for n in range(AGENTS)]
    heads: dict[str, str] = {}  # line → its HEAD when proposed

    async def agent_works(n: int) -> None:
        headers = bearer(agents[n]["token"])
        name = f"agent-{n}"
        made = await client.post(
            f"/v4/repos/{space_id}/branches", json={"name": name, "from_ref": base["id"]}, headers=headers
        )
        assert made.status_code == 201, made.text
        for step in range(2):
            decisions = [*BASE["decisions"], *(f"Agent {n} step {s}" for s in range(step + 1))]
            saved = await client.post(
                "/v4/chat/commit",
                json={"repo_id": space_id, "message": f"{n}.{step}", "branch": name, "decisions": decisions},
                headers=headers,
            )
            assert saved.status_code == 201, saved.text
            heads[name] = saved.json()["id"]
        await propose(client, space_id, {"from": name, "title": f"Agent {n}'s work"}, headers=headers)

    merged: dict[int, dict[str, Any]] = {}

    async def person_merges(working: asyncio.Future[Any]) -> None:
        while len(merged) < AGENTS:
            listed = (await client.get(f"/v5/repos/{space_id}/proposals", params={"status": "open"})).json()
            for proposal in reversed(listed["items"]):
                merged[proposal["number"]] = await merge(client, space_id, proposal["number"])
            if not listed["items"]:
                if working.done():
                    working.result()  # an agent's failure, raised here
                await asyncio.sleep(0.01)

    working = asyncio.gather(*(agent_works(n) for n in range(AGENTS)))
    await asyncio.gather(working, person_merges(working))

    assert sorted(merged) == list(range(1, AGENTS + 1))
    rows = await db.fetch(
        """SELECT p.number, p.status, p.merge_commit_id, f.name AS line, c.parent_commit_id, c.merge_parent_id
           FROM proposals p JOIN branches f ON f.id = p.from_branch_id JOIN commits c ON c.id = p.merge_commit_id"""
    )
    assert len(rows) == AGENTS
    assert {row["status"] for row in rows} == {"merged"}
    # Each merge parent is the agent's line HEAD when merged (each proposed after its last commit).
    assert {row["line"]: str(row["merge_parent_id"]) for row in rows} == heads
    # main's first parents, newest first: exactly the 20 merges then the base, each merge's first
    # parent the HEAD main had just before it.
    log = (await client.get(f"/v4/repos/{space_id}/commits", params={"branch": "main", "limit": 100})).json()
    chain = [checkpoint["id"] for checkpoint in log["items"]]
    assert chain[-1] == base["id"]
    assert len(chain) == AGENTS + 1
    assert {str(row["merge_commit_id"]) for row in rows} == set(chain[:-1])
    for newer, older in zip(log["items"], log["items"][1:], strict=False):
        assert newer["parent_commit_id"] == older["id"]
    head = log["items"][0]
    for n in range(AGENTS):
        assert f"Agent {n} step 1" in head["decisions"]
    report = (await client.get(f"/v4/repos/{space_id}/verify")).json()
    assert report["ok"] is True, report


async def test_concurrent_opens_never_share_a_number_and_one_pair_opens_once(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    names = [f"line-{n}" for n in range(AGENTS)]
    for name in names:
        await line(client, space_id, name, base["id"])
    opened = await asyncio.gather(*(propose(client, space_id, {"from": n, "title": n}) for n in names))
    assert sorted(p["number"] for p in opened) == list(range(1, AGENTS + 1))
    answers = await asyncio.gather(
        *(client.post(f"/v5/repos/{space_id}/proposals", json={"from": "work", "title": "same"}) for _ in range(10))
    )
    assert sorted(answer.status_code for answer in answers) == [201] + [409] * 9
    assert await db.fetchval("SELECT proposal_count FROM repos") == AGENTS + 1
    assert await db.fetchval("SELECT array_agg(number ORDER BY number) FROM proposals") == list(range(1, AGENTS + 2))


async def test_opening_and_merging_race_commits_and_line_changes_without_deadlock(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """Opening takes the lines' rows default line first and merging takes `into` before the
    proposal, as commits and line changes take theirs (`checkpoints/line_locks.py`): racing them
    all gives only the answers each verb documents, never a 5xx (a deadlock is a 503)."""
    space_id, base = await space_with_line(client)
    names = [f"race-{n}" for n in range(12)]
    for name in names:
        await line(client, space_id, name, base["id"])
        await commit(client, space_id, name, branch=name, decisions=[*BASE["decisions"], name])
    for name in names[:4]:  # open before the race, merged during it
        await propose(client, space_id, {"from": name, "title": name})

    async def call(method: str, path: str, body: dict[str, Any] | None = None) -> int:
        response = await client.request(method, path, json=body)
        assert response.status_code < 500, (method, path, response.text)
        return response.status_code

    base_path = f"/v4/repos/{space_id}"
    work = [
        *(call("POST", f"/v5/repos/{space_id}/proposals", {"from": n, "title": n}) for n in names[4:]),
        *(call("POST", f"/v5/repos/{space_id}/proposals/{k}/merge", {}) for k in range(1, 5)),
        *(call("POST", "/v4/chat/commit", {"repo_id": space_id, "message": f"m{k}", **BASE}) for k in range(6)),
        call("PATCH", f"{base_path}/branches/work", {"is_default": True}),
        call("PATCH", f"{base_path}/branches/main", {"is_default": True}),
        call("DELETE", f"{base_path}/branches/{names[10]}"),
        call("PATCH", f"{base_path}/branches/{names[11]}", {"name": "renamed"}),
    ]
    statuses = await asyncio.gather(*work)
    assert set(statuses) <= {200, 201, 204, 404, 409}, statuses
    numbers = await db.fetchval("SELECT array_agg(number ORDER BY number) FROM proposals")
    assert numbers == list(range(1, len(numbers) + 1))
    assert await db.fetchval("SELECT proposal_count FROM repos") == len(numbers)
    merged = await db.fetch("SELECT merge_commit_id FROM proposals WHERE status = 'merged'")
    assert all(row["merge_commit_id"] is not None for row in merged)
    assert (await client.get(f"/v4/repos/{space_id}/verify")).json()["ok"] is True
