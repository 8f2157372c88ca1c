"""Importing the same conversations again (issue 43, section 2): each is known by its own id in
its source, and one the Space already holds is skipped, naming its Session, unless copies are
asked for. Three imports of one file made three copies of every Session."""

from __future__ import annotations

import asyncio
import json
import uuid

import asyncpg
import httpx
import pytest

from tests.support.api import create_space
from tests.support.imports import fixture, import_file
from tests.support.locks import someone_waits_on_a_lock

CLAUDE_TITLES = ["Autovacuum falling behind", "Release notes", "Lisbon viewpoints"]


@pytest.mark.parametrize(
    ("name", "content_type", "sessions"),
    [
        ("claude_export.json", "application/json", 3),
        ("chatgpt_tools.json", "application/json", 1),
        ("open_webui_export.json", "application/json", 2),
        ("claude_code_session.jsonl", "application/x-ndjson", 1),
    ],
)
async def test_an_export_imported_again_is_skipped_naming_its_sessions(
    client: httpx.AsyncClient, db: asyncpg.Connection, name: str, content_type: str, sessions: int
) -> None:
    space = await create_space(client, f"Again {name}")
    first = await import_file(client, space["id"], fixture(name), content_type=content_type)
    assert first.status_code == 201, first.text
    made = first.json()["sessions"]
    assert len(made) == sessions

    again = await import_file(client, space["id"], fixture(name), content_type=content_type)

    assert again.status_code == 201, again.text
    result = again.json()
    assert result["sessions"] == []
    skipped = [s for s in result["skipped"] if s["session_id"] is not None]
    assert [(s["title"], s["session_id"]) for s in skipped] == [(s["title"], s["session_id"]) for s in made]
    assert skipped[0]["reason"].endswith(
        f"is in this Space already, as Session {made[0]['session_id']} (import with copies=true to import it again)."
    )
    assert await db.fetchval("SELECT count(*) FROM sessions") == sessions


async def test_copies_import_them_again_and_the_originals_stay_the_ones_named(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Copies")
    first = (await import_file(client, space["id"], fixture("claude_export.json"))).json()
    copies = await import_file(client, space["id"], fixture("claude_export.json"), copies=True)

    assert copies.status_code == 201, copies.text
    assert [s["title"] for s in copies.json()["sessions"]] == CLAUDE_TITLES
    assert copies.json()["skipped"] == []
    third = (await import_file(client, space["id"], fixture("claude_export.json"), copies=False)).json()
    assert [s["session_id"] for s in third["skipped"]] == [s["session_id"] for s in first["sessions"]]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 6
    # Twice in one file, with copies: both (the record of the conversation is not written twice).
    older = json.loads(fixture("claude_export.json"))[2]
    twice = await import_file(client, space["id"], json.dumps([older, older]).encode(), copies=True)
    assert twice.status_code == 201, twice.text
    assert len(twice.json()["sessions"]) == 2


async def test_a_conversation_whose_session_was_deleted_imports_again(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Deleted")
    first = (await import_file(client, space["id"], fixture("claude_export.json"))).json()
    gone = first["sessions"][1]
    # There is no route that deletes one Session yet (SYSTEM.md §12 plans it): as its cascade would.
    await db.execute("DELETE FROM sessions WHERE id = $1", uuid.UUID(gone["session_id"]))
    assert await db.fetchval("SELECT count(*) FROM imported_conversations") == 2

    again = (await import_file(client, space["id"], fixture("claude_export.json"))).json()

    assert [s["title"] for s in again["sessions"]] == ["Release notes"]
    assert [s["title"] for s in again["skipped"]] == ["Autovacuum falling behind", "Lisbon viewpoints"]


async def test_another_space_imports_the_same_conversations(client: httpx.AsyncClient) -> None:
    one, other = await create_space(client, "One"), await create_space(client, "Other")
    assert len((await import_file(client, one["id"], fixture("claude_export.json"))).json()["sessions"]) == 3
    assert len((await import_file(client, other["id"], fixture("claude_export.json"))).json()["sessions"]) == 3


async def test_a_conversation_twice_in_one_file_is_imported_once(client: httpx.AsyncClient) -> None:
    """Within a batch and across batches (a batch is at most 1,000 conversations)."""
    older = json.loads(fixture("claude_export.json"))[2]
    filler = [
        {"uuid": str(uuid.uuid4()), "name": f"Filler {n}", "chat_messages": [{"sender": "human", "text": "hi"}]}
        for n in range(1200)
    ]
    export = [older, older, *filler, older]
    space = await create_space(client, "Twice")
    response = await import_file(client, space["id"], json.dumps(export).encode())

    assert response.status_code == 201, response.text
    result = response.json()
    assert len(result["sessions"]) == 1201
    first = result["sessions"][0]["session_id"]
    assert [(s["reason"].split(" is in")[0], s["session_id"]) for s in result["skipped"]] == [
        ("conversation 2", first),
        ("conversation 1203", first),
    ]


async def test_a_race_with_another_import_of_the_same_conversation_is_a_409_and_stores_nothing(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """Both look the conversation up before either has stored it: the unique key makes the later
    write fail (it waits for the earlier's transaction), where it made a second Session."""
    space = await create_space(client, "Race")
    older = json.loads(fixture("claude_export.json"))[2]
    other = uuid.uuid4()
    async with db.transaction():  # the other import, not yet committed
        await db.execute(
            "INSERT INTO sessions (id, repo_id, title, created_at, updated_at) "
            "VALUES ($1, $2, 'the other', now(), now())",
            other,
            uuid.UUID(space["id"]),
        )
        await db.execute(
            "INSERT INTO imported_conversations (session_id, repo_id, source, conversation_id) "
            "VALUES ($1, $2, 'claude', $3)",
            other,
            uuid.UUID(space["id"]),
            older["uuid"],
        )
        importing = asyncio.create_task(import_file(client, space["id"], json.dumps([older]).encode()))
        await someone_waits_on_a_lock(db)
    response = await importing

    assert response.status_code == 409, response.text
    assert "Another import into this Space stored" in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 1  # the other's alone


async def test_copies_must_be_a_boolean(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "Flag")
    response = await client.post(
        f"/v5/repos/{space['id']}/import/conversations",
        params={"copies": "sometimes"},
        content=fixture("claude_export.json"),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert response.json()["errors"][0]["field"] == "copies"


async def test_a_claude_code_session_resumed_into_a_new_file_is_not_the_session_it_resumed(
    client: httpx.AsyncClient,
) -> None:
    """A session resumed into a new file may begin with the earlier session's messages under that
    session's id: known by its first `sessionId`, the longer file was skipped as the earlier one."""
    earlier = fixture("claude_code_session.jsonl")
    later = {
        "type": "user",
        "sessionId": "9e8d7c6b-0000-4000-8000-000000000099",
        "timestamp": "2025-09-02T10:00:00.000Z",
        "message": {"role": "user", "content": "The test failed again overnight."},
    }
    resumed = earlier + json.dumps(later).encode() + b"\n"
    space = await create_space(client, "Resumed")
    first = await import_file(client, space["id"], earlier, content_type="application/x-ndjson")
    again = await import_file(client, space["id"], resumed, content_type="application/x-ndjson")

    assert first.status_code == 201, first.text
    assert again.status_code == 201, again.text
    assert again.json()["skipped"] == []
    [session] = again.json()["sessions"]
    assert session["turns"] == 5
