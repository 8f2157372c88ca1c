"""Sending: validation, provider faults (invariant 3), idempotent resend."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import ProviderSettings, Settings
from tests.conftest import ANTHROPIC_TEST_KEY, OPENAI_TEST_KEY, make_client
from tests.support.api import commit, create_session, create_space, send, turns
from tests.support.fake_providers import FakeProviderServer, Mode
from tests.support.live_server import free_port


async def _session(client: httpx.AsyncClient, **fields: Any) -> dict[str, Any]:
    space = await create_space(client, f"space-{uuid.uuid4().hex[:6]}")
    return await create_session(client, space["id"], **fields)


@pytest.mark.parametrize(
    ("mode", "provider", "status", "words"),
    [
        ("error500", "openai", 502, "HTTP 500"),
        ("error500", "anthropic", 502, "HTTP 500"),
        ("ratelimit", "openai", 429, "rate limiting"),
        ("ratelimit", "anthropic", 429, "rate limiting"),
        ("hang", "openai", 504, "did not answer in time: gave up after 1."),
        ("hang", "anthropic", 504, "did not answer in time: gave up after 1."),
        ("malformed", "openai", 502, "failed"),
        ("malformed", "anthropic", 502, "failed"),
        ("redirect", "openai", 502, "HTTP 307"),
        ("empty", "anthropic", 502, "no message text"),
    ],
)
async def test_provider_failure_stores_nothing_and_resend_stores_one_pair(
    client: httpx.AsyncClient,
    fake_providers: FakeProviderServer,
    db: asyncpg.Connection,
    mode: Mode,
    provider: str,
    status: int,
    words: str,
) -> None:
    session = await _session(client)
    fake_providers.state.mode = mode
    fake_providers.state.hang_seconds = 3
    started = time.monotonic()
    body = {"session_id": session["id"], "content": "hello?", "provider": provider, "request_id": "req-1"}
    response = await client.post("/v4/chat/send", json=body)
    assert response.status_code == status, response.text
    error = response.json()
    assert error["provider"] == provider
    assert provider in error["detail"]
    assert words in error["detail"]
    # A 429 says how long to wait: the provider's own `retry-after: 0`, rounded up to a second.
    assert response.headers.get("retry-after") == ("1" if status == 429 else None)
    assert time.monotonic() - started < 3
    assert await db.fetchval("SELECT count(*) FROM turns") == 0
    assert (await client.get(f"/v4/sessions/{session['id']}")).json()["turn_count"] == 0

    fake_providers.state.mode = "ok"
    first = await client.post("/v4/chat/send", json=body)
    again = await client.post("/v4/chat/send", json=body)
    assert first.status_code == again.status_code == 201
    assert first.json()["user_turn"] == again.json()["user_turn"]
    assert first.json()["assistant_turn"] == again.json()["assistant_turn"]
    assert await db.fetchval("SELECT count(*) FROM turns") == 2


async def test_refused_connection_is_502(settings: Settings, db: asyncpg.Connection) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    async with make_client(settings, openai=ProviderSettings(api_key="k" * 20, base_url=dead)) as client:
        session = await _session(client)
        response = await client.post(
            "/v4/chat/send", json={"session_id": session["id"], "content": "hi", "provider": "openai"}
        )
        assert response.status_code == 502
        assert "could not connect" in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


async def test_request_id_reused_for_another_message_conflicts(client: httpx.AsyncClient) -> None:
    session = await _session(client)
    await send(client, session["id"], "one", request_id="abc")
    response = await client.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "two", "request_id": "abc"}
    )
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "request_id"
    # The same key in another Session is another request.
    other = await _session(client)
    assert (await send(client, other["id"], "two", request_id="abc"))["user_turn"]["sequence_number"] == 1


async def test_concurrent_resends_store_one_pair(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _session(client, provider="openai")
    body = {"session_id": session["id"], "content": "once", "request_id": "same-key"}
    responses = await asyncio.gather(*(client.post("/v4/chat/send", json=body) for _ in range(8)))
    assert {r.status_code for r in responses} == {201}
    assert len({r.json()["user_turn"]["sequence_number"] for r in responses}) == 1
    assert await db.fetchval("SELECT count(*) FROM turns") == 2
    assert (await client.get(f"/v4/sessions/{session['id']}")).json()["turn_count"] == 2


async def test_send_validation(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    session = await _session(client)
    await send(client, session["id"], "one")
    space_id = session["repo_id"]
    checkpoint = await commit(client, space_id, "here")
    other_space = await create_space(client, "elsewhere")
    foreign = await commit(client, other_space["id"], "foreign")
    before = await db.fetchval("SELECT count(*) FROM turns")
    sid = session["id"]
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"session_id": sid, "content": ""}, 400, "content"),
        ({"session_id": sid, "content": "   "}, 400, "content"),
        ({"session_id": sid}, 400, "content"),
        (
            {"session_id": sid, "content": "x", "history_base_seq": -1, "checkpoint_id": checkpoint["id"]},
            400,
            "history_base_seq",
        ),
        (
            {"session_id": sid, "content": "x", "history_base_seq": 3, "checkpoint_id": checkpoint["id"]},
            400,
            "history_base_seq",
        ),
        ({"session_id": sid, "content": "x", "checkpoint_id": checkpoint["id"]}, 400, "history_base_seq"),
        ({"session_id": sid, "content": "x", "history_base_seq": 1}, 400, "history_base_seq"),
        (
            {"session_id": sid, "content": "x", "history_base_seq": 2, "checkpoint_id": foreign["id"]},
            400,
            "checkpoint_id",
        ),
        (
            {"session_id": sid, "content": "x", "history_base_seq": 2, "checkpoint_id": str(uuid.uuid4())},
            404,
            "checkpoint_id",
        ),
        ({"session_id": str(uuid.uuid4()), "content": "x"}, 404, "session_id"),
        ({"session_id": sid, "content": "x", "provider": "gemini"}, 400, "provider"),
        ({"session_id": sid, "content": "x", "request_id": "has space"}, 400, "request_id"),
        ({"session_id": sid, "content": "x", "sequence_number": 9}, 400, "sequence_number"),
        ({"session_id": "nope", "content": "x"}, 400, "session_id"),
    ]
    for body, status, field in cases:
        response = await client.post("/v4/chat/send", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["errors"][0]["field"] == field, (body, response.json())
        context = {k: v for k, v in body.items() if k not in ("content", "request_id", "sequence_number")}
        if field not in ("content", "request_id", "sequence_number"):
            preview = await client.post("/v4/chat/context", json=context)
            assert preview.status_code == status, (context, preview.text)
    assert await db.fetchval("SELECT count(*) FROM turns") == before


async def test_unconfigured_provider_is_400(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, anthropic=ProviderSettings()) as client:
        session = await _session(client)
        response = await client.post(
            "/v4/chat/send", json={"session_id": session["id"], "content": "hi", "provider": "anthropic"}
        )
        assert response.status_code == 400
        assert "ANTHROPIC_API_KEY" in response.json()["detail"]
        providers = (await client.get("/v4/providers")).json()
        anthropic = next(p for p in providers["items"] if p["name"] == "anthropic")
        assert anthropic["configured"] is False
        assert "ANTHROPIC_API_KEY" in anthropic["unavailable_reason"]


async def test_session_remembers_the_last_provider_and_model(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    session = await _session(client)
    await send(client, session["id"], "one", provider="anthropic", model="claude-custom")
    second = await send(client, session["id"], "two")
    assert second["assistant_turn"]["provider"] == "anthropic"
    assert fake_providers.state.bodies("/v1/messages")[-1]["model"] == "claude-custom"
    fetched = (await client.get(f"/v4/sessions/{session['id']}")).json()
    assert (fetched["provider"], fetched["model"]) == ("anthropic", "claude-custom")
    third = await send(client, session["id"], "three", provider="openai")
    assert third["assistant_turn"]["model"] == "gpt-test"
    all_turns = await turns(client, session["id"])
    assert [t["provider"] for t in all_turns] == ["anthropic"] * 4 + ["openai"] * 2


async def test_turns_paging(client: httpx.AsyncClient) -> None:
    session = await _session(client)
    for index in range(3):
        await send(client, session["id"], f"m{index}")
    page = (await client.get(f"/v4/sessions/{session['id']}/turns?after_seq=2&limit=2")).json()
    assert [t["sequence_number"] for t in page["items"]] == [3, 4]
    assert page["total"] == 4
    assert (await client.get(f"/v4/sessions/{session['id']}/turns?limit=1001")).status_code == 400
    assert (await client.get(f"/v4/sessions/{uuid.uuid4()}/turns")).status_code == 404


async def test_providers_listing_reveals_no_secrets(client: httpx.AsyncClient) -> None:
    response = await client.get("/v4/providers")
    assert response.status_code == 200
    body = response.json()
    assert body["default_provider"] == "offline"
    assert {p["name"] for p in body["items"]} == {"openai", "anthropic", "offline"}
    assert OPENAI_TEST_KEY not in response.text
    assert ANTHROPIC_TEST_KEY not in response.text
    assert "127.0.0.1" not in response.text


async def test_the_answered_turns_are_exactly_the_stored_ones(client: httpx.AsyncClient) -> None:
    """A send answers with the Turns it stored, built from what it wrote rather than read back:
    every field must match what the Session's Turn list returns, mounted or not."""
    session = await _session(client)
    await send(client, session["id"], "first")
    checkpoint = await commit(client, session["repo_id"], message="mounted")
    awkward = '  naïve ☃ "quoted" \\ tab\there\r\nnew line 😀  '
    answers = [
        await send(client, session["id"], awkward, checkpoint_id=checkpoint["id"], history_base_seq=2,
                   request_id="exact-1", provider="anthropic", model="claude-custom"),
        await send(client, session["id"], "plain", provider="openai"),
    ]  # fmt: skip
    stored = {t["sequence_number"]: t for t in await turns(client, session["id"])}
    for answer in answers:
        for turn in (answer["user_turn"], answer["assistant_turn"]):
            assert turn == stored[turn["sequence_number"]]
    mounted_user = answers[0]["user_turn"]
    assert (mounted_user["content"], mounted_user["checkpoint_id"], mounted_user["history_base_seq"]) == (
        awkward,
        checkpoint["id"],
        2,
    )
    assert answers[0]["assistant_turn"]["input_tokens"] is not None
