"""POST /v5/repos/{repo_id}/import/conversations: a ChatGPT or Claude data export as Sessions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import create_space, turns

FIXTURES = Path(__file__).parent / "fixtures"


async def import_file(client: httpx.AsyncClient, repo_id: str, body: bytes) -> httpx.Response:
    return await client.post(
        f"/v5/repos/{repo_id}/import/conversations", content=body, headers={"Content-Type": "application/json"}
    )


async def said(client: httpx.AsyncClient, session_id: str) -> list[tuple[str, str]]:
    return [(turn["role"], turn["content"]) for turn in await turns(client, session_id)]


async def test_a_chatgpt_export_follows_each_conversation_to_its_current_node(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "From ChatGPT")
    response = await import_file(client, space["id"], (FIXTURES / "chatgpt_conversations.json").read_bytes())

    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/v4/repos/{space['id']}/sessions"
    result = response.json()
    assert result["format"] == "chatgpt"
    assert [(s["title"], s["turns"]) for s in result["sessions"]] == [
        ("Lisbon trip", 6),
        ("Storage migration", 3),
        ("A loop in the links", 2),
        ("Untitled conversation 6", 2),
    ]
    trip, storage, looped, untitled = (s["session_id"] for s in result["sessions"])
    # The branch the person last saw: the regenerated answer, the edited message, no system or
    # tool message, the image left out and the text beside it kept, a code block's text.
    assert await said(client, trip) == [
        ("user", "Plan three days in Lisbon for May."),
        ("assistant", "Day 1: Alfama. Day 2: Belém. Day 3: Sintra."),
        ("user", "Here is the tram map. Which line reaches the castle?"),
        ("assistant", "Tram 28 passes below the castle."),
        ("user", "Thanks!"),
        ("assistant", "Enjoy Lisbon."),
    ]
    # No current_node: the last child at each step.
    assert await said(client, storage) == [
        ("user", "Should we move to PostgreSQL 16?"),
        ("assistant", "Yes, for the logical replication improvements."),
        ("user", "And the downtime?"),
    ]
    assert await said(client, looped) == [
        ("user", "Round and round?"),
        ("assistant", "It ends: each node is visited once."),
    ]
    assert len(await said(client, untitled)) == 2
    reasons = {s["title"]: s["reason"] for s in result["skipped"]}
    assert reasons == {
        "Custom instructions only": "conversation 3: no message from the user or the assistant.",
        "Broken node": "conversation 4: mapping['root'].children must be a list of node ids.",
        "Has a NUL": "conversation 7: Message 1 contains a NUL (\\u0000) character.",
    }
    # Each Session keeps its conversation's times, so the list (newest first) is ChatGPT's order.
    listed = (await client.get(f"/v4/repos/{space['id']}/sessions", params={"limit": 200})).json()["items"]
    assert [s["title"] for s in listed] == [s["title"] for s in result["sessions"]]
    assert (listed[0]["created_at"], listed[0]["updated_at"]) == (
        "2024-05-29T16:26:40.123456Z",
        "2024-05-29T17:26:40.654321Z",
    )


async def test_a_claude_export_keeps_its_order_and_text(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "From Claude")
    response = await import_file(client, space["id"], (FIXTURES / "claude_conversations.json").read_bytes())

    assert response.status_code == 201, response.text
    result = response.json()
    assert result["format"] == "claude"
    [kafka] = result["sessions"]
    assert (kafka["title"], kafka["turns"]) == ("Kafka sizing", 4)
    assert await said(client, kafka["session_id"]) == [
        ("user", "How many partitions for 50k msgs/s?"),
        ("assistant", "Start with 24 partitions: 20 for the load, headroom for growth."),
        ("user", "And replication factor?"),
        ("assistant", "Three, with min.insync.replicas=2."),
    ]
    assert result["skipped"] == [
        {"title": "Untitled conversation 2", "reason": "conversation 2: no message from the user or the assistant."},
        {"title": "Wrong shape", "reason": "conversation 3: chat_messages[0].text must be text."},
    ]
    session = (await client.get(f"/v4/sessions/{kafka['session_id']}")).json()
    assert session["usage"]["uncounted_replies"] == 2


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"not json", "not JSON"),
        (b'{"title": "one conversation, not a list"}', "a JSON list of conversations"),
        (b"[]", "No ChatGPT conversation"),
        (b'[{"role": "user", "content": "hi"}]', "No ChatGPT conversation"),
        (b'[{"name": "a", "name": "b", "chat_messages": []}]', "appears twice"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
async def test_a_file_that_is_not_an_export_is_refused_and_nothing_is_stored(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: bytes, words: str
) -> None:
    space = await create_space(client, "Refused")
    response = await import_file(client, space["id"], body)
    assert response.status_code == 400, response.text
    assert words in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_an_unknown_space_is_a_404_and_stores_nothing(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    body = (FIXTURES / "claude_conversations.json").read_bytes()
    response = await import_file(client, "01a24289-0000-7000-8000-000000000000", body)
    assert response.status_code == 404, response.text
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_an_export_past_the_limit_is_a_413(settings: Settings, db: asyncpg.Connection) -> None:
    body = (FIXTURES / "chatgpt_conversations.json").read_bytes()
    async with make_client(settings, max_import_bytes=4096) as client:
        space = await create_space(client, "Too big")
        response = await import_file(client, space["id"], body)
    assert response.status_code == 413, response.text
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_the_v1_paste_of_one_conversation_still_answers_as_before(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    export: list[Any] = json.loads((FIXTURES / "chatgpt_conversations.json").read_text())
    pasted = json.dumps(export[0])
    response = await client.post("/v1/transcripts", json={"transcript": pasted})
    assert response.status_code == 201, response.text
    assert [t["content"] for t in response.json()["turns"]][:2] == [
        "Plan three days in Lisbon for May.",
        "Day 1: Alfama. Day 2: Belém. Day 3: Sintra.",
    ]
