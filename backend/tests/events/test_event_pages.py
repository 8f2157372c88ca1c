"""Pages of the event log: order, `after`, `limit`, retention's 410, and what an agent key sees."""

from __future__ import annotations

import uuid

import asyncpg
import httpx
import pytest

from smriti.access.caller import Agent
from smriti.db.pool import Pool
from smriti.events.record import record
from smriti.events.retention import prune_events
from tests.events.support import get_page, make_agent, make_space, newest, number_all, write_events, written

pytestmark = pytest.mark.usefixtures("db")


async def test_pages_are_oldest_first_and_follow_next_after(client: httpx.AsyncClient, pool: Pool) -> None:
    space = await make_space(client, "pages")
    base = await newest(pool)
    await write_events(pool, space, 7)
    first = await get_page(client, "/v5/events", after=base, limit=3)
    assert [e["data"]["n"] for e in first["items"] if e["repo_id"] == str(space)] == [0, 1, 2]
    ids = [e["id"] for e in first["items"]]
    assert ids == sorted(ids)
    assert first["next_after"] == ids[-1]
    seen = list(ids)
    after = first["next_after"]
    while True:
        page = await get_page(client, "/v5/events", after=after, limit=3)
        if not page["items"]:
            assert page["next_after"] == after
            break
        seen += [e["id"] for e in page["items"]]
        after = page["next_after"]
    assert seen == sorted(set(seen))
    assert len(seen) == 7
    event = first["items"][0]
    assert event["type"] == "turns.added"
    assert event["actor"] == {"kind": "human", "name": "person"}
    assert set(event) == {"id", "type", "at", "repo_id", "actor", "data"}


async def test_a_space_page_holds_that_space_only(client: httpx.AsyncClient, pool: Pool) -> None:
    one, other = await make_space(client, "one"), await make_space(client, "other")
    await write_events(pool, one, 2)
    await write_events(pool, other, 3)
    page = await get_page(client, f"/v5/repos/{other}/events")
    assert {e["repo_id"] for e in page["items"]} == {str(other)}
    assert len(written(page["items"])) == 3
    missing = await client.get(f"/v5/repos/{uuid.uuid4()}/events")
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["field"] == "repo_id"


async def test_an_agent_key_sees_only_its_spaces_events(client: httpx.AsyncClient, pool: Pool) -> None:
    mine, theirs = await make_space(client, "mine"), await make_space(client, "theirs")
    await write_events(pool, mine, 2)
    await write_events(pool, theirs, 3)
    token = await make_agent(client, [mine])
    auth = {"authorization": f"Bearer {token}"}
    page = (await client.get("/v5/events", headers=auth)).json()
    assert {e["repo_id"] for e in page["items"]} == {str(mine)}
    assert len(written(page["items"])) == 2
    hidden = await client.get(f"/v5/repos/{theirs}/events", headers=auth)
    absent = await client.get(f"/v5/repos/{uuid.uuid4()}/events", headers=auth)
    assert hidden.status_code == absent.status_code == 404
    assert hidden.json()["errors"][0]["field"] == absent.json()["errors"][0]["field"] == "repo_id"
    assert hidden.json()["detail"] == f"No Space with id {theirs}."


async def test_an_agents_change_names_the_agent(client: httpx.AsyncClient, pool: Pool) -> None:
    space = await make_space(client, "acted")
    agent = Agent(id=uuid.uuid4(), name="planner", spaces=None, write=True)
    async with pool.acquire() as conn, conn.transaction():
        await record(conn, space, "line.created", {"name": "b", "head_commit_id": None}, agent=agent)
    await number_all(pool)
    items = (await get_page(client, f"/v5/repos/{space}/events"))["items"]
    assert items[-1]["actor"] == {"kind": "agent", "id": str(agent.id), "name": "planner"}


async def test_a_malformed_last_event_id_is_named_on_a_page_too(client: httpx.AsyncClient) -> None:
    response = await client.get("/v5/events", headers={"Last-Event-ID": "-1"})
    assert response.status_code == 400, response.text
    [error] = response.json()["errors"]
    assert (error["field"], error["source"]) == ("Last-Event-ID", "header")


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"after": "-1"}, "after"),
        ({"after": "1e3"}, "after"),
        ({"after": "99999999999999999999"}, "after"),
        ({"limit": "0"}, "limit"),
        ({"limit": "501"}, "limit"),
        ({"limit": "x"}, "limit"),
        ({"since": "5"}, "since"),  # a guessed name for `after` must not mean "from the start"
    ],
)
async def test_malformed_after_or_limit_is_a_400_naming_it(
    client: httpx.AsyncClient, params: dict[str, str], field: str
) -> None:
    response = await client.get("/v5/events", params=params)
    assert response.status_code == 400, response.text
    [error] = response.json()["errors"]
    assert (error["field"], error["source"]) == (field, "query")


async def test_an_after_past_the_newest_event_is_a_400(client: httpx.AsyncClient, pool: Pool) -> None:
    space = await make_space(client, "future")
    await write_events(pool, space, 2)
    newest = (await get_page(client, "/v5/events"))["next_after"]
    assert (await get_page(client, "/v5/events", after=newest))["items"] == []
    response = await client.get("/v5/events", params={"after": newest + 1})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "after"


async def test_an_after_whose_following_events_were_pruned_is_a_410(
    client: httpx.AsyncClient, pool: Pool, db: asyncpg.Connection
) -> None:
    space = await make_space(client, "old")
    await write_events(pool, space, 5)
    ids = [e["id"] for e in (await get_page(client, "/v5/events"))["items"]]
    # The three oldest are past a day's retention.
    await db.execute("UPDATE events SET at = now() - interval '2 days' WHERE id <= $1", ids[2])
    assert await prune_events(pool, retention_days=1) == 3
    assert await db.fetchval("SELECT through FROM events_pruned") == ids[2]
    gone = await client.get("/v5/events", params={"after": ids[1]})
    assert gone.status_code == 410
    assert gone.json()["errors"][0] == {"field": "after", "message": gone.json()["detail"], "source": "query"}
    kept = await get_page(client, "/v5/events", after=ids[2])
    assert [e["id"] for e in kept["items"]] == ids[3:]
    oldest = await get_page(client, "/v5/events")
    assert [e["id"] for e in oldest["items"]] == ids[3:]
