"""The event log as a live stream (Server-Sent Events) over a real socket: resume, scope, clients
that never read, many subscribers, several server processes and shutdown."""

from __future__ import annotations

import asyncio
import signal
import socket
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from smriti.db.pool import Pool
from smriti.events import hub as hub_module
from smriti.events.hub import EventHub
from smriti.events.record import record
from tests.events.support import make_agent, make_space, newest, number_all, write_events
from tests.support.events import EVENT_STREAM, EventReader, serving
from tests.support.live_server import live_server

pytestmark = pytest.mark.usefixtures("db")


@asynccontextmanager
async def _stream(
    http: httpx.AsyncClient, path: str, headers: dict[str, str] | None = None, **params: Any
) -> AsyncIterator[EventReader]:
    async with http.stream("GET", path, params=params, headers={**EVENT_STREAM, **(headers or {})}) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield EventReader(response)


async def _ids(reader: EventReader, count: int, *, within: float = 10) -> list[int]:
    ids: list[int] = []
    async with asyncio.timeout(within):
        while len(ids) < count:
            event = await reader.next()
            assert event is not None, "the stream ended"
            assert event.name == event.data["type"]
            ids.append(event.data["id"])
    return ids


def _hub(served: Any) -> EventHub:
    hub: EventHub = served.app.state["services"].events
    return hub


async def _until(condition: Any, *, within: float = 5) -> None:
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 - the hub's state, polled: it signals nothing
            await asyncio.sleep(0.02)


async def test_a_stream_starts_at_the_next_new_event_and_sends_it_within_a_second(
    settings: Settings, pool: Pool
) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "live")
        await write_events(pool, space, 3)  # before the stream: not sent
        async with _stream(http, "/v5/events") as reader:
            await write_events(pool, space, 1, number=False)  # the hub numbers it
            started = time.monotonic()
            event = await asyncio.wait_for(reader.next(), 5)
            elapsed = time.monotonic() - started
        assert event is not None
        assert event.data["data"]["n"] == 0
        assert event.data["id"] == await newest(pool)
        assert elapsed < 1.0


async def test_a_stream_resumes_from_last_event_id_with_nothing_lost_or_repeated(
    settings: Settings, pool: Pool
) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "resume")
        base = await newest(pool)
        await write_events(pool, space, 5)
        async with _stream(http, f"/v5/repos/{space}/events", after=base) as reader:
            first = await _ids(reader, 3)  # then the client drops mid-stream
        await write_events(pool, space, 450)  # more than a replay page while it was away
        async with _stream(http, f"/v5/repos/{space}/events", {"last-event-id": str(first[-1])}) as reader:
            rest = await _ids(reader, 452)
            await write_events(pool, space, 2, number=False)
            live = await _ids(reader, 2)
        seen = first + rest + live
        assert seen == list(range(base + 1, base + 458))


async def test_an_agent_key_streams_only_its_spaces_events(settings: Settings, pool: Pool) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        mine, theirs = await make_space(http, "mine"), await make_space(http, "theirs")
        auth = {"authorization": f"Bearer {await make_agent(http, [mine])}"}
        hidden = await http.get(f"/v5/repos/{theirs}/events", headers={**EVENT_STREAM, **auth})
        assert hidden.status_code == 404
        assert hidden.json()["errors"][0]["field"] == "repo_id"
        await write_events(pool, theirs, 2)
        base = await newest(pool)
        async with _stream(http, "/v5/events", auth, after=base) as replayed, _stream(http, "/v5/events", auth) as live:
            await write_events(pool, theirs, 3, number=False)
            await write_events(pool, mine, 1, number=False)
            [(replayed_id)] = await _ids(replayed, 1)
            event = await asyncio.wait_for(live.next(), 5)
        assert event is not None
        assert event.data["repo_id"] == str(mine)
        assert replayed_id == event.data["id"] == await newest(pool)


@pytest.mark.parametrize(
    ("headers", "params", "status", "field"),
    [
        ({"last-event-id": "abc"}, {}, 400, "Last-Event-ID"),
        ({"last-event-id": "99"}, {}, 400, "Last-Event-ID"),
        ({}, {"after": "-3"}, 400, "after"),
        ({"last-event-id": "1"}, {"after": "zz"}, 410, "Last-Event-ID"),
    ],
)
async def test_a_bad_start_is_answered_as_json_before_any_stream(
    client: httpx.AsyncClient,
    pool: Pool,
    db: asyncpg.Connection,
    headers: dict[str, str],
    params: dict[str, str],
    status: int,
    field: str,
) -> None:
    space = uuid.uuid4()
    await write_events(pool, space, 3)
    await db.execute("UPDATE events_pruned SET through = 2")
    response = await client.get("/v5/events", headers={**EVENT_STREAM, **headers}, params=params)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    [error] = response.json()["errors"]
    assert error["field"] == field
    assert error["source"] == ("header" if field == "Last-Event-ID" else "query")


def _non_reader(url: str, path: str) -> socket.socket:
    """A stream whose client asks and then reads nothing: its receive buffer fills and stays full."""
    address = httpx.URL(url)
    assert address.port is not None
    sock = socket.create_connection((address.host, address.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock


async def test_streams_nobody_reads_hold_no_connection_and_keep_bounded_memory(
    settings: Settings, pool: Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "QUEUE_LIMIT", 50)
    async with (
        serving(settings, db_pool_size=2, db_acquire_timeout_s=2.0) as served,
        httpx.AsyncClient(base_url=served.url, timeout=30) as http,
    ):
        space = await make_space(http, "stalled")
        await _big_events(pool, space, 400)  # ~1 MB: more than the sockets' buffers
        stalled = [_non_reader(served.url, "/v5/events?after=0") for _ in range(4)]
        try:
            hub = _hub(served)
            await _until(lambda: hub.subscribers == 4)
            await asyncio.sleep(1)  # each is stuck sending its replay
            started = time.monotonic()
            for _ in range(5):
                assert (await http.get("/v5/events", params={"limit": 500})).status_code == 200
            assert (await http.get("/health")).json()["database"] == "ok"
            assert time.monotonic() - started < 2
            async with _stream(http, f"/v5/repos/{space}/events") as reader:
                await _big_events(pool, space, 120, number=False)  # live, past each queue's limit
                assert len(await _ids(reader, 120)) == 120  # a reader is not held up by the others
            queues = [len(s.pending) for s in hub._subscribers]
            assert max(queues) <= 50
        finally:
            for sock in stalled:
                sock.close()
        await _until(lambda: hub.subscribers == 0)  # closed sockets end their streams


async def _big_events(pool: Pool, space: uuid.UUID, count: int, *, number: bool = True) -> None:
    async with pool.acquire() as conn, conn.transaction():
        for n in range(count):
            await record(conn, space, "space.updated", {"name": f"{n}-" + "x" * 2500}, agent=None)
    if number:
        await number_all(pool)


async def test_a_stream_that_fell_behind_catches_up_from_the_log(
    settings: Settings, pool: Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "QUEUE_LIMIT", 5)
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "behind")
        async with _stream(http, "/v5/events") as reader:
            await write_events(pool, space, 1, number=False)
            [first] = await _ids(reader, 1)
            await write_events(pool, space, 40)  # at once: more than the queue holds
            rest = await _ids(reader, 40)
        assert [first, *rest] == list(range(first, first + 41))


async def test_five_hundred_streams_each_get_a_new_event(settings: Settings, pool: Pool) -> None:
    limits = httpx.Limits(max_connections=550, max_keepalive_connections=550)
    async with (
        serving(settings) as served,
        httpx.AsyncClient(base_url=served.url, timeout=60, limits=limits) as http,
        AsyncExitStack() as streams,
    ):
        space = await make_space(http, "crowd")
        readers = [await streams.enter_async_context(_stream(http, "/v5/events")) for _ in range(500)]
        assert _hub(served).subscribers == 500
        await write_events(pool, space, 1, number=False)
        started = time.monotonic()
        got = await asyncio.gather(*(_ids(reader, 1) for reader in readers))
        elapsed = time.monotonic() - started
    assert {ids[0] for ids in got} == {await newest(pool)}
    assert elapsed < 3, elapsed


async def test_an_event_reaches_a_stream_on_another_server_process_within_a_second(
    database_url: str, tmp_path: Path, pool: Pool
) -> None:
    env = {"DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused"), "SMRITI_API_TOKEN": ""}
    with live_server(env, tmp_path) as first, live_server(env, tmp_path) as second:
        async with httpx.AsyncClient(timeout=30) as http:
            space = await make_space_at(http, first.url)
            async with (
                _stream(http, f"{second.url}/v5/repos/{space}/events") as on_second,
                _stream(http, f"{first.url}/v5/repos/{space}/events") as on_first,
            ):
                await write_events(pool, space, 1, number=False)  # committed; numbered by a hub
                started = time.monotonic()
                [a] = await _ids(on_first, 1, within=5)
                [b] = await _ids(on_second, 1, within=5)
                elapsed = time.monotonic() - started
    assert a == b
    assert elapsed < 1.0, elapsed


async def make_space_at(http: httpx.AsyncClient, url: str) -> uuid.UUID:
    async with httpx.AsyncClient(base_url=url, timeout=30) as there:
        return await make_space(there, "far")


async def test_shutdown_ends_open_streams_promptly(settings: Settings, pool: Pool) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "stopping")
        async with _stream(http, "/v5/events") as reader, _stream(http, f"/v5/repos/{space}/events") as other:
            served.stop()
            started = time.monotonic()
            assert await asyncio.wait_for(reader.all(), 5) == []
            assert await asyncio.wait_for(other.all(), 5) == []
            assert time.monotonic() - started < 2


async def test_a_server_process_with_open_streams_stops_promptly(database_url: str, tmp_path: Path) -> None:
    # uvicorn, the default: granian gives the app no word of a stop until its connections end, so
    # under it a SIGTERM waits for the streams' clients to go (docs/api.md says so).
    env = {"DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused"), "SMRITI_API_TOKEN": ""}
    with live_server(env, tmp_path, server="uvicorn") as running:
        async with httpx.AsyncClient(timeout=30) as http, _stream(http, f"{running.url}/v5/events"):
            started = time.monotonic()
            code = await asyncio.to_thread(running.stop, signal.SIGTERM, 15)
            elapsed = time.monotonic() - started
    assert code == 0, running.log()
    assert elapsed < 5, elapsed


async def test_the_hub_survives_losing_its_database_connections(settings: Settings, db: asyncpg.Connection) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "outage")
        async with _stream(http, f"/v5/repos/{space}/events") as reader:
            # Every other session of this database ends, as when PostgreSQL restarts under the server.
            await db.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            await asyncio.sleep(0.5)  # ticks fail meanwhile, and are logged
            await db.execute(
                "INSERT INTO events (repo_id, type, actor_name, data) VALUES ($1, 'space.updated', 'person', '{}')",
                space,
            )
            [event_id] = await _ids(reader, 1, within=5)
        assert event_id == await db.fetchval("SELECT max(id) FROM events")


async def test_a_revoked_agent_keys_streams_end_within_a_second(settings: Settings, pool: Pool) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "revoked")
        made = (await http.post("/v5/agents", json={"name": "leaver", "spaces": None})).json()
        auth = {"authorization": f"Bearer {made['token']}"}
        async with _stream(http, "/v5/events", auth) as reader, _stream(http, "/v5/events") as persons:
            assert (await http.delete(f"/v5/agents/{made['id']}")).status_code == 204
            started = time.monotonic()
            assert await asyncio.wait_for(reader.all(), 5) == []
            elapsed = time.monotonic() - started
            await write_events(pool, space, 1, number=False)
            assert len(await _ids(persons, 1)) == 1  # the person's stream goes on
        assert elapsed < 1.0, elapsed
        refused = await http.get("/v5/events", headers={**EVENT_STREAM, **auth})
        assert refused.status_code == 401


async def test_a_stream_opens_by_naming_where_it_starts(settings: Settings, pool: Pool) -> None:
    """A client that drops before the first event resumes from this id, missing nothing."""
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        space = await make_space(http, "opening")
        base = await newest(pool)
        await write_events(pool, space, 3)
        for params, start in (({}, base + 3), ({"after": base + 1}, base + 1)):
            async with http.stream("GET", "/v5/events", params=params, headers=EVENT_STREAM) as response:
                lines = response.aiter_lines()
                assert [await anext(lines), await anext(lines)] == [f"id: {start}", ""]


async def test_head_of_a_stream_answers_its_headers_and_ends(settings: Settings) -> None:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        response = await asyncio.wait_for(http.head("/v5/events", headers=EVENT_STREAM), 5)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert _hub(served).subscribers == 0
