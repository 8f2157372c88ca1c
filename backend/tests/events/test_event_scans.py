"""A read of the event log looks through a bounded number of events (`log.SCAN_LIMIT`): a filter
that matches little, or an agent key's few Spaces among many, cannot walk the whole log on a
pooled connection; the page says where it stopped, and the next one goes on from there."""

from __future__ import annotations

import uuid

import httpx
import pytest

from smriti.core.config import Settings
from smriti.db.pool import Pool
from smriti.events.log import SCAN_LIMIT
from tests.events.support import get_page, make_agent, make_space, newest, number_all, write_events
from tests.support.events import EVENT_STREAM, EventReader, serving

pytestmark = pytest.mark.usefixtures("db")


async def _bulk(pool: Pool, space: uuid.UUID, count: int) -> None:
    """`count` numbered `turns.added` events of `space`, in one statement (the test's setup only)."""
    async with pool.acquire() as conn:
        await conn.execute(
            "INSERT INTO events (repo_id, type, actor_name, data) "
            "SELECT $1, 'turns.added', 'person', '{}'::jsonb FROM generate_series(1, $2)",
            space,
            count,
        )
    await number_all(pool)


async def test_a_filter_that_matches_little_looks_through_a_bounded_stretch_a_page(
    client: httpx.AsyncClient, pool: Pool
) -> None:
    space = await make_space(client, "busy")  # its space.created is the oldest event
    await _bulk(pool, space, 2 * SCAN_LIMIT + 100)
    path = f"/v5/repos/{space}/events"
    first = await get_page(client, path, order="newest", type="space.created")
    assert first["items"] == []  # a stretch of SCAN_LIMIT looked through, nothing kept
    assert first["next_before"] == await newest(pool) - SCAN_LIMIT + 1
    pages = [first]
    while pages[-1]["next_before"] is not None:
        pages.append(
            await get_page(client, path, order="newest", type="space.created", before=pages[-1]["next_before"])
        )
    assert [len(page["items"]) for page in pages] == [0, 0, 1]
    assert pages[-1]["items"][0]["type"] == "space.created"


async def test_a_page_that_keeps_nothing_still_moves_the_next_one_on(client: httpx.AsyncClient, pool: Pool) -> None:
    space = await make_space(client, "quiet")
    start = await newest(pool)
    await write_events(pool, space, 3)
    path = f"/v5/repos/{space}/events"
    later = await get_page(client, path, after=start, type="proposal.merged")
    assert later["items"] == []
    assert later["next_after"] == await newest(pool)  # not `start`: those three need not be read again
    first = await get_page(client, path, order="newest", type="proposal.merged")
    assert first["items"] == []
    assert first["next_after"] == await newest(pool)  # after= it reads what comes next, never a 410
    assert first["next_before"] is None


async def test_an_agent_keys_stream_replays_its_space_across_a_long_stretch_of_others(
    settings: Settings, pool: Pool
) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        mine, theirs = await make_space(http, "mine"), await make_space(http, "theirs")
        auth = {"authorization": f"Bearer {await make_agent(http, [mine])}"}
        base = await newest(pool)
        await write_events(pool, mine, 1)
        await _bulk(pool, theirs, 2 * SCAN_LIMIT)
        await write_events(pool, mine, 1)
        page = await get_page(http, "/v5/events", after=base)  # the person: every Space
        assert len(page["items"]) == 100
        headers = {**EVENT_STREAM, **auth}
        async with http.stream("GET", "/v5/events", params={"after": base}, headers=headers) as response:
            assert response.status_code == 200
            reader = EventReader(response)
            got = [(await reader.next()), (await reader.next())]
        assert [e.data["repo_id"] for e in got if e is not None] == [str(mine), str(mine)]
        assert got[1] is not None
        assert got[1].data["id"] == await newest(pool)
        scoped = await http.get("/v5/events", params={"after": base}, headers=auth)
        assert [e["repo_id"] for e in scoped.json()["items"]] == [str(mine)]  # then a stretch of theirs
