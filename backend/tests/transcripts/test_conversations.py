"""POST /v5/repos/{repo_id}/import/conversations: a ChatGPT or Claude data export as Sessions."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import create_space
from tests.support.imports import FIXTURES, chatgpt_conversation, import_file, left_out, said
from tests.support.memory import peak_allocated


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
    # The edited and regenerated messages off the branch, and the tram map.
    assert result["sessions"][0]["left_out"] == left_out(branches=3, images=1)
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
        {
            "title": "Untitled conversation 2",
            "reason": "conversation 2: no message from the user or the assistant.",
            "session_id": None,
        },
        {"title": "Wrong shape", "reason": "conversation 3: chat_messages[0].text must be text.", "session_id": None},
    ]
    # The tool call beside the reply and the attached document are counted.
    assert kafka["left_out"] == left_out(tool_calls=1, attachments=1)
    session = (await client.get(f"/v4/sessions/{kafka['session_id']}")).json()
    assert session["usage"]["uncounted_replies"] == 2


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            b"not json",
            "a JSON list of conversations), or a Claude Code session (.jsonl, one JSON object a line): "
            "the file begins with 'not json', not '['",
        ),
        (b'{"title": "one conversation, not a list"}', "a JSON list of conversations"),
        (b"[]", "this list holds no conversation"),
        (b'[{"role": "user", "content": "hi"}]', "Item 1 of the list is neither a ChatGPT conversation"),
        (b'[{"chat_messages": []}, 5]', "Item 2 of the list is neither a ChatGPT conversation"),
        (b'[{"name": "a", "name": "b", "chat_messages": []}]', "appears twice in one object (item 1 of the list)"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        # Each conversation is found in the file and decoded on its own: the framing between them
        # is checked too, and a bad one names its place.
        (b'[{"chat_messages": []}, {"name": "\xff", "chat_messages": []}]', "item 2 of the list: Invalid UTF-8"),
        (b'[{"chat_messages": []}, {"chat_messages": [}]', "item 2 of the list: JSON is malformed"),
        (b'[{"chat_messages": []} {"chat_messages": []}]', "expected ',' or ']' after item 1"),
        (b'[{"chat_messages": []},]', "item 2 is missing"),
        (b'[{"chat_messages": []}', "the file ends after item 1: it was cut short"),
        (b'[{"chat_messages": ["', "the file ends inside item 1: it was cut short"),
        (b'[{"chat_messages": []}] []', "something follows the list's closing ']'"),
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


def _claude(number: int, text: str, sender: str = "human") -> dict[str, Any]:
    return {"name": f"Chat {number}", "chat_messages": [{"sender": sender, "text": text}]}


async def test_a_conversation_larger_than_the_limit_is_a_413_naming_it(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """Read one at a time, a conversation is what an import holds at once: SMRITI_MAX_BUNDLE_LINE_BYTES
    bounds it as it bounds a bundle's line, and one over it is refused whole, never read whole."""
    body = json.dumps([_claude(1, "hi"), _claude(2, "x" * 70_000), _claude(3, "hi")]).encode()
    async with make_client(settings, max_bundle_line_bytes=64 * 1024) as client:
        space = await create_space(client, "Too big a conversation")
        response = await import_file(client, space["id"], body)
    assert response.status_code == 413, response.text
    problem = response.json()
    assert problem["detail"].startswith(
        "Conversation 2 of the export is larger than SMRITI_MAX_BUNDLE_LINE_BYTES (65536 bytes)"
    )
    assert problem["limit_bytes"] == 65536
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_a_long_export_keeps_every_conversation_in_order_across_batches(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """2,500 conversations (written and answered 1,000 at a time), every seventh skipped."""
    export = [_claude(n, f"message {n}", sender="human" if n % 7 else "system") for n in range(1, 2501)]
    space = await create_space(client, "Many")
    response = await import_file(client, space["id"], json.dumps(export).encode())

    assert response.status_code == 201, response.text
    result = response.json()
    kept = [n for n in range(1, 2501) if n % 7]
    assert [s["title"] for s in result["sessions"]] == [f"Chat {n}" for n in kept]
    assert [s["title"] for s in result["skipped"]] == [f"Chat {n}" for n in range(7, 2501, 7)]
    assert result["skipped"][0]["reason"] == "conversation 7: no message from the user or the assistant."
    stored = await db.fetch(
        "SELECT s.id, s.title, t.content FROM sessions s JOIN turns t ON t.session_id = s.id ORDER BY s.created_at"
    )
    assert [(str(row["id"]), row["title"]) for row in stored] == [
        (s["session_id"], s["title"]) for s in result["sessions"]
    ]
    assert [row["content"] for row in stored] == [f"message {n}" for n in kept]


async def test_an_import_holds_a_few_conversations_not_the_file(client: httpx.AsyncClient) -> None:
    """~16 MB of ChatGPT conversations of ~30 KB each: decoded whole, the file took many times its
    size (2.4 GB of resident memory for 99 MB); now what one batch of conversations takes."""
    body = json.dumps([chatgpt_conversation(n, messages=40, words=20) for n in range(500)]).encode()
    assert len(body) > 16_000_000
    space = await create_space(client, "Big export")

    with peak_allocated() as peak:
        response = await import_file(client, space["id"], body)

    assert response.status_code == 201, response.text
    assert len(response.json()["sessions"]) == 500
    # A piece of the file (1 MiB, twice while it is carried over), a batch (1 MiB of it) as read
    # and as sent, a conversation decoded: a few MB, against 139 MB before (tracemalloc's count).
    assert peak.bytes < 8 * 2**20, (peak.bytes, len(body))
