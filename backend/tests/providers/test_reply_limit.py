"""A provider's reply is at most SMRITI_MAX_REPLY_BYTES of UTF-8 (issue 42, item 13): past it the
call is stopped and nothing is stored, for a plain send, a streamed one, a draft and a review.
Real SDKs against the fake servers (tests/support/fake_providers.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from smriti.core.errors import ProviderFailure
from smriti.providers.base import ChatMessage, ProviderRequest, ReplyEnd
from smriti.providers.registry import ProviderRegistry
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send, turns
from tests.support.events import EVENT_STREAM, EventReader, reply_of, serving
from tests.support.fake_providers import FakeProviderServer

LIMIT = 2048
PROVIDERS = ["openai", "anthropic"]
MODELS = {"openai": "gpt-test", "anthropic": "claude-test"}


@pytest.fixture(autouse=True)
def quiet_fake(fake_providers: FakeProviderServer) -> None:
    fake_providers.state.reset()


@pytest.fixture
def capped(settings: Settings) -> Settings:
    return dataclasses.replace(settings, max_reply_bytes=LIMIT)


@pytest.fixture
async def client(capped: Settings, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(capped) as test_client:
        yield test_client


def _names_the_limit(detail: str, provider: str) -> None:
    assert detail.startswith(f"Provider {provider} failed"), detail
    assert f"{LIMIT:,} bytes (SMRITI_MAX_REPLY_BYTES)" in detail
    assert "nothing was stored" in detail


def _request(provider: str) -> ProviderRequest:
    return ProviderRequest(model=MODELS[provider], system=None, messages=[ChatMessage(role="user", content="hi")])


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_reply_of_the_limit_is_whole_and_one_byte_more_is_refused(
    capped: Settings, fake_providers: FakeProviderServer, provider: str
) -> None:
    """Counted in bytes of UTF-8, not characters: 1,024 × "é" is the limit exactly."""
    guarded = ProviderRegistry(capped).choose(provider, None).provider
    fake_providers.state.pieces = 5
    try:
        fake_providers.state.reply = "é" * (LIMIT // 2)
        reply = await guarded.complete(_request(provider))
        assert reply.content == fake_providers.state.reply
        fake_providers.state.reply = "é" * (LIMIT // 2) + "x"
        with pytest.raises(ProviderFailure) as failure:
            await guarded.complete(_request(provider))
    finally:
        await guarded.close()
    assert failure.value.status_code == 502
    _names_the_limit(failure.value.detail, provider)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_long_reply_is_stopped_at_the_limit_not_read_to_its_end(
    capped: Settings, fake_providers: FakeProviderServer, provider: str
) -> None:
    fake_providers.state.reply = "word " * LIMIT
    fake_providers.state.pieces = 40
    fake_providers.state.piece_delay_seconds = 0.05
    guarded = ProviderRegistry(capped).choose(provider, None).provider
    received: list[str] = []

    async def receive() -> None:
        async for piece in guarded.stream(_request(provider)):
            assert not isinstance(piece, ReplyEnd)
            received.append(piece)

    try:
        with pytest.raises(ProviderFailure) as failure:
            await receive()
    finally:
        await guarded.close()
    _names_the_limit(failure.value.detail, provider)
    assert len("".join(received).encode()) <= LIMIT  # the piece that passed it is not passed on
    [request] = fake_providers.state.requests
    for _ in range(60):  # the provider sees its next write fail: the call was closed
        if request.cut:
            break
        await asyncio.sleep(0.05)
    assert request.cut


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_plain_send_past_the_limit_is_a_502_and_stores_nothing(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"], provider=provider)
    fake_providers.state.reply = "x" * (LIMIT + 1)
    body = {"session_id": session["id"], "content": "Say a lot.", "request_id": "r1"}
    response = await client.post("/v4/chat/send", json=body)
    assert response.status_code == 502, response.text
    assert response.json()["provider"] == provider
    _names_the_limit(response.json()["detail"], provider)
    assert await turns(client, session["id"]) == []
    # A retry with the same key asks again (nothing was stored), and a reply within the limit is kept.
    fake_providers.state.reply = "x" * LIMIT
    assert (await client.post("/v4/chat/send", json=body)).json()["assistant_turn"]["content"] == "x" * LIMIT


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_streamed_reply_past_the_limit_ends_with_an_error_event_and_stores_nothing(
    capped: Settings, db: asyncpg.Connection, fake_providers: FakeProviderServer, provider: str
) -> None:
    fake_providers.state.reply = "word " * LIMIT
    fake_providers.state.pieces = 20
    async with serving(capped) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as api:
        space = await create_space(api, f"s-{uuid.uuid4().hex[:6]}")
        session = await create_session(api, space["id"], provider=provider)
        body = {"session_id": session["id"], "content": "Say a lot."}
        async with api.stream("POST", "/v4/chat/send", json=body, headers=EVENT_STREAM) as response:
            assert response.status_code == 200
            events = await EventReader(response).all()
        assert events[0].name == "context"
        assert {event.name for event in events[1:-1]} == {"delta"}
        assert len(reply_of(events).encode()) <= LIMIT
        error = events[-1]
        assert error.name == "error"
        assert (error.data["status"], error.data["provider"]) == (502, provider)
        _names_the_limit(error.data["detail"], provider)
        assert await turns(api, session["id"]) == []


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_drafts_and_reviews_are_held_to_the_limit(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"], provider=provider)
    await send(client, session["id"], "We decided to use PostgreSQL.")
    checkpoint = await commit(client, space["id"], decisions=["Use PostgreSQL"])
    draft: dict[str, Any] = {"message": "Plan", "summary": "s" * LIMIT, "decisions": [], "assumptions": []}
    draft |= {"tasks": [], "open_questions": [], "entities": []}
    review = {"findings": [{"kind": "contradiction", "detail": "d" * LIMIT, "refs": []}]}
    for reply in (json.dumps(draft), json.dumps(review)):
        fake_providers.state.reply = reply
        drafted = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
        reviewed = await client.post(f"/v5/commits/{checkpoint['id']}/review", json={"provider": provider})
        for response in (drafted, reviewed):
            assert response.status_code == 502, response.text
            _names_the_limit(response.json()["detail"], provider)
