"""Proposals write their events (SYSTEM.md §14): opened, closed and merged, each once, in the
change's transaction (merged: the one that writes the merge Checkpoint); a refusal none."""

from __future__ import annotations

import asyncpg
import httpx

from tests.events.recorded import by_agent, by_person, recorded
from tests.proposals.helpers import bearer, line, make_agent, merge, propose, space_with_line
from tests.support.api import commit

PROPOSAL_EVENTS = ("proposal.opened", "proposal.updated", "proposal.merged", "proposal.closed")


async def test_an_agent_opens_and_the_person_merges_each_one_event(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, _ = await space_with_line(client)
    await commit(client, space_id, "Sintra", branch="work", decisions=["Stay in Baixa", "Day 3: Sintra"])
    agent = await make_agent(client, "planner")
    await propose(client, space_id, {"from": "work", "title": "Add Sintra"}, headers=bearer(agent["token"]))
    merged = await merge(client, space_id, 1)

    assert await recorded(db, *PROPOSAL_EVENTS) == [
        by_agent(agent, "proposal.opened", space_id, number=1, **{"from": "work", "into": "main"}),
        by_person(
            "proposal.merged",
            space_id,
            number=1,
            merge_commit_id=merged["merge_commit_id"],
            **{"from": "work", "into": "main"},
        ),
    ]


async def test_a_close_names_who_closed_and_a_deleted_line_by_the_name_it_had(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    await line(client, space_id, "other", base["id"])
    await commit(client, space_id, "w", branch="work", decisions=["W"])
    agent = await make_agent(client, "opener")
    await propose(client, space_id, {"from": "work", "title": "t"}, headers=bearer(agent["token"]))
    await propose(client, space_id, {"from": "other", "into": "work", "title": "u"})
    assert (await client.delete(f"/v4/repos/{space_id}/branches/work")).status_code == 204
    closed = await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={}, headers=bearer(agent["token"]))
    assert closed.status_code == 200, closed.text
    assert (await client.post(f"/v5/repos/{space_id}/proposals/2/close", json={"reason": "no"})).status_code == 200

    assert await recorded(db, *PROPOSAL_EVENTS) == [
        by_agent(agent, "proposal.opened", space_id, number=1, **{"from": "work", "into": "main"}),
        by_person("proposal.opened", space_id, number=2, **{"from": "other", "into": "work"}),
        by_agent(agent, "proposal.closed", space_id, number=1, **{"from": "work", "into": "main"}),
        by_person("proposal.closed", space_id, number=2, **{"from": "other", "into": "work"}),
    ]


async def test_refused_proposal_changes_write_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space_id, _ = await space_with_line(client)
    opener, stranger = await make_agent(client, "opener"), await make_agent(client, "stranger")
    reader = await make_agent(client, "reader", write=False)
    await propose(client, space_id, {"from": "work", "title": "early"}, headers=bearer(opener["token"]))
    await db.execute("TRUNCATE events")

    await propose(client, space_id, {"from": "work", "title": "twice"}, expect=409)
    await propose(client, space_id, {"from": "nope", "title": "t"}, expect=404)
    await propose(client, space_id, {"from": "main", "title": "t"}, expect=400)
    await propose(client, space_id, {"from": "work", "title": "t"}, expect=403, headers=bearer(reader["token"]))
    await merge(client, space_id, 1, status=409)  # nothing to merge: work is main's HEAD
    for token in (opener["token"], stranger["token"]):
        response = await client.post(f"/v5/repos/{space_id}/proposals/1/merge", json={}, headers=bearer(token))
        assert response.status_code == 403, response.text
    response = await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={}, headers=bearer(stranger["token"]))
    assert response.status_code == 403, response.text
    assert (await client.post(f"/v5/repos/{space_id}/proposals/9/close", json={})).status_code == 404
    assert (await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={})).status_code == 200
    assert (await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={})).status_code == 409
    await merge(client, space_id, 1, status=409)

    assert await recorded(db) == [  # the one change that was made
        by_person("proposal.closed", space_id, number=1, **{"from": "work", "into": "main"})
    ]
