"""What a provider answers is checked in one place before it is stored (providers/guard.py).

Real SDKs against the fake servers, which answer what a broken or hostile upstream could: text
PostgreSQL cannot store, absurd model names and token counts, refusals of structured output,
unknown models. Each case used to give a bare 500, store something other than what was
answered, or call the provider in a way a local server refuses.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import ProviderSettings, Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send, turns
from tests.support.fake_providers import FakeProviderServer

PROVIDERS = ["openai", "anthropic"]
DRAFT = {
    "message": "Plan",
    "summary": "Where we are.",
    "decisions": ["Use PostgreSQL"],
    "assumptions": [],
    "tasks": [],
    "open_questions": [],
    "entities": [],
}


async def _session(client: httpx.AsyncClient, provider: str) -> dict[str, Any]:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    return await create_session(client, space["id"], provider=provider)


async def _stored(db: asyncpg.Connection, session_id: str) -> list[asyncpg.Record]:
    return await db.fetch(
        "SELECT role, content, model, input_tokens, output_tokens FROM turns WHERE session_id = $1 "
        "ORDER BY sequence_number",
        uuid.UUID(session_id),
    )


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"a\\u0000b"', "a\ufffdb"),
        ('"x\\ud800y"', "x\ufffdy"),
        ('"\\udfff tail"', "\ufffd tail"),
        ('"pair \\ud83d\\ude00 kept"', "pair \U0001f600 kept"),
    ],
)
async def test_reply_text_postgresql_cannot_store_is_repaired_and_stored_as_answered(
    client: httpx.AsyncClient,
    fake_providers: FakeProviderServer,
    db: asyncpg.Connection,
    provider: str,
    raw: str,
    expected: str,
) -> None:
    session = await _session(client, provider)
    fake_providers.state.raw_reply = raw
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 201, response.text
    answered = response.json()["assistant_turn"]
    assert answered["content"] == expected
    (_, assistant) = await _stored(db, session["id"])
    assert assistant["content"] == expected
    assert (await turns(client, session["id"]))[1] == answered


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("model", ["m" * 201, "gpt\u0000x", "line\nbreak"])
async def test_a_model_name_that_cannot_be_stored_is_a_502_naming_the_provider(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str, model: str
) -> None:
    session = await _session(client, provider)
    fake_providers.state.reply_fields = {"model": model}
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502, response.text
    assert response.json()["provider"] == provider
    assert "model name" in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("model", [None, "", "   "])
async def test_a_missing_model_name_is_the_model_that_was_asked_for(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str, model: Any
) -> None:
    session = await _session(client, provider)
    fake_providers.state.reply_fields = {"model": model}
    sent = await send(client, session["id"], "hi")
    asked = "gpt-test" if provider == "openai" else "claude-test"
    assert sent["assistant_turn"]["model"] == asked
    assert (await _stored(db, session["id"]))[1]["model"] == asked


@pytest.mark.parametrize(
    ("provider", "usage", "expected"),
    [
        ("openai", {"prompt_tokens": "12", "completion_tokens": 1.5, "total_tokens": 1}, (None, None)),
        ("openai", {"prompt_tokens": -3, "completion_tokens": 2**31, "total_tokens": 1}, (None, None)),
        ("openai", {"prompt_tokens": 12.0, "completion_tokens": 2**31 - 1, "total_tokens": 1}, (12, 2**31 - 1)),
        ("openai", {"prompt_tokens": True, "completion_tokens": None, "total_tokens": 1}, (None, None)),
        # The SDK's stream reads a numeric string as its number (its event models coerce "12").
        ("anthropic", {"input_tokens": "12", "output_tokens": 1.5}, (12, None)),
        ("anthropic", {"input_tokens": -1, "output_tokens": 2**40}, (None, None)),
        ("anthropic", {"input_tokens": 7.0, "output_tokens": 0}, (7, 0)),
    ],
)
async def test_token_counts_are_whole_numbers_or_unknown_and_stored_as_answered(
    client: httpx.AsyncClient,
    fake_providers: FakeProviderServer,
    db: asyncpg.Connection,
    provider: str,
    usage: dict[str, Any],
    expected: tuple[int | None, int | None],
) -> None:
    session = await _session(client, provider)
    fake_providers.state.reply_fields = {"usage": usage}
    body = {"session_id": session["id"], "content": "hi", "request_id": "tokens"}
    first = await client.post("/v4/chat/send", json=body)
    assert first.status_code == 201, first.text
    answered = first.json()["assistant_turn"]
    assert (answered["input_tokens"], answered["output_tokens"]) == expected
    stored = (await _stored(db, session["id"]))[1]
    assert (stored["input_tokens"], stored["output_tokens"]) == expected
    # A retry returns the stored pair: the same as the first answer.
    assert (await client.post("/v4/chat/send", json=body)).json()["assistant_turn"] == answered


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800"])
async def test_drafts_and_reviews_with_unstorable_text_are_never_a_500(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str, escape: str
) -> None:
    session = await _session(client, provider)
    await send(client, session["id"], "We decided to use PostgreSQL.")
    space_id = session["repo_id"]
    checkpoint = await commit(client, space_id, decisions=["Use PostgreSQL", "Do not use PostgreSQL"])
    inner = json.dumps({**DRAFT, "summary": "SUMMARY"}).replace("SUMMARY", f"a{escape}b")
    review = (
        '{"findings": [{"kind": "contradiction", "detail": "DETAIL", "refs": [{"field": "decisions", "index": 0}]}]}'
    )
    for reply in (inner, review.replace("DETAIL", f"x{escape}y")):
        for literal in (False, True):
            # Escapes inside the JSON the model wrote, or the character itself in the reply text.
            if literal:
                fake_providers.state.raw_reply = json.dumps(reply).replace("\\\\u", "\\u")
            else:
                fake_providers.state.raw_reply = None
                fake_providers.state.reply = reply
            drafted = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
            reviewed = await client.post(f"/v5/commits/{checkpoint['id']}/review", json={"provider": provider})
            for response in (drafted, reviewed):
                assert response.status_code in (200, 502), response.text
                if response.status_code == 502:
                    assert response.json()["provider"] == provider
                else:
                    assert "\\u0000" not in response.text
                    assert "\\ud800" not in response.text


async def test_the_offline_provider_refuses_a_model_it_does_not_have(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    created = await client.post(f"/v4/repos/{space['id']}/sessions", json={"provider": "offline", "model": "gpt-9"})
    assert created.status_code == 400
    assert created.json()["errors"][0]["field"] == "model"
    session = await create_session(client, space["id"])
    for path, body in (
        ("/v4/chat/send", {"session_id": session["id"], "content": "hi", "provider": "offline", "model": "gpt-9"}),
        ("/v4/chat/context", {"session_id": session["id"], "model": "gpt-9"}),
    ):
        response = await client.post(path, json=body)
        assert response.status_code == 400, response.text
        assert response.json()["errors"][0]["field"] == "model"
    assert (await client.get(f"/v4/sessions/{session['id']}")).json()["model"] != "gpt-9"
    assert await db.fetchval("SELECT count(*) FROM turns") == 0
    assert (await send(client, session["id"], "hi"))["assistant_turn"]["model"] == "offline-1"


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_model_the_provider_does_not_know_is_a_400_naming_model(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str
) -> None:
    session = await _session(client, provider)
    await send(client, session["id"], "first")
    fake_providers.state.mode = "unknown_model"
    body = {"session_id": session["id"], "content": "hi", "provider": provider, "model": "no-such-model"}
    response = await client.post("/v4/chat/send", json=body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["provider"] == provider
    assert error["errors"][0]["field"] == "model"
    assert "no-such-model" in error["detail"]
    # The Session still remembers the model that last answered, not the one that did not.
    remembered = (await client.get(f"/v4/sessions/{session['id']}")).json()["model"]
    assert remembered == ("gpt-test" if provider == "openai" else "claude-test")
    assert await db.fetchval("SELECT count(*) FROM turns") == 2
    # A 404 that does not mention a model (a wrong base URL path) is the provider's fault, not the model's.
    fake_providers.state.mode = "not_found"
    assert (await client.post("/v4/chat/send", json=body)).status_code == 502


async def test_a_short_placeholder_key_is_not_redacted_from_upstream_errors(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    # OPENAI_API_KEY=x, as local servers are usually given: "upstream exploded" used to come back
    # as "upstream e[redacted]ploded".
    local = ProviderSettings(api_key="x", base_url=fake_providers.openai_base_url, default_model="m", models=("m",))
    async with make_client(settings, openai=local) as client:
        session = await _session(client, "openai")
        fake_providers.state.mode = "error500"
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502
    assert "upstream exploded" in response.json()["detail"]
    assert "[redacted]" not in response.json()["detail"]


async def test_a_timeout_says_how_long_the_client_really_waited(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, provider_timeout_s=0.5, provider_max_retries=2) as client:
        session = await _session(client, "openai")
        fake_providers.state.mode = "hang"
        fake_providers.state.hang_seconds = 3
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 504, response.text
    detail = response.json()["detail"]
    assert "3 attempts of up to 0.5 s each" in detail, detail
    waited = float(detail.split("gave up after ")[1].split(" s")[0])
    assert waited >= 1.5, detail  # three attempts of 0.5 s, not "within 0.5 s"


@pytest.mark.parametrize(("refused", "status"), [(("json_schema",), 400), (("json_schema", "json_object"), 500)])
async def test_structured_output_falls_back_for_servers_that_refuse_json_schema(
    client: httpx.AsyncClient,
    fake_providers: FakeProviderServer,
    db: asyncpg.Connection,
    refused: tuple[str, ...],
    status: int,
) -> None:
    # llama.cpp's server refuses json_schema with 400; llama-cpp-python's with a 500 naming it.
    session = await _session(client, "openai")
    await send(client, session["id"], "We decided to use PostgreSQL.")
    fake_providers.state.refuse_formats = refused
    fake_providers.state.refuse_status = status
    fake_providers.state.reply = json.dumps(DRAFT)
    fake_providers.state.requests.clear()
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == 200, response.text
    assert response.json()["decisions"] == ["Use PostgreSQL"]
    tried = [(b.get("response_format") or {}).get("type") for b in fake_providers.state.bodies("/chat/completions")]
    ways: list[str | None] = ["json_schema", "json_object", None]
    assert [t for t in tried if t not in refused] == [ways[len(refused)]]
    # Without json_schema the schema travels in the prompt.
    last = fake_providers.state.bodies("/chat/completions")[-1]
    assert '"decisions"' in last["messages"][0]["content"]
    # Remembered for this model: the next draft starts with the way that worked.
    fake_providers.state.requests.clear()
    assert (await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})).status_code == 200
    assert len(fake_providers.state.bodies("/chat/completions")) == 1


async def test_a_server_error_that_does_not_name_the_format_is_not_retried_another_way(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _session(client, "openai")
    await send(client, session["id"], "We decided to use PostgreSQL.")
    fake_providers.state.mode = "error500"
    fake_providers.state.requests.clear()
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == 502
    assert len(fake_providers.state.bodies("/chat/completions")) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_error_text_with_a_lone_surrogate_is_answered_not_a_500(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str
) -> None:
    session = await _session(client, provider)
    fake_providers.state.mode = "error_surrogate"
    response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert response.status_code == 502, response.text
    assert response.json()["provider"] == provider
    detail = response.json()["detail"]
    assert "\ud800" not in detail  # the character itself; Anthropic's SDK quotes the body as a repr
    if provider == "openai":
        assert "bad \ufffd input" in detail


async def test_a_provider_that_trickles_its_answer_is_stopped_by_a_deadline_on_the_whole_call(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    # A byte every 0.1 s never trips the SDK's read timeout (0.5 s); the whole call is bounded by
    # timeout x attempts (+ backoff per retry), so a claim on its request_id always outlives it.
    async with make_client(settings, provider_timeout_s=0.5, provider_max_retries=0) as client:
        session = await _session(client, "openai")
        fake_providers.state.mode = "trickle"
        started = time.monotonic()
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
        waited = time.monotonic() - started
    assert response.status_code == 504, response.text
    assert waited < 3, waited
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


async def test_a_session_forgets_a_model_its_provider_does_not_know(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"], provider="openai", model="no-such-model")
    fake_providers.state.mode = "unknown_model"
    refused = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hi"})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "model"
    assert (await client.get(f"/v4/sessions/{session['id']}")).json()["model"] is None
    fake_providers.state.mode = "ok"
    sent = await send(client, session["id"], "hi")
    assert sent["assistant_turn"]["model"] == "gpt-test"


async def test_invisible_only_items_of_a_draft_are_left_out(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _session(client, "openai")
    await send(client, session["id"], "We decided to use PostgreSQL.")
    drafted: dict[str, Any] = {**DRAFT, "message": "\u200b", "decisions": ["\u200b", "Use PostgreSQL", "\ufeff "]}
    drafted["tasks"] = [{"text": "\u2060", "done": False}]
    fake_providers.state.reply = json.dumps(drafted)
    draft = (await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})).json()
    assert draft["decisions"] == ["Use PostgreSQL"]
    assert draft["tasks"] == []
    assert draft["message"].startswith("Checkpoint from Turns")
