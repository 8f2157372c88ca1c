"""What a user of a local OpenAI-compatible server (llama.cpp, llama-cpp-python, Ollama) met
(issue 44): replies with no limit, a refused structured output retried before the fallback, a
context too long for the model answered as an empty stream.

Real SDKs against the fake servers, each answering as the real servers were seen to
(tests/system/test_local_model.py asks the real one)."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import ConfigError, Settings
from smriti.providers.openai_provider import _limit_field
from tests.conftest import make_client
from tests.support.api import create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer

DRAFT = {
    "message": "Plan",
    "summary": "Where we are.",
    "decisions": ["Use PostgreSQL"],
    "assumptions": [],
    "tasks": [],
    "open_questions": [],
    "entities": [],
}


async def _session(client: httpx.AsyncClient, provider: str = "openai") -> dict[str, Any]:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    return await create_session(client, space["id"], provider=provider)


def _formats(fake: FakeProviderServer) -> list[str | None]:
    return [(body.get("response_format") or {}).get("type") for body in fake.state.bodies("/chat/completions")]


async def test_a_refused_json_schema_falls_back_at_the_first_refusal_not_after_the_sdks_retries(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """llama-cpp-python refuses `json_schema` with a 500 naming `response_format`; the SDK retried
    a 500 twice, with its backoff, before Smriti tried `json_object`."""
    async with make_client(settings, provider_max_retries=2) as client:
        session = await _session(client)
        await send(client, session["id"], "We decided to use PostgreSQL.")
        fake_providers.state.refuse_formats = ("json_schema",)
        fake_providers.state.refuse_status = 500
        fake_providers.state.reply = json.dumps(DRAFT)
        fake_providers.state.requests.clear()
        started = time.monotonic()
        response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
        took = time.monotonic() - started
        assert response.status_code == 200, response.text
        assert _formats(fake_providers) == ["json_schema", "json_object"]
        assert took < 1.5, took  # the SDK's backoff alone was 0.5 s + 1 s
        # Remembered for this model: the next draft asks once, the way that worked.
        fake_providers.state.requests.clear()
        assert (await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})).status_code == 200
        assert _formats(fake_providers) == ["json_object"]


async def test_a_server_error_that_does_not_name_the_format_is_still_retried_by_the_sdk(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, provider_max_retries=1) as client:
        session = await _session(client)
        fake_providers.state.mode = "error500"
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502, response.text
    assert len(fake_providers.state.bodies("/chat/completions")) == 2


def _last(fake: FakeProviderServer, provider: str) -> dict[str, Any]:
    return fake.state.bodies("/chat/completions" if provider == "openai" else "/messages")[-1]


async def test_every_reply_from_a_compatible_server_has_a_limit(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """No `max_tokens` was sent, so a small local model wrote until its context was full."""
    session = await _session(client)
    await send(client, session["id"], "We decided to use PostgreSQL.")
    assert _last(fake_providers, "openai")["max_tokens"] == 1024  # the room the window check keeps
    fake_providers.state.reply = json.dumps(DRAFT)
    assert (await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})).status_code == 200
    assert _last(fake_providers, "openai")["max_tokens"] == 1024


async def test_the_limit_is_the_room_kept_in_a_known_window(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    windows = {"gpt-test": 2000, "claude-test": 8000}
    async with make_client(settings, context_windows=windows) as client:
        for provider, room in (("openai", 500), ("anthropic", 2000)):  # a quarter of each window
            session = await _session(client, provider)
            await send(client, session["id"], "hi")
            assert _last(fake_providers, provider)["max_tokens"] == room, provider


async def test_a_configured_limit_is_sent_and_the_window_keeps_room_for_it(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, max_reply_tokens=3000, context_windows={"claude-test": 200_000}) as client:
        for provider in ("openai", "anthropic"):
            session = await _session(client, provider)
            await send(client, session["id"], "hi")
            assert _last(fake_providers, provider)["max_tokens"] == 3000, provider
    # A context that fits with the default room (1,024) but not with the configured one.
    async with make_client(settings, max_reply_tokens=3000, context_windows={"gpt-test": 16_000}) as client:
        session = await _session(client)
        fake_providers.state.requests.clear()
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "word " * 11_000})
        assert response.status_code == 400, response.text
        assert "plus 3,000 for the reply" in response.json()["detail"]
        assert fake_providers.state.bodies("/chat/completions") == []


async def test_anthropic_is_still_asked_for_up_to_4096_tokens(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _session(client, "anthropic")
    await send(client, session["id"], "hi")
    assert _last(fake_providers, "anthropic")["max_tokens"] == 4096


def test_openais_own_api_is_sent_no_limit_unless_one_is_configured() -> None:
    """Its reasoning models spend part of any limit on reasoning, and take the limit only as
    `max_completion_tokens`; every compatible server takes `max_tokens`."""
    assert _limit_field(None, configured=False) is None
    assert _limit_field("https://api.openai.com/v1", configured=False) is None
    assert _limit_field("https://api.openai.com/v1", configured=True) == "max_completion_tokens"
    assert _limit_field("http://127.0.0.1:8080/v1", configured=False) == "max_tokens"
    assert _limit_field("http://localhost:11434/v1", configured=True) == "max_tokens"
    assert Settings.from_env({"SMRITI_MAX_REPLY_TOKENS": "256"}).max_reply_tokens == 256
    assert Settings.from_env({}).max_reply_tokens is None
    with pytest.raises(ConfigError, match="SMRITI_MAX_REPLY_TOKENS"):
        Settings.from_env({"SMRITI_MAX_REPLY_TOKENS": "0"})


async def test_an_empty_stream_names_the_window_and_the_setting_not_a_reply_cut_short(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """llama-cpp-python answers a context longer than its model's window with a 200 and an empty
    stream (seen with the real server: tests/system/test_local_model.py)."""
    session = await _session(client)
    fake_providers.state.cut_after_pieces = 0  # the headers of a stream, then the connection closes
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502, response.text
    detail = response.json()["detail"]
    assert "cut short" not in detail
    assert "empty stream" in detail
    assert "may be longer than gpt-test's window" in detail
    assert "SMRITI_CONTEXT_WINDOWS (gpt-test=<tokens>" in detail
    # Streamed, the error event says the same.
    streamed = await client.post(
        "/v4/chat/send",
        json={"session_id": session["id"], "content": "hi"},
        headers={"Accept": "text/event-stream"},
    )
    events = streamed.text
    assert "event: error" in events
    assert "SMRITI_CONTEXT_WINDOWS" in events


async def test_a_provider_that_says_the_context_is_too_long_is_answered_with_the_setting(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    for provider, said in (("openai", "exceeds the available context size"), ("anthropic", "prompt is too long")):
        session = await _session(client, provider)
        fake_providers.state.mode = "too_long"
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
        assert response.status_code == 502, response.text
        detail = response.json()["detail"]
        assert said in detail
        assert "SMRITI_CONTEXT_WINDOWS" in detail, detail
    # Another refusal gets no such advice.
    fake_providers.state.mode = "error_surrogate"
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert "SMRITI_CONTEXT_WINDOWS" not in response.json()["detail"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_draft_stopped_at_the_reply_limit_says_so_and_names_the_setting(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str
) -> None:
    """With a limit on every reply, a long answer can end there: a chat reply is stored as
    answered, but JSON cut there is no draft, and "not usable" alone did not say why."""
    session = await _session(client, provider)
    fake_providers.state.at_limit = True
    sent = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "We use PostgreSQL."})
    assert sent.status_code == 201, sent.text
    fake_providers.state.reply = json.dumps(DRAFT)[:40]
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == 502, response.text
    detail = response.json()["detail"]
    limit = "1,024" if provider == "openai" else "4,096"
    assert f"stopped at its limit of {limit} tokens" in detail, detail
    assert "SMRITI_MAX_REPLY_TOKENS" in detail
    # A JSON reply that is complete though the provider says it hit the limit is used.
    fake_providers.state.reply = json.dumps(DRAFT)
    assert (await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})).status_code == 200
