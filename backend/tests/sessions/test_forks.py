"""Forked and based Sessions: the isolation of a mount made structural. A Session based on a
Checkpoint gives the model that Checkpoint plus only its own Turns; no Turn is copied."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space, send, turns


async def _fork(client: httpx.AsyncClient, session: str, status: int = 201, **body: Any) -> dict[str, Any]:
    response = await client.post(f"/v5/sessions/{session}/fork", json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def test_a_fork_starts_from_the_checkpoint_and_copies_no_turn(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "plan", decisions=["Use PostgreSQL"])
    origin = await create_session(client, space["id"], title="Origin")
    await send(client, origin["id"], "secret words before the fork")
    fork = await _fork(client, origin["id"], checkpoint_id=saved["id"])
    assert fork["base_commit_id"] == saved["id"]
    assert fork["forked_from"] == {"session_id": origin["id"], "sequence_number": 2, "deleted": False}
    assert fork["title"] == f"Origin (fork from {saved['commit_hash'][:7]})"
    assert (fork["turn_count"], fork["repo_id"]) == (0, space["id"])
    assert await db.fetchval("SELECT count(*) FROM turns WHERE session_id = $1", uuid.UUID(fork["id"])) == 0

    reply = await send(client, fork["id"], "what do we know?")
    # The base is in context without a history_base_seq, and the origin's Turns are not.
    assert "1 decision" in reply["assistant_turn"]["content"]
    assert reply["user_turn"]["checkpoint_id"] == saved["id"]
    assert reply["user_turn"]["history_base_seq"] is None  # a base, not a mount
    preview = (await client.post("/v4/chat/context", json={"session_id": fork["id"]})).json()
    assert (preview["checkpoint_id"], preview["checkpoint_from"]) == (saved["id"], "base")
    assert "Use PostgreSQL" in preview["system"]
    assert all("secret" not in m["content"] for m in preview["messages"])
    assert [m["sequence_number"] for m in preview["messages"]] == [1, 2]
    listed = (await client.get(f"/v4/repos/{space['id']}/sessions")).json()["items"]
    assert {s["id"]: s["base_commit_id"] for s in listed} == {fork["id"]: saved["id"], origin["id"]: None}


async def test_a_mount_on_a_based_session_takes_the_bases_place(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base", decisions=["From the base"])
    other = await commit(client, space["id"], "other", assumptions=["From the mount"])
    session = await create_session(client, space["id"], base_commit_id=base["id"])
    await send(client, session["id"], "first")
    preview = (
        await client.post(
            "/v4/chat/context",
            json={"session_id": session["id"], "checkpoint_id": other["id"], "history_base_seq": 2},
        )
    ).json()
    assert (preview["checkpoint_id"], preview["checkpoint_from"]) == (other["id"], "mount")
    assert "From the mount" in preview["system"]
    assert "From the base" not in preview["system"]
    assert preview["messages"] == []


async def test_a_draft_on_a_based_session_gets_only_its_turns(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base", decisions=["We decided to use Redis"])
    session = await create_session(client, space["id"], base_commit_id=base["id"])
    await send(client, session["id"], "We decided to use PostgreSQL.")
    draft = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert draft.status_code == 200, draft.text
    assert all("Redis" not in decision for decision in draft.json()["decisions"])


async def test_a_base_or_fork_from_elsewhere_is_refused(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    other = await create_space(client, name="Other")
    foreign = await commit(client, other["id"], "elsewhere")
    origin = await create_session(client, space["id"])
    refusals = [
        (await client.post(f"/v4/repos/{space['id']}/sessions", json={"base_commit_id": foreign["id"]}), 400),
        (await client.post(f"/v4/repos/{space['id']}/sessions", json={"base_commit_id": str(uuid.uuid4())}), 400),
        (await client.post(f"/v5/sessions/{origin['id']}/fork", json={"checkpoint_id": foreign["id"]}), 400),
        (await client.post(f"/v5/sessions/{origin['id']}/fork", json={"checkpoint_id": str(uuid.uuid4())}), 400),
    ]
    for response, status in refusals:
        assert response.status_code == status, response.text
        assert response.json()["errors"][0]["field"] in {"base_commit_id", "checkpoint_id"}, response.text
    gone = await client.post(f"/v5/sessions/{uuid.uuid4()}/fork", json={"checkpoint_id": foreign["id"]})
    assert gone.status_code == 404
    no_space = await client.post(f"/v4/repos/{uuid.uuid4()}/sessions", json={"base_commit_id": foreign["id"]})
    assert no_space.status_code == 404
    assert (await client.get(f"/v4/repos/{space['id']}/sessions")).json()["total"] == 1


async def test_forking_a_long_session_reads_no_turn(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "plan")
    origin = await create_session(client, space["id"])
    # 5,000 Turns written directly: a fork must not read or copy them.
    await db.execute(
        "INSERT INTO turns (session_id, sequence_number, role, content) "
        "SELECT $1, n, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END, 'turn ' || n "
        "FROM generate_series(1, 5000) n",
        uuid.UUID(origin["id"]),
    )
    await db.execute("UPDATE sessions SET last_seq = 5000 WHERE id = $1", uuid.UUID(origin["id"]))
    fork = await _fork(client, origin["id"], checkpoint_id=saved["id"], title="Short")
    assert (fork["title"], fork["forked_from"]["sequence_number"]) == ("Short", 5000)
    assert len(await turns(client, fork["id"])) == 0
    assert len(await turns(client, origin["id"])) == 1000  # the page limit: the origin is untouched
