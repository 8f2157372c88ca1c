"""Every way a Checkpoint is made writes one `checkpoint.created`, in its own statement, naming who
made it; a refused commit writes none; an imported Space is one `space.imported` (SYSTEM.md §14)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest

from smriti.access.caller import Agent
from smriti.checkpoints.store import CheckpointStore
from smriti.checkpoints.writes import CommitWriter
from smriti.core.errors import Conflict
from smriti.db.pool import Pool, create_pool
from smriti.events.sequencer import number_events
from tests.access.agents import agent_headers
from tests.bundles.test_round_trip import NDJSON, export
from tests.events.change_events import Written, created, events_since, mark
from tests.proposals.helpers import bearer, make_agent, merge, propose, space_with_line
from tests.support.api import commit, create_space
from tests.support.checkpoints import commit_body, insert_spaces

Made = Callable[[httpx.AsyncClient, dict[str, Any], dict[str, str]], Awaitable[httpx.Response]]


async def _setup(client: httpx.AsyncClient) -> dict[str, Any]:
    """A Space whose default line `main` has two Checkpoints, and a line `side` one Checkpoint
    ahead of the first."""
    space = await create_space(client, "events")
    repo_id = space["id"]
    first = await commit(client, repo_id, "first", summary="one")
    second = await commit(client, repo_id, "second", summary="two")
    made = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "side", "from_ref": first["id"]})
    assert made.status_code == 201, made.text
    side = await commit(client, repo_id, "on side", branch="side", summary="side")
    return {"repo_id": repo_id, "first": first, "second": second, "side": side}


def _post(path: str, body: Callable[[dict[str, Any]], dict[str, Any]]) -> Made:
    def made(client: httpx.AsyncClient, s: dict[str, Any], headers: dict[str, str]) -> Awaitable[httpx.Response]:
        return client.post(path.format(**s), json={"repo_id": s["repo_id"], **body(s)}, headers=headers)

    return made


# Each way a Checkpoint is made, and the line whose HEAD it moves; in this order (the first
# applies on `side`'s HEAD as `_setup` left it).
WAYS: dict[str, tuple[Made, str]] = {
    "apply on a named parent": (
        _post(
            "/v5/checkpoints/apply",
            lambda s: {"message": "m", "branch": "side", "parent_commit_id": s["side"]["id"], "set": {"summary": "x"}},
        ),
        "side",
    ),
    "commit to the default line": (_post("/v4/chat/commit", lambda s: {"message": "m"}), "main"),
    "commit naming a line": (_post("/v4/chat/commit", lambda s: {"message": "m", "branch": "SIDE"}), "side"),
    "commit on a named parent": (
        _post("/v4/chat/commit", lambda s: {"message": "m", "parent_commit_id": s["second"]["id"]}),
        "main",
    ),
    "merge": (
        _post("/v4/chat/commit", lambda s: {"message": "merge", "merge_parent_id": s["side"]["id"]}),
        "main",
    ),
    "apply": (_post("/v5/checkpoints/apply", lambda s: {"message": "m", "set": {"summary": "x"}}), "main"),
    "restore": (
        lambda client, s, headers: client.post(
            f"/v5/commits/{s['first']['id']}/restore", json={"message": "back"}, headers=headers
        ),
        "main",
    ),
}


@pytest.mark.parametrize("by_agent", [False, True], ids=["person", "agent"])
async def test_each_way_of_making_a_checkpoint_writes_one_event_naming_who_made_it(
    client: httpx.AsyncClient, db: asyncpg.Connection, by_agent: bool
) -> None:
    setup = await _setup(client)
    headers: dict[str, str] = {}
    actor: tuple[str | None, str] = (None, "person")
    if by_agent:
        agent, headers = await agent_headers(client, "planner")
        actor = (agent["id"], "planner")
    for way, (make, line) in WAYS.items():
        before = await mark(db)
        response = await make(client, setup, headers)
        assert response.status_code == 201, f"{way}: {response.text}"
        saved = response.json()
        assert await events_since(db, before) == [
            Written(setup["repo_id"], "checkpoint.created", *actor, created(saved, line))
        ], way


async def test_a_merged_proposal_writes_its_merge_checkpoints_event(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, _ = await space_with_line(client)
    theirs = await commit(client, space_id, "Sintra", branch="work", decisions=["Day 3: Sintra"])
    agent = await make_agent(client, "planner")
    await propose(client, space_id, {"from": "work", "title": "Add Sintra"}, headers=bearer(agent["token"]))
    before = await mark(db)
    merged = await merge(client, space_id, 1)
    saved = (await client.get(f"/v4/commits/{merged['merge_commit_id']}")).json()
    assert saved["merge_parent_id"] == theirs["id"]
    # The person merges: the Checkpoint is theirs, whoever opened the proposal.
    assert await events_since(db, before, "checkpoint.created") == [
        Written(space_id, "checkpoint.created", None, "person", created(saved, "main"))
    ]


async def _protect_main(client: httpx.AsyncClient, repo_id: str) -> None:
    response = await client.patch(f"/v4/repos/{repo_id}/branches/main", json={"protected": True})
    assert response.status_code == 200, response.text


async def test_a_refused_commit_writes_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    setup = await _setup(client)
    repo_id = setup["repo_id"]
    other = await create_space(client, "other")
    elsewhere = await commit(client, other["id"], "elsewhere")
    _, agent = await agent_headers(client, "planner")
    await _protect_main(client, repo_id)
    refusals: list[tuple[int, str, dict[str, Any], dict[str, str]]] = [
        (409, "/v4/chat/commit", {"expected_head_commit_id": setup["first"]["id"]}, {}),
        (409, "/v5/checkpoints/apply", {"expected_head_commit_id": setup["first"]["id"], "set": {"summary": "x"}}, {}),
        (403, "/v4/chat/commit", {}, agent),
        (403, "/v5/checkpoints/apply", {"set": {"summary": "x"}}, agent),
        (400, "/v4/chat/commit", {"merge_parent_id": setup["second"]["id"]}, {}),
        (400, "/v4/chat/commit", {"parent_commit_id": elsewhere["id"]}, {}),
        (400, "/v4/chat/commit", {"message": 7}, {}),
        (404, "/v4/chat/commit", {"branch": "nowhere"}, {}),
        (404, "/v4/chat/commit", {"parent_commit_id": str(uuid.uuid4())}, {}),
    ]
    for status, path, body, headers in refusals:
        before = await mark(db)
        response = await client.post(path, json={"repo_id": repo_id, "message": "m", **body}, headers=headers)
        assert response.status_code == status, f"{path} {body}: {response.text}"
        assert await events_since(db, before) == [], f"{path} {body}"
    restore = await client.post(
        f"/v5/commits/{setup['first']['id']}/restore", json={"expected_head_commit_id": setup["first"]["id"]}
    )
    assert restore.status_code == 409, restore.text
    assert await events_since(db, before) == []
    # The same commit, now right, writes its one event.
    saved = await commit(client, repo_id, "m", expected_head_commit_id=setup["second"]["id"])
    assert [event.data for event in await events_since(db, before)] == [created(saved, "main")]


async def test_a_group_commit_writes_each_commits_own_event(pool: Pool, db: asyncpg.Connection) -> None:
    # One statement at a time: every commit started while the first runs goes into the next one.
    store = CheckpointStore(pool, writer=CommitWriter(pool, max_statements=1))
    blocker, stale, *spaces = await insert_spaces(db, 10)
    await store.commit(commit_body(stale, "base"))
    before = await mark(db)
    bodies = [commit_body(blocker, "first")] + [commit_body(space, f"commit {n}") for n, space in enumerate(spaces)]
    # A commit refused in the group statement (its HEAD moved) writes no event there.
    refused = store.commit(commit_body(stale, "late", expected_head_commit_id=str(uuid.uuid4())))
    *answers, refusal = await asyncio.gather(*(store.commit(b) for b in bodies), refused, return_exceptions=True)
    assert isinstance(refusal, Conflict)
    saved = [msgspec.json.decode(answer) for answer in answers if isinstance(answer, bytes)]
    assert len(saved) == len(bodies)

    assert store.writer.groups_written == 1
    written = await events_since(db, before)
    assert sorted(written, key=lambda event: event.data["commit_id"]) == sorted(
        (Written(item["repo_id"], "checkpoint.created", None, "person", created(item, "main")) for item in saved),
        key=lambda event: event.data["commit_id"],
    )


async def test_concurrent_agents_commits_each_name_their_agent(pool: Pool, db: asyncpg.Connection) -> None:
    # An agent's commit has a statement of its own (a protected line refuses it), so it is never
    # grouped: each names its own agent however many run at once.
    store = CheckpointStore(pool)
    spaces = await insert_spaces(db, 8)
    agents = [Agent(uuid.uuid4(), f"agent {n}", None, True) for n in range(8)]
    before = await mark(db)
    saved = await asyncio.gather(
        *(
            store.commit(commit_body(space, f"by {agent.name}"), agent=agent)
            for space, agent in zip(spaces, agents, strict=True)
        )
    )
    expected = [
        Written(str(space), "checkpoint.created", str(agent.id), agent.name, created(msgspec.json.decode(item), "main"))
        for space, agent, item in zip(spaces, agents, saved, strict=True)
    ]
    written = await events_since(db, before)
    assert sorted(written, key=lambda event: event.repo_id) == sorted(expected, key=lambda event: event.repo_id)


async def test_the_events_of_one_lines_commits_are_numbered_in_the_lines_order(
    pool: Pool, database_url: str, db: asyncpg.Connection
) -> None:
    # Two stores on two pools commit to one line at once, as two server processes would: the
    # line's row lock orders them, and the events' ids must follow that order.
    other_pool = await create_pool(database_url, size=4)
    try:
        stores = [CheckpointStore(pool), CheckpointStore(other_pool)]
        (space,) = await insert_spaces(db, 1)
        await asyncio.gather(*(stores[n % 2].commit(commit_body(space, f"commit {n}")) for n in range(40)))
    finally:
        await other_pool.close()
    while await number_events(pool):
        pass
    chain = await db.fetch(
        "WITH RECURSIVE up AS (SELECT id, parent_commit_id, 0 AS n FROM commits WHERE id = "
        "(SELECT head_commit_id FROM repos WHERE id = $1) "
        "UNION ALL SELECT c.id, c.parent_commit_id, up.n + 1 FROM commits c JOIN up ON c.id = up.parent_commit_id) "
        "SELECT id FROM up ORDER BY n DESC",
        space,
    )
    numbered = await db.fetch(
        "SELECT id, data->>'commit_id' AS commit_id FROM events WHERE repo_id = $1 AND type = 'checkpoint.created' "
        "ORDER BY id",
        space,
    )
    assert len(chain) == 40
    assert [row["commit_id"] for row in numbered] == [str(row["id"]) for row in chain]
    assert all(row["id"] is not None for row in numbered)


@pytest.mark.parametrize("by_agent", [False, True], ids=["person", "agent"])
async def test_an_imported_space_is_one_event(
    client: httpx.AsyncClient, db: asyncpg.Connection, by_agent: bool
) -> None:
    setup = await _setup(client)
    repo_id = setup["repo_id"]
    bundle = await export(client, repo_id)
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204
    headers: dict[str, str] = {}
    actor: tuple[str | None, str] = (None, "person")
    if by_agent:
        agent, headers = await agent_headers(client, "importer")
        actor = (agent["id"], "importer")
    before = await mark(db)
    imported = await client.post("/v5/repos/import", content=bundle, headers={**NDJSON, **headers})
    assert imported.status_code == 201, imported.text
    assert await events_since(db, before) == [Written(repo_id, "space.imported", *actor, {"name": "events"})]
    # A bundle that does not check out writes nothing, its event included.
    before = await mark(db)
    again = await client.post("/v5/repos/import", content=bundle, headers={**NDJSON, **headers})
    assert again.status_code == 409, again.text
    broken = await client.post("/v5/repos/import", content=bundle[:-20] + b"\n", headers=NDJSON)
    assert broken.status_code == 400, broken.text
    assert await events_since(db, before) == []
