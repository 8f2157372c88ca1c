"""`POST /v4/chat/send` with `Accept: text/event-stream` (SYSTEM.md §9): the events, what is
stored when, and the races (a client that goes away, a stop as the reply completes, a retry
while the first is streaming, a Space deleted mid-stream, a server that stops)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.chat.schemas import SendResponse
from smriti.chat.streaming import ContextEvent, ReplyStream
from smriti.core.config import Settings
from smriti.core.errors import ProviderFailure
from tests.support.api import create_session, create_space, turns
from tests.support.events import EVENT_STREAM, EventReader, Served, reply_of, serving
from tests.support.fake_providers import FakeProviderServer

REPLY = "One. Two. Three. Four. Five. Six."


@pytest.fixture
async def served(settings: Settings, db: asyncpg.Connection) -> AsyncIterator[Served]:
    async with serving(settings) as server:
        yield server


@pytest.fixture
async def api(served: Served) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
        yield client


async def _session(api: httpx.AsyncClient) -> dict[str, Any]:
    space = await create_space(api, f"stream-{uuid.uuid4().hex[:6]}")
    return await create_session(api, space["id"])


@asynccontextmanager
async def _streaming(api: httpx.AsyncClient, body: dict[str, Any]) -> AsyncIterator[EventReader]:
    async with api.stream("POST", "/v4/chat/send", json=body, headers=EVENT_STREAM) as response:
        assert response.status_code == 200, await response.aread()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield EventReader(response)


async def _stored_soon(api: httpx.AsyncClient, session_id: str, count: int) -> list[dict[str, Any]]:
    """The Session's Turns once there are `count` (the server stores after the client left)."""
    for _ in range(200):
        stored = await turns(api, session_id)
        if len(stored) >= count:
            return stored
        await asyncio.sleep(0.05)
    raise AssertionError(f"expected {count} Turns, found {len(stored)}")


def _slow(fake: FakeProviderServer, *, pieces: int = 6, delay: float = 0.3) -> None:
    fake.state.reply = REPLY
    fake.state.pieces = pieces
    fake.state.piece_delay_seconds = delay


@pytest.mark.parametrize("provider", ["openai", "anthropic", "offline"])
async def test_a_streamed_send_sends_context_then_deltas_then_done_with_the_stored_pair(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    fake_providers.state.reply = REPLY
    session = await _session(api)
    async with _streaming(
        api, {"session_id": session["id"], "content": "Count to six.", "provider": provider}
    ) as reader:
        events = await reader.all()

    names = [event.name for event in events]
    assert names[0] == "context"
    assert names[-1] == "done"
    assert set(names[1:-1]) == {"delta"}
    assert len(names) >= 3
    context = events[0].data
    assert context["session_id"] == session["id"]
    assert context["provider"] == provider
    assert context["checkpoint_id"] is None
    assert context["history_base_seq"] is None
    assert context["context_tokens"] > 0
    done = events[-1].data
    assert set(done) == {"user_turn", "assistant_turn", "suggestion"}
    assert done["assistant_turn"]["content"] == reply_of(events)
    assert done["assistant_turn"]["stopped"] is False
    if provider != "offline":
        assert reply_of(events) == REPLY
        assert len(names) - 2 > 1  # in more than one piece
    # `done` describes the pair as stored.
    assert await turns(api, session["id"]) == [done["user_turn"], done["assistant_turn"]]


async def test_refusals_answer_as_json_before_any_stream(api: httpx.AsyncClient) -> None:
    session = await _session(api)
    cases = [
        ({"session_id": str(uuid.uuid4()), "content": "hi"}, 404, "session_id"),
        ({"session_id": session["id"], "content": "hi", "provider": "nope"}, 400, "provider"),
        ({"session_id": session["id"], "content": "hi", "checkpoint_id": str(uuid.uuid4())}, 400, "history_base_seq"),
        ({"session_id": session["id"], "content": ""}, 400, "content"),
        # Too big for the model's window: refused before the provider is called.
        (
            {"session_id": session["id"], "content": "word " * 200_000, "provider": "openai", "model": "gpt-4o"},
            400,
            "content",
        ),
    ]
    for body, status, field in cases:
        response = await api.post("/v4/chat/send", json=body, headers=EVENT_STREAM)
        assert response.status_code == status, (body, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert field in {error["field"] for error in response.json()["errors"]}
    assert await turns(api, session["id"]) == []


async def test_a_provider_failure_mid_stream_sends_error_and_stores_nothing(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers, delay=0.0)
    fake_providers.state.fail_after_pieces = 2
    session = await _session(api)
    async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "openai"}) as reader:
        events = await reader.all()

    assert [event.name for event in events] == ["context", "delta", "delta", "error"]
    error = events[-1].data
    assert error["status"] == 502
    assert error["provider"] == "openai"
    assert "openai" in error["detail"].lower() or "provider" in error["detail"].lower()
    assert await turns(api, session["id"]) == []


async def test_a_client_that_goes_away_stops_the_call_and_the_partial_reply_is_stored_stopped(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers)
    session = await _session(api)
    async with _streaming(api, {"session_id": session["id"], "content": "Count.", "provider": "openai"}) as reader:
        assert (await reader.next()).name == "context"  # type: ignore[union-attr]
        first = await reader.next()
        assert first is not None
        assert first.name == "delta"
    # The response is closed here, mid-stream: the client has gone.
    user, assistant = await _stored_soon(api, session["id"], 2)
    assert user["content"] == "Count."
    assert not user["stopped"]
    assert assistant["stopped"] is True
    assert assistant["content"].startswith(first.data["text"])
    assert REPLY.startswith(assistant["content"])
    assert assistant["content"] != REPLY
    assert assistant["input_tokens"] is None
    assert assistant["output_tokens"] is None
    # What the provider was sent is on the receipt, stopped or not.
    rebuilt = (await api.get(f"/v4/sessions/{session['id']}/turns/2/context")).json()
    assert rebuilt["matches"] is True
    assert rebuilt["recorded_sha256"] == assistant["context_sha256"]
    [request] = fake_providers.state.requests
    for _ in range(100):  # the provider's stream was closed: its next write failed
        if request.cut:
            break
        await asyncio.sleep(0.05)
    assert request.cut
    # The stopped reply is in the next context, as said.
    preview = (await api.post("/v4/chat/context", json={"session_id": session["id"]})).json()
    assert [m["content"] for m in preview["messages"]] == ["Count.", assistant["content"]]


async def test_a_client_that_goes_away_before_any_text_leaves_nothing_stored(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.delay_seconds = 0.6  # the first piece is slow
    session = await _session(api)
    async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "openai"}) as reader:
        assert (await reader.next()).name == "context"  # type: ignore[union-attr]
    await asyncio.sleep(1.2)  # past the provider's first piece
    assert await turns(api, session["id"]) == []
    # The key, had there been one, is free: a send now is answered afresh.
    again = await api.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi", "provider": "openai"})
    assert again.status_code == 201, again.text


async def test_a_stop_while_the_complete_reply_is_being_stored_keeps_it_whole(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    fake_providers.state.reply = REPLY
    session = await _session(api)
    # Hold the Session's row: the write of the pair waits for it, with the whole reply in hand.
    locked = db.transaction()
    await locked.start()
    await db.execute("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", uuid.UUID(session["id"]))
    try:
        async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "openai"}) as reader:
            seen = [await reader.next() for _ in range(2)]
            assert [event.name for event in seen if event] == ["context", "delta"]
            await asyncio.sleep(0.3)  # every piece and the end have arrived; the write waits
        # The client went away while the pair was being stored.
        await asyncio.sleep(0.2)
    finally:
        await locked.rollback()
    _user, assistant = await _stored_soon(api, session["id"], 2)
    assert assistant["content"] == REPLY
    assert assistant["stopped"] is False
    assert assistant["output_tokens"] is not None


async def test_a_retry_with_the_same_request_id_while_streaming_waits_and_gets_the_same_pair(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers, delay=0.15)
    session = await _session(api)
    body = {"session_id": session["id"], "content": "once", "provider": "openai", "request_id": "r-1"}
    async with _streaming(api, body) as reader:
        assert (await reader.next()).name == "context"  # type: ignore[union-attr]
        retried_plain = asyncio.create_task(api.post("/v4/chat/send", json=body))
        retried_stream = asyncio.create_task(api.post("/v4/chat/send", json=body, headers=EVENT_STREAM))
        first = await reader.all()
    done = first[-1]
    assert done.name == "done"
    plain = await retried_plain
    assert plain.status_code == 201, plain.text
    assert plain.json()["assistant_turn"] == done.data["assistant_turn"]
    streamed = await retried_stream
    replayed = _parse(streamed.text)
    assert [name for name, _ in replayed] == ["context", "delta", "done"]
    assert replayed[0][1]["context_tokens"] is None
    assert replayed[1][1]["text"] == REPLY
    assert replayed[2][1]["assistant_turn"] == done.data["assistant_turn"]
    assert len(fake_providers.state.requests) == 1  # the provider was asked once
    assert len(await turns(api, session["id"])) == 2


async def test_a_retry_after_a_stopped_stream_replays_the_stopped_pair(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers)
    session = await _session(api)
    body = {"session_id": session["id"], "content": "once", "provider": "openai", "request_id": "r-2"}
    async with _streaming(api, body) as reader:
        await reader.next()
        await reader.next()
    _, stopped = await _stored_soon(api, session["id"], 2)
    again = await api.post("/v4/chat/send", json=body)
    assert again.status_code == 201, again.text
    assert again.json()["assistant_turn"] == stopped
    assert len(fake_providers.state.requests) == 1


async def test_a_space_deleted_mid_stream_ends_it_with_an_error_and_nothing_stored(
    api: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers, pieces=4, delay=0.2)
    session = await _session(api)
    async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "anthropic"}) as reader:
        await reader.next()
        assert (await reader.next()).name == "delta"  # type: ignore[union-attr]
        deleted = await api.delete(f"/v4/repos/{session['repo_id']}")
        assert deleted.status_code == 204, deleted.text
        rest = await reader.all()
    assert rest[-1].name == "error"
    assert rest[-1].data["status"] == 404
    assert rest[-1].data["provider"] == "anthropic"
    assert (await api.get(f"/v4/sessions/{session['id']}")).status_code == 404


async def test_a_stopping_server_lets_a_short_stream_finish_and_ends_a_long_one_with_an_error(
    settings: Settings, db: asyncpg.Connection, fake_providers: FakeProviderServer
) -> None:
    _slow(fake_providers, pieces=6, delay=0.4)  # about 2 s in all
    async with serving(settings, shutdown_grace_s=0.5) as served, httpx.AsyncClient(base_url=served.url) as api:
        session = await _session(api)
        async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "openai"}) as reader:
            await reader.next()
            await reader.next()
            served.stop()
            rest = await reader.all()
        assert rest[-1].name == "error"
        assert rest[-1].data["status"] == 503
        assert "shutting down" in rest[-1].data["detail"]
        stored = await db.fetchval("SELECT count(*) FROM turns WHERE session_id = $1", uuid.UUID(session["id"]))
        assert stored == 0

    _slow(fake_providers, pieces=3, delay=0.2)  # well within the grace period
    async with serving(settings, shutdown_grace_s=5.0) as served, httpx.AsyncClient(base_url=served.url) as api:
        session = await _session(api)
        async with _streaming(api, {"session_id": session["id"], "content": "hi", "provider": "openai"}) as reader:
            await reader.next()
            served.stop()
            rest = await reader.all()
        assert rest[-1].name == "done"
        assert rest[-1].data["assistant_turn"]["content"] == REPLY
    stored = await db.fetchval("SELECT count(*) FROM turns WHERE session_id = $1", uuid.UUID(session["id"]))
    assert stored == 2


async def test_a_server_that_is_stopping_refuses_a_new_stream_as_json(served: Served, api: httpx.AsyncClient) -> None:
    session = await _session(api)
    served.app.state.services.chat.streams.drain(60.0)
    response = await api.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "hi"}, headers=EVENT_STREAM
    )
    assert response.status_code == 503, response.text
    assert "shutting down" in response.json()["detail"]
    assert await turns(api, session["id"]) == []


async def test_a_quiet_stream_sends_a_comment_before_the_keep_alive_interval_passes() -> None:
    stream = ReplyStream(keep_alive_s=0.1)
    session_id = uuid.uuid4()

    async def quiet_send() -> SendResponse:
        stream.began(ContextEvent(session_id, "openai", "gpt-test", None, None, 10))
        await asyncio.sleep(0.35)  # the model thinks
        raise ProviderFailure("openai", 502, "openai failed")

    stream.run(quiet_send())
    await stream.started
    received = b"".join([frame async for frame in stream.frames()])
    blocks = received.decode().split("\n\n")
    assert blocks[0].startswith("event: context")
    assert blocks[1:4] == [": keep-alive"] * 3
    assert blocks[4].startswith("event: error")
    assert '"status":502' in blocks[4]


def _parse(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith(":")]
        if lines:
            name = lines[0].removeprefix("event: ")
            events.append((name, json.loads(lines[1].removeprefix("data: "))))
    return events
