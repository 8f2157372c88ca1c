"""Deleting a Session, and finding one by its title (SYSTEM.md §12).

`DELETE /v4/sessions/{id}` removes the Session and its Turns and touches no Checkpoint; the
Sessions based on it or forked from it keep working, their `forked_from` saying that the origin
is gone. `GET /v4/repos/{id}/sessions?q=` keeps the Sessions whose title holds the text.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space, send


async def test_deleting_a_session_removes_its_turns_and_touches_no_checkpoint(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    origin = await create_session(client, space["id"], title="Origin")
    await send(client, origin["id"], "We decided to use PostgreSQL.")
    source = {"source": {"session_id": origin["id"], "from_seq": 1, "to_seq": 2}}
    saved = await commit(client, space["id"], "plan", decisions=["Use PostgreSQL"], metadata=source)
    fork = (await client.post(f"/v5/sessions/{origin['id']}/fork", json={"checkpoint_id": saved["id"]})).json()
    await send(client, fork["id"], "go on")
    checkpoints_before = await db.fetch("SELECT id, commit_hash, metadata FROM commits ORDER BY id")

    deleted = await client.delete(f"/v4/sessions/{origin['id']}")
    assert deleted.status_code == 204, deleted.text
    assert deleted.content == b""
    assert (await client.get(f"/v4/sessions/{origin['id']}")).status_code == 404
    assert (await client.get(f"/v4/sessions/{origin['id']}/turns")).status_code == 404
    assert await db.fetchval("SELECT count(*) FROM turns WHERE session_id = $1", uuid.UUID(origin["id"])) == 0
    assert await db.fetch("SELECT id, commit_hash, metadata FROM commits ORDER BY id") == checkpoints_before
    assert (await client.get(f"/v4/repos/{space['id']}/verify")).json()["ok"] is True

    # The fork keeps its context and its history, and says where it came from is gone.
    after = (await client.get(f"/v4/sessions/{fork['id']}")).json()
    assert after["forked_from"] == {"session_id": origin["id"], "sequence_number": 2, "deleted": True}
    reply = await send(client, fork["id"], "and now?")
    assert reply["user_turn"]["checkpoint_id"] == saved["id"]
    listed = (await client.get(f"/v4/repos/{space['id']}/sessions")).json()
    assert [s["id"] for s in listed["items"]] == [fork["id"]]
    # Deleted twice, or never there: 404; not an id: 400 naming it.
    assert (await client.delete(f"/v4/sessions/{origin['id']}")).status_code == 404
    missing = await client.delete(f"/v4/sessions/{uuid.uuid4()}")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    bad = await client.delete("/v4/sessions/not-an-id")
    assert bad.status_code == 400
    assert "session_id" in bad.text


async def test_a_message_answered_while_its_session_is_deleted_is_not_stored(
    client: httpx.AsyncClient, db: asyncpg.Connection, fake_providers: Any
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"], provider="openai", model="gpt-test")
    fake_providers.state.delay_seconds = 0.5
    sending = asyncio.create_task(client.post("/v4/chat/send", json={"session_id": session["id"], "content": "hello"}))
    await asyncio.sleep(0.2)
    assert (await client.delete(f"/v4/sessions/{session['id']}")).status_code == 204
    answered = await sending
    assert answered.status_code == 404, answered.text
    assert "deleted" in answered.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


async def _titles(client: httpx.AsyncClient, space_id: str, **params: Any) -> list[str]:
    response = await client.get(f"/v4/repos/{space_id}/sessions", params=params)
    assert response.status_code == 200, response.text
    return [s["title"] for s in response.json()["items"]]


async def test_sessions_are_found_by_a_part_of_their_title_ignoring_case(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    for title in ("Lisbon itinerary", "lisbon budget", "Porto", "100% done", "a_b", "CAFÉ notes"):
        await create_session(client, space["id"], title=title)
    other = await create_space(client, name="Other")
    await create_session(client, other["id"], title="Lisbon elsewhere")

    assert await _titles(client, space["id"], q="LISBON") == ["lisbon budget", "Lisbon itinerary"]
    assert await _titles(client, space["id"], q="  itinerary ") == ["Lisbon itinerary"]
    # What a person types is text: `%` and `_` are characters, not patterns.
    assert await _titles(client, space["id"], q="%") == ["100% done"]
    assert await _titles(client, space["id"], q="_") == ["a_b"]
    assert await _titles(client, space["id"], q="café") == ["CAFÉ notes"]
    assert len(await _titles(client, space["id"], q="   ")) == 6  # blank: every Session
    page = (await client.get(f"/v4/repos/{space['id']}/sessions", params={"q": "o", "limit": 1})).json()
    assert (page["total"], len(page["items"])) == (5, 1)


async def test_a_bad_title_filter_is_a_400_naming_q(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    for q in ("x" * 201, "a\u0000b"):
        refused = await client.get(f"/v4/repos/{space['id']}/sessions", params={"q": q})
        assert refused.status_code == 400, refused.text
        assert refused.json()["errors"][0]["field"] == "q"
    bad_origin = await client.get(f"/v4/repos/{space['id']}/sessions", params={"forked_from": "nope"})
    assert bad_origin.status_code == 400
    assert "forked_from" in bad_origin.text
