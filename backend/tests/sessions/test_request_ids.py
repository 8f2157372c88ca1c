"""Concurrent retries of one `request_id` call the provider once (sessions/claims.py).

Before, 20 concurrent sends with one key made 20 provider calls (one pair was stored, correctly):
the user paid 20 times. Within a process they now wait for the first; across processes the
database arbitrates through a claim on the key.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.sessions.claims import content_digest
from tests.conftest import OPENAI_TEST_KEY
from tests.support.api import create_session, create_space
from tests.support.fake_providers import FakeProviderServer
from tests.support.live_server import live_server


async def _openai_session(client: httpx.AsyncClient, base: str = "") -> dict[str, Any]:
    space = (await client.post(f"{base}/v4/repos", json={"name": f"s-{uuid.uuid4().hex[:8]}"})).json()
    created = await client.post(f"{base}/v4/repos/{space['id']}/sessions", json={"provider": "openai"})
    body: dict[str, Any] = created.json()
    return body


def _calls(fake: FakeProviderServer) -> int:
    return len(fake.state.bodies("/chat/completions"))


async def test_twenty_concurrent_retries_in_one_process_call_the_provider_once(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    fake_providers.state.delay_seconds = 0.3
    body = {"session_id": session["id"], "content": "once, please", "request_id": "pay-once"}
    responses = await asyncio.gather(*(client.post("/v4/chat/send", json=body) for _ in range(20)))
    assert [r.status_code for r in responses] == [201] * 20, {r.text for r in responses}
    assert (
        len({(r.json()["user_turn"]["sequence_number"], r.json()["assistant_turn"]["content"]) for r in responses}) == 1
    )
    assert _calls(fake_providers) == 1
    assert await db.fetchval("SELECT count(*) FROM turns") == 2
    assert await db.fetchval("SELECT count(*) FROM send_claims") == 0


async def test_retries_waiting_on_a_failed_call_get_its_error_and_a_later_retry_calls_again(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    fake_providers.state.mode = "error500"
    fake_providers.state.delay_seconds = 0.3
    body = {"session_id": session["id"], "content": "hello", "request_id": "fails-first"}
    responses = await asyncio.gather(*(client.post("/v4/chat/send", json=body) for _ in range(10)))
    assert {r.status_code for r in responses} == {502}
    assert _calls(fake_providers) == 1
    assert await db.fetchval("SELECT count(*) FROM send_claims") == 0  # given up after the failure
    fake_providers.state.mode = "ok"
    fake_providers.state.delay_seconds = 0
    assert (await client.post("/v4/chat/send", json=body)).status_code == 201
    assert _calls(fake_providers) == 2
    assert await db.fetchval("SELECT count(*) FROM turns") == 2


async def test_a_claim_for_another_message_is_a_conflict(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    fake_providers.state.delay_seconds = 0.5
    first = {"session_id": session["id"], "content": "one", "request_id": "shared"}
    other = {**first, "content": "two"}
    winner, loser = await asyncio.gather(
        client.post("/v4/chat/send", json=first), _after(0.1, client.post("/v4/chat/send", json=other))
    )
    assert winner.status_code == 201
    assert loser.status_code == 409, loser.text
    assert loser.json()["errors"][0]["field"] == "request_id"
    assert _calls(fake_providers) == 1


async def _after(seconds: float, call: Any) -> Any:
    await asyncio.sleep(seconds)
    return await call


async def test_a_claim_left_by_a_dead_process_expires_and_is_taken_over(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    content = "after the crash"
    # What a process that died mid-call leaves behind: a claim that expires in a second.
    await db.execute(
        "INSERT INTO send_claims (session_id, request_id, content_sha256, expires_at) "
        "VALUES ($1, 'orphan', $2, clock_timestamp() + interval '1 second')",
        uuid.UUID(session["id"]),
        content_digest(content),
    )
    body = {"session_id": session["id"], "content": content, "request_id": "orphan"}
    response = await asyncio.wait_for(client.post("/v4/chat/send", json=body), timeout=10)
    assert response.status_code == 201, response.text
    assert _calls(fake_providers) == 1
    assert await db.fetchval("SELECT count(*) FROM send_claims") == 0


async def test_sends_without_a_request_id_are_not_coalesced(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"], provider="openai")
    body = {"session_id": session["id"], "content": "same words"}
    responses = await asyncio.gather(*(client.post("/v4/chat/send", json=body) for _ in range(4)))
    assert {r.status_code for r in responses} == {201}
    assert _calls(fake_providers) == 4
    assert await db.fetchval("SELECT count(*) FROM turns") == 8


@pytest.mark.slow
async def test_concurrent_retries_across_two_processes_call_the_provider_once(
    database_url: str, db: asyncpg.Connection, fake_providers: FakeProviderServer, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": database_url,
        "OPENAI_API_KEY": OPENAI_TEST_KEY,
        "OPENAI_BASE_URL": fake_providers.openai_base_url,
        "ANTHROPIC_API_KEY": "",
        "SMRITI_OPENAI_MODEL": "gpt-test",
        "SMRITI_PROVIDER_MAX_RETRIES": "0",
    }
    fake_providers.state.delay_seconds = 1.0
    with live_server(env, tmp_path) as first, live_server(env, tmp_path) as second:
        async with httpx.AsyncClient(timeout=60) as http:
            session = await _openai_session(http, first.url)
            body = {"session_id": session["id"], "content": "across processes", "request_id": "two-servers"}
            urls = [first.url, second.url]
            responses = await asyncio.gather(*(http.post(f"{urls[i % 2]}/v4/chat/send", json=body) for i in range(20)))
    assert [r.status_code for r in responses] == [201] * 20, {r.text for r in responses}
    assert len({r.json()["assistant_turn"]["sequence_number"] for r in responses}) == 1
    assert _calls(fake_providers) == 1
    assert await db.fetchval("SELECT count(*) FROM turns") == 2
    assert await db.fetchval("SELECT count(*) FROM send_claims") == 0


async def test_a_claim_won_as_the_pair_is_stored_replays_the_pair(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, database_url: str
) -> None:
    """Another process stores the pair and gives its claim up in one transaction; this send's
    claim statement, waiting on that claim's row, then wins the key, although the pair is
    stored. It must replay the pair, not call the provider again (and leave no claim behind)."""
    session = await _openai_session(client)
    session_id = uuid.UUID(session["id"])
    other = await asyncpg.connect(database_url)
    try:
        await other.execute(
            "INSERT INTO send_claims (session_id, request_id, content_sha256, expires_at) "
            "VALUES ($1, 'raced', $2, clock_timestamp() + interval '1 minute')",
            session_id,
            content_digest("raced"),
        )
        transaction = other.transaction()
        await transaction.start()
        await other.execute("UPDATE sessions SET last_seq = 2 WHERE id = $1", session_id)
        await other.execute(
            "INSERT INTO turns (session_id, sequence_number, role, content, provider, model, request_id) "
            "VALUES ($1, 1, 'user', 'raced', 'openai', 'gpt-test', 'raced'), "
            "($1, 2, 'assistant', 'stored by the other process', 'openai', 'gpt-test', 'raced')",
            session_id,
        )
        await other.execute("DELETE FROM send_claims WHERE session_id = $1", session_id)
        body = {"session_id": session["id"], "content": "raced", "request_id": "raced"}
        sending = asyncio.create_task(client.post("/v4/chat/send", json=body))
        await asyncio.sleep(0.5)  # its claim now waits on the row the other transaction deletes
        await transaction.commit()
        response = await asyncio.wait_for(sending, timeout=10)
    finally:
        await other.close()
    assert response.status_code == 201, response.text
    assert response.json()["assistant_turn"]["content"] == "stored by the other process"
    assert _calls(fake_providers) == 0
    assert await db.fetchval("SELECT count(*) FROM send_claims") == 0
    assert await db.fetchval("SELECT count(*) FROM turns") == 2


async def test_a_claim_for_another_message_in_another_process_is_a_conflict(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    await db.execute(
        "INSERT INTO send_claims (session_id, request_id, content_sha256, expires_at) "
        "VALUES ($1, 'theirs', $2, clock_timestamp() + interval '1 minute')",
        uuid.UUID(session["id"]),
        content_digest("their message"),
    )
    body = {"session_id": session["id"], "content": "my message", "request_id": "theirs"}
    response = await asyncio.wait_for(client.post("/v4/chat/send", json=body), timeout=10)
    assert response.status_code == 409, response.text
    assert response.json()["errors"][0]["field"] == "request_id"
    assert _calls(fake_providers) == 0


async def test_a_retry_does_not_inherit_another_requests_refusal(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    session = await _openai_session(client)
    fake_providers.state.delay_seconds = 0.2
    valid = {"session_id": session["id"], "content": "hello", "request_id": "mixed"}
    # The same key and message, but mounted on a Checkpoint that does not exist: that one is a 404.
    wrong = {**valid, "checkpoint_id": str(uuid.uuid4()), "history_base_seq": 0}
    refused, sent = await asyncio.gather(
        client.post("/v4/chat/send", json=wrong), client.post("/v4/chat/send", json=valid)
    )
    assert refused.status_code == 404, refused.text
    assert sent.status_code == 201, sent.text
    assert _calls(fake_providers) == 1
    # With the pair stored: another message under the key is a 409, the same message its replay.
    other, again = await asyncio.gather(
        client.post("/v4/chat/send", json={**valid, "content": "other"}), client.post("/v4/chat/send", json=valid)
    )
    assert other.status_code == 409
    assert again.status_code == 201
    assert again.json()["assistant_turn"] == sent.json()["assistant_turn"]
