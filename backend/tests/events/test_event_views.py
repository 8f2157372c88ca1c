"""Pages for an activity view: newest first through `before`, and filtered by type and actor."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from smriti.access.caller import Agent
from smriti.db.pool import Pool
from smriti.events.record import record
from tests.events.support import get_page, make_agent, make_space, number_all, write_events, written

pytestmark = pytest.mark.usefixtures("db")

PLANNER = Agent(id=uuid.uuid4(), name="planner", spaces=None, write=True)


async def _mixed(pool: Pool, space: uuid.UUID) -> None:
    """Two lines made by the person, then one by the agent `PLANNER`, then a line deleted by it."""
    async with pool.acquire() as conn:
        for name, agent in (("a", None), ("b", None), ("c", PLANNER)):
            async with conn.transaction():
                await record(conn, space, "line.created", {"name": name, "head_commit_id": None}, agent=agent)
        async with conn.transaction():
            await record(conn, space, "line.deleted", {"name": "a"}, agent=PLANNER)
    await number_all(pool)


async def test_newest_first_pages_go_down_through_next_before(client: httpx.AsyncClient, pool: Pool) -> None:
    space = await make_space(client, "newest")
    await write_events(pool, space, 5)
    path = f"/v5/repos/{space}/events"
    everything = [e["id"] for e in (await get_page(client, path))["items"]]  # space.created and the five
    first = await get_page(client, path, order="newest", limit=4)
    assert [e["id"] for e in first["items"]] == everything[::-1][:4]
    assert first["next_before"] == everything[2]
    assert first["next_after"] == everything[-1]  # what reads on to newer events
    second = await get_page(client, path, order="newest", limit=4, before=first["next_before"])
    assert [e["id"] for e in second["items"]] == everything[1::-1]
    assert second["next_before"] is None  # nothing older: no "older" button
    exact = await get_page(client, path, order="newest", limit=6)
    assert len(exact["items"]) == 6
    assert exact["next_before"] is None
    assert (await get_page(client, path, order="newest", before=everything[0]))["items"] == []
    newer = await get_page(client, path, after=first["next_after"])
    assert newer["items"] == []
    # An oldest-first page never has a `next_before`.
    assert (await get_page(client, path))["next_before"] is None


async def test_pages_filter_by_type_and_actor(client: httpx.AsyncClient, pool: Pool) -> None:
    space, other = await make_space(client, "filtered"), await make_space(client, "other")
    await _mixed(pool, space)
    await _mixed(pool, other)
    path = f"/v5/repos/{space}/events"

    def names(page: dict[str, Any]) -> list[tuple[str, str]]:
        return [(e["type"], e["data"]["name"]) for e in page["items"]]

    created = await get_page(client, path, type="line.created", order="newest")
    assert names(created) == [("line.created", "c"), ("line.created", "b"), ("line.created", "a")]
    both = await client.get(path, params=[("type", "line.deleted"), ("type", "space.created")])
    assert [e["type"] for e in both.json()["items"]] == ["space.created", "line.deleted"]
    by_agent = await get_page(client, path, actor=str(PLANNER.id), order="newest")
    assert names(by_agent) == [("line.deleted", "a"), ("line.created", "c")]
    assert {e["actor"]["name"] for e in by_agent["items"]} == {"planner"}
    by_person = await get_page(client, path, actor="human", type="line.created")
    assert names(by_person) == [("line.created", "a"), ("line.created", "b")]
    nobody = await get_page(client, path, actor=str(uuid.uuid4()))
    assert nobody["items"] == []
    # Across every Space: the same filters, both Spaces' events.
    everywhere = await get_page(client, "/v5/events", actor=str(PLANNER.id), type="line.deleted", order="newest")
    assert [e["repo_id"] for e in everywhere["items"]][:2] == [str(other), str(space)]
    # A filtered page goes down a page at a time too.
    first = await get_page(client, path, actor="human", order="newest", limit=1)
    second = await get_page(client, path, actor="human", order="newest", limit=1, before=first["next_before"])
    assert [e["type"] for e in first["items"] + second["items"]] == ["line.created", "line.created"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"type": "line.made"}, "type"),
        ({"type": ""}, "type"),
        ({"actor": "planner"}, "actor"),
        ({"actor": "agent"}, "actor"),
        ({"order": "desc"}, "order"),
        ({"before": "-3", "order": "newest"}, "before"),
        ({"before": "5"}, "before"),  # oldest first has no `before`: refused, not ignored
        ({"after": "5", "order": "newest"}, "after"),
    ],
)
async def test_bad_filters_are_400s_naming_them(client: httpx.AsyncClient, params: dict[str, str], field: str) -> None:
    for path in ("/v5/events", f"/v5/repos/{await make_space(client, 'bad')}/events"):
        response = await client.get(path, params=params)
        assert response.status_code == 400, response.text
        [error] = response.json()["errors"]
        assert (error["field"], error["source"]) == (field, "query")


@pytest.mark.parametrize("name", ["type", "actor", "before", "order", "limit"])
async def test_a_stream_refuses_what_only_a_page_takes(client: httpx.AsyncClient, name: str) -> None:
    value = {"type": "checkpoint.created", "actor": "human", "before": "1", "order": "newest", "limit": "5"}[name]
    response = await client.get("/v5/events", params={name: value}, headers={"Accept": "text/event-stream"})
    assert response.status_code == 400, response.text
    assert response.json()["errors"][0]["field"] == name


async def test_an_agent_key_of_another_space_gets_the_same_404_with_filters(
    client: httpx.AsyncClient, pool: Pool
) -> None:
    mine, theirs = await make_space(client, "mine"), await make_space(client, "theirs")
    await write_events(pool, mine, 1)
    await write_events(pool, theirs, 2)
    auth = {"authorization": f"Bearer {await make_agent(client, [mine])}"}
    params = {"order": "newest", "type": "turns.added", "actor": "human"}
    hidden = await client.get(f"/v5/repos/{theirs}/events", params=params, headers=auth)
    absent = await client.get(f"/v5/repos/{uuid.uuid4()}/events", params=params, headers=auth)
    assert hidden.status_code == absent.status_code == 404
    assert hidden.json()["errors"][0]["field"] == absent.json()["errors"][0]["field"] == "repo_id"
    everywhere = (await client.get("/v5/events", params=params, headers=auth)).json()
    assert {e["repo_id"] for e in everywhere["items"]} == {str(mine)}
    assert len(written(everywhere["items"])) == 1
