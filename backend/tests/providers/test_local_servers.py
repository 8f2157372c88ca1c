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

from smriti.core.config import Settings
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
