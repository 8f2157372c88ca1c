"""Draft with AI (invariant 6): only the Turns in scope reach the provider; nothing is saved."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.api import commit, create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer

GOOD_DRAFT = {
    "message": "Storage plan",
    "summary": "We picked the database.",
    "decisions": ["Use PostgreSQL"],
    "assumptions": ["One region is enough"],
    "tasks": [{"text": "Write the migration", "done": False}],
    "open_questions": ["Do we need read replicas?"],
    "entities": [{"name": "PostgreSQL", "kind": "database", "description": None}],
}


async def _mounted_session(client: httpx.AsyncClient, fake: FakeProviderServer, provider: str) -> dict[str, Any]:
    space = await create_space(client)
    session = await create_session(client, space["id"], provider=provider)
    for index in range(3):
        fake.state.reply = f"EARLY-REPLY-{index}"
        await send(client, session["id"], f"EARLY-QUESTION-{index}")
    checkpoint = await commit(
        client, space["id"], "MOUNTED-MESSAGE", decisions=["MOUNTED-DECISION"], summary="MOUNTED-SUMMARY"
    )
    mount = {"checkpoint_id": checkpoint["id"], "history_base_seq": 6}
    fake.state.reply = "AFTER-REPLY"
    await send(client, session["id"], "AFTER-QUESTION-1", **mount)
    await send(client, session["id"], "AFTER-QUESTION-2", **mount)
    return {"space": space, "session": session, "checkpoint": checkpoint}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_draft_sends_only_turns_after_the_boundary(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str
) -> None:
    setup = await _mounted_session(client, fake_providers, provider)
    fake_providers.state.requests.clear()
    fake_providers.state.reply = json.dumps(GOOD_DRAFT)
    commits_before = await db.fetchval("SELECT count(*) FROM commits")

    response = await client.post(
        "/v5/checkpoints/draft", json={"session_id": setup["session"]["id"], "history_base_seq": 6}
    )
    assert response.status_code == 200, response.text
    draft = response.json()
    assert draft["decisions"] == ["Use PostgreSQL"]
    assert draft["tasks"] == [{"text": "Write the migration", "done": False}]
    assert draft["source"] == {"session_id": setup["session"]["id"], "from_seq": 7, "to_seq": 10}
    assert draft["drafted_by"]["provider"] == provider

    suffix = "/chat/completions" if provider == "openai" else "/v1/messages"
    (body,) = fake_providers.state.bodies(suffix)
    wire = json.dumps(body, ensure_ascii=False)
    assert "AFTER-QUESTION-1" in wire
    assert "AFTER-QUESTION-2" in wire
    assert "[Turn 7 · user]" in wire
    assert "[Turn 10 · assistant]" in wire
    for leaked in ("EARLY-", "MOUNTED-DECISION", "MOUNTED-MESSAGE", "MOUNTED-SUMMARY", "Turn 6 "):
        assert leaked not in wire, leaked
    if provider == "openai":
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["name"] == "checkpoint_draft"
    else:
        assert body["tool_choice"] == {"type": "tool", "name": "checkpoint_draft"}
        assert body["tools"][0]["input_schema"]["required"][0] == "message"
    assert await db.fetchval("SELECT count(*) FROM commits") == commits_before


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (json.dumps(GOOD_DRAFT), 200),
        ("Here is the draft:\n```json\n" + json.dumps(GOOD_DRAFT) + "\n```\nLet me know.", 200),
        (json.dumps({**GOOD_DRAFT, "confidence": 0.9, "notes": ["extra"]}), 200),
        (json.dumps(GOOD_DRAFT)[:-30], 502),
        (json.dumps({**GOOD_DRAFT, "decisions": "Use PostgreSQL"}), 502),
        (json.dumps({**GOOD_DRAFT, "tasks": [{"done": True}]}), 502),
        ("I could not find anything worth saving.", 502),
    ],
)
async def test_draft_parsing(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, reply: str, status: int
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"], provider="openai")
    await send(client, session["id"], "Let's talk storage.")
    fake_providers.state.reply = reply
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == status, response.text
    if status == 200:
        assert response.json()["decisions"] == ["Use PostgreSQL"]
        assert response.json()["source"] == {"session_id": session["id"], "from_seq": 1, "to_seq": 2}
    else:
        error = response.json()
        assert error["provider"] == "openai"
        assert "not a usable Checkpoint" in error["detail"]
    assert await db.fetchval("SELECT count(*) FROM commits") == 0


async def test_draft_bad_input(client: httpx.AsyncClient, fake_providers: FakeProviderServer) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    empty = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert empty.status_code == 400
    assert "Nothing to draft" in empty.json()["detail"]
    await send(client, session["id"], "hello")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"session_id": session["id"], "history_base_seq": 2}, 400, "history_base_seq"),
        ({"session_id": session["id"], "history_base_seq": 3}, 400, "history_base_seq"),
        ({"session_id": session["id"], "history_base_seq": -1}, 400, "history_base_seq"),
        ({"session_id": "00000000-0000-0000-0000-000000000000"}, 404, "session_id"),
        ({"session_id": session["id"], "provider": "nope"}, 400, "provider"),
        ({"session_id": session["id"], "checkpoint_id": session["id"]}, 400, "checkpoint_id"),
    ]
    for body, status, field in cases:
        response = await client.post("/v5/checkpoints/draft", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["errors"][0]["field"] == field, (body, response.json())
    fake_providers.state.mode = "hang"
    fake_providers.state.hang_seconds = 2
    timeout = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"], "provider": "openai"})
    assert timeout.status_code == 504


async def test_offline_draft_extracts_by_rules(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    await send(client, session["id"], "Should we store turns in PostgreSQL or SQLite? We're assuming a single server.")
    await send(client, session["id"], "OK, we decided to use PostgreSQL for storage. I'll write the migration today.")
    await send(client, session["id"], "Open question: do we need read replicas?")
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == 200, response.text
    draft = response.json()
    assert draft["decisions"] == ["Use PostgreSQL for storage"]
    assert draft["assumptions"] == ["A single server"]
    assert draft["tasks"] == [{"text": "Write the migration today", "done": False}]
    assert draft["open_questions"] == ["Do we need read replicas?"]
    assert "PostgreSQL" in [e["name"] for e in draft["entities"]]
    assert draft["drafted_by"]["provider"] == "offline"
    assert draft["source"]["from_seq"] == 1
    assert draft["source"]["to_seq"] == 6
    assert await db.fetchval("SELECT count(*) FROM commits") == 0

    # The saved draft keeps where it came from, in metadata.
    saved = await commit(
        client,
        space["id"],
        draft["message"],
        decisions=draft["decisions"],
        metadata={
            "source": draft["source"],
            "drafted_by": draft["drafted_by"],
            "author": {"kind": "human", "name": "me"},
        },
    )
    assert saved["metadata"]["source"]["to_seq"] == 6
