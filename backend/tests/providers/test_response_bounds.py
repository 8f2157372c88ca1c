"""What one provider response may make the SDKs hold before the reply cap sees it
(providers/http_bounds.py): an event that never ends, an error body of any length, a compressed
body. Real SDKs against the fake servers, which write 64 MB unless the client hangs up first."""

from __future__ import annotations

import asyncio
import dataclasses
import tracemalloc
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from smriti.core.errors import ProviderFailure
from smriti.providers.base import ChatMessage, ProviderReply, ProviderRequest
from smriti.providers.guard import GuardedProvider
from smriti.providers.http_bounds import ERROR_BODY_BYTES, event_bytes
from smriti.providers.registry import ProviderRegistry
from tests.conftest import make_client
from tests.support.api import create_session, create_space, turns
from tests.support.fake_providers import FakeProviderServer, RecordedRequest

LIMIT = 2048
PROVIDERS = ["openai", "anthropic"]
MODELS = {"openai": "gpt-test", "anthropic": "claude-test"}
MEMORY_BOUND = 16 * 2**20
"""Far below the 64 MB each hostile answer holds, far above what the bounds let through."""


@pytest.fixture(autouse=True)
def quiet_fake(fake_providers: FakeProviderServer) -> None:
    fake_providers.state.reset()


@pytest.fixture
def capped(settings: Settings) -> Settings:
    return dataclasses.replace(settings, max_reply_bytes=LIMIT)


async def _complete(capped: Settings, provider: str) -> tuple[ProviderReply | ProviderFailure, int]:
    """The reply or the failure, and the peak of memory allocated while waiting for it."""
    guarded: GuardedProvider = ProviderRegistry(capped).choose(provider, None).provider
    request = ProviderRequest(model=MODELS[provider], system=None, messages=[ChatMessage(role="user", content="hi")])
    tracemalloc.start()
    try:
        outcome: ProviderReply | ProviderFailure = await guarded.complete(request)
    except ProviderFailure as failure:
        outcome = failure
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        await guarded.close()
    return outcome, peak


async def _hung_up(request: RecordedRequest) -> bool:
    """Whether the provider saw the client close the response before the end of its 64 MB."""
    for _ in range(100):
        if request.cut:
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_event_that_never_ends_is_refused_at_its_bound_not_held_whole(
    capped: Settings, fake_providers: FakeProviderServer, provider: str
) -> None:
    fake_providers.state.mode = "endless_event"
    outcome, peak = await _complete(capped, provider)
    assert isinstance(outcome, ProviderFailure)
    assert outcome.status_code == 502
    assert outcome.detail.startswith(f"Provider {provider} failed")
    assert f"ran past {event_bytes(LIMIT):,} bytes without the end of an event" in outcome.detail
    assert peak < MEMORY_BOUND
    assert await _hung_up(fake_providers.state.requests[-1])


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("status", "answered"), [(500, 502), (429, 429)])
async def test_an_error_body_is_read_to_its_bound_and_its_status_kept(
    capped: Settings, fake_providers: FakeProviderServer, provider: str, status: int, answered: int
) -> None:
    fake_providers.state.mode = "huge_error"
    fake_providers.state.refuse_status = status
    outcome, peak = await _complete(capped, provider)
    assert isinstance(outcome, ProviderFailure)
    assert outcome.status_code == answered  # a rate limit is still a rate limit, its Retry-After read
    assert len(outcome.detail) < 400
    assert peak < MEMORY_BOUND
    assert await _hung_up(fake_providers.state.requests[-1])
    assert ERROR_BODY_BYTES < MEMORY_BOUND


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_responses_are_asked_uncompressed_and_a_compressed_one_is_refused(
    capped: Settings, fake_providers: FakeProviderServer, provider: str
) -> None:
    outcome, _ = await _complete(capped, provider)
    assert isinstance(outcome, ProviderReply)
    assert outcome.content == "Fake provider reply."
    assert fake_providers.state.requests[-1].headers["Accept-Encoding"] == "identity"
    fake_providers.state.mode = "gzip"
    outcome, _ = await _complete(capped, provider)
    assert isinstance(outcome, ProviderFailure)
    assert outcome.status_code == 502
    assert "compressed (Content-Encoding: gzip)" in outcome.detail


@pytest.fixture
async def client(capped: Settings, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(capped) as test_client:
        yield test_client


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_send_to_a_provider_answering_an_endless_event_is_a_502_and_stores_nothing(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"], provider=provider)
    fake_providers.state.mode = "endless_event"
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502, response.text
    assert response.json()["provider"] == provider
    assert "without the end of an event" in response.json()["detail"]
    assert await turns(client, session["id"]) == []
