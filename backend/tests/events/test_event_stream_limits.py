"""How many event streams a caller can hold: a process's bound, an agent key's share of it, and
a stream whose response never ran leaving nothing registered (SYSTEM.md §14, events/hub.py)."""

from __future__ import annotations

import gc
from contextlib import AsyncExitStack

import httpx
import pytest

from smriti.core.config import Settings
from smriti.db.pool import Pool
from smriti.events.hub import EventHub
from smriti.events.stream import EventStream
from tests.events.support import make_agent, make_space
from tests.support.events import EVENT_STREAM, serving

pytestmark = pytest.mark.usefixtures("db")


async def _open(stack: AsyncExitStack, http: httpx.AsyncClient, headers: dict[str, str] | None = None) -> None:
    response = await stack.enter_async_context(
        http.stream("GET", "/v5/events", headers={**EVENT_STREAM, **(headers or {})})
    )
    assert response.status_code == 200


async def _refused(http: httpx.AsyncClient, headers: dict[str, str] | None = None) -> httpx.Response:
    response = await http.get("/v5/events", headers={**EVENT_STREAM, **(headers or {})})
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "5"
    return response


async def test_a_process_holds_at_most_its_bound_of_streams(settings: Settings) -> None:
    async with serving(settings, max_event_streams=4) as served, httpx.AsyncClient(base_url=served.url) as http:
        async with AsyncExitStack() as stack:
            for _ in range(4):
                await _open(stack, http)
            refused = await _refused(http)
            assert "SMRITI_MAX_EVENT_STREAMS" in refused.json()["detail"]
            assert (await http.get("/v5/events")).status_code == 200  # pages are not streams
        async with AsyncExitStack() as stack:  # the closed ones gave their places back
            await _open(stack, http)


async def test_an_agent_key_holds_a_tenth_of_them_and_the_person_the_rest(settings: Settings) -> None:
    async with serving(settings, max_event_streams=20) as served, httpx.AsyncClient(base_url=served.url) as http:
        space = await make_space(http, "shared")
        agent = {"authorization": f"Bearer {await make_agent(http, [space])}"}
        other = {"authorization": f"Bearer {await make_agent(http, [space])}"}
        async with AsyncExitStack() as stack:
            for _ in range(2):
                await _open(stack, http, agent)
            assert "agent key" in (await _refused(http, agent)).json()["detail"]
            await _open(stack, http, other)
            await _open(stack, http)


async def test_a_stream_whose_response_never_ran_leaves_no_subscriber(pool: Pool) -> None:
    """A client gone before the first byte: the response's body is never iterated, so its
    `finally` never runs; the hub must not keep the stream's share of the feed (nor count it)."""
    hub = EventHub(pool, retention_days=30, max_streams=1)
    stream = EventStream(hub, pool, 0, repo_id=None, spaces=None)
    assert hub.subscribers == 1
    del stream
    gc.collect()
    assert hub.subscribers == 0
    EventStream(hub, pool, 0, repo_id=None, spaces=None)  # the place is free again
