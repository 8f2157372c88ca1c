"""A stored exchange writes one `turns.added` (SYSTEM.md §14), by the statement that stores it; a
send that stores nothing writes none."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.events.recorded import by_agent, by_person, recorded
from tests.proposals.helpers import bearer, make_agent
from tests.support.api import create_session, create_space, send, turns
from tests.support.events import EVENT_STREAM, EventReader, serving
from tests.support.fake_providers import FakeProviderServer


async def _session(client: httpx.AsyncClient) -> dict[str, str]:
    space = await create_space(client, f"turns-{uuid.uuid4().hex[:6]}")
    return await create_session(client, space["id"])


async def test_each_stored_exchange_is_one_turns_added_by_whoever_sent_it(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    session = await _session(client)
    agent = await make_agent(client, "writer")
    await db.execute("TRUNCATE events")

    await send(client, session["id"], "First.")
    response = await client.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "Second."}, headers=bearer(agent["token"])
    )
    assert response.status_code == 201, response.text
    # A send again with its request_id answers with the stored pair: nothing new, no event.
    body = {"session_id": session["id"], "content": "Third.", "request_id": "req-3"}
    assert (await client.post("/v4/chat/send", json=body)).status_code == 201
    assert (await client.post("/v4/chat/send", json=body)).status_code == 201

    repo_id = session["repo_id"]
    assert await recorded(db) == [
        by_person("turns.added", repo_id, session_id=session["id"], from_seq=1, to_seq=2, stopped=False),
        by_agent(agent, "turns.added", repo_id, session_id=session["id"], from_seq=3, to_seq=4, stopped=False),
        by_person("turns.added", repo_id, session_id=session["id"], from_seq=5, to_seq=6, stopped=False),
    ]


async def test_concurrent_sends_each_write_the_event_of_the_pair_they_stored(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    session = await _session(client)
    await db.execute("TRUNCATE events")

    answers = await asyncio.gather(*(send(client, session["id"], f"Message {n}.") for n in range(12)))

    stored = sorted((a["user_turn"]["sequence_number"], a["assistant_turn"]["sequence_number"]) for a in answers)
    events = await recorded(db)
    assert {event.type for event in events} == {"turns.added"}
    assert (
        sorted((e.data["from_seq"], e.data["to_seq"]) for e in events)
        == stored
        == [(n, n + 1) for n in range(1, 24, 2)]
    )


async def test_a_send_that_stores_nothing_writes_no_event(
    client: httpx.AsyncClient, db: asyncpg.Connection, fake_providers: FakeProviderServer
) -> None:
    session = await _session(client)
    await send(client, session["id"], "First.")
    await send(client, session["id"], "Second.")
    await db.execute("TRUNCATE events")

    fake_providers.state.mode = "error500"
    failed = await client.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "hi", "provider": "openai"}
    )
    assert failed.status_code == 502, failed.text
    fake_providers.state.mode = "ok"
    # A retry of a pair that is no longer the last: 409, nothing stored.
    stale = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "again", "retry_of": 1})
    assert stale.status_code == 409, stale.text
    gone = await client.post("/v4/chat/send", json={"session_id": str(uuid.uuid4()), "content": "hi"})
    assert gone.status_code == 404, gone.text

    assert len(await turns(client, session["id"])) == 4
    await send(client, session["id"], "Third.")

    assert await recorded(db) == [  # the one that was stored
        by_person("turns.added", session["repo_id"], session_id=session["id"], from_seq=5, to_seq=6, stopped=False)
    ]


@pytest.fixture
async def api(settings: Settings, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as client:
        yield client


async def test_a_stopped_stream_stores_what_it_had_as_one_turns_added_that_says_stopped(
    api: httpx.AsyncClient, db: asyncpg.Connection, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.reply = "One. Two. Three. Four. Five. Six."
    fake_providers.state.pieces = 6
    fake_providers.state.piece_delay_seconds = 0.3
    session = await _session(api)
    await db.execute("TRUNCATE events")

    body = {"session_id": session["id"], "content": "Count.", "provider": "openai"}
    async with api.stream("POST", "/v4/chat/send", json=body, headers=EVENT_STREAM) as response:
        assert response.status_code == 200
        reader = EventReader(response)
        assert (await reader.next()).name == "context"  # type: ignore[union-attr]
        assert (await reader.next()).name == "delta"  # type: ignore[union-attr]
    # The client went away mid-stream: the server stores the partial reply, stopped.
    for _ in range(200):
        if len(await turns(api, session["id"])) == 2:
            break
        await asyncio.sleep(0.05)

    assert await recorded(db) == [
        by_person("turns.added", session["repo_id"], session_id=session["id"], from_seq=1, to_seq=2, stopped=True)
    ]
