"""Authorship the server vouches for (SYSTEM.md §13): a Checkpoint made with an agent key says so
in `metadata.author`, whatever the agent claimed, on every path that writes one; the person's
Checkpoints are written as sent; the hash chain still verifies."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from tests.access.agents import agent_headers
from tests.support.api import commit, create_space
from tests.support.imports import FIXTURES

FORGED = {"kind": "human", "name": "the person"}


def _vouched(checkpoint: dict[str, Any], agent: dict[str, Any], claimed: object) -> None:
    metadata = checkpoint["metadata"]
    assert metadata["author"] == {"kind": "agent", "id": agent["id"], "name": agent["name"]}
    if claimed is None:
        assert "claimed_author" not in metadata
    else:
        assert metadata["claimed_author"] == claimed


async def _verified(client: httpx.AsyncClient, repo_id: str) -> None:
    report = (await client.get(f"/v4/repos/{repo_id}/verify")).json()
    assert report["ok"], report


async def test_an_agents_commit_is_vouched_for_and_its_claim_kept_aside(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "authored")
    agent, headers = await agent_headers(client, "writer")
    response = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "m", "metadata": {"author": FORGED, "tool": "x"}},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    saved = response.json()
    _vouched(saved, agent, FORGED)
    assert saved["metadata"]["tool"] == "x"
    # What was stored is what was answered, and hashed: read back, and verify.
    stored = (await client.get(f"/v4/commits/{saved['id']}")).json()
    assert stored["metadata"] == saved["metadata"]
    await _verified(client, space["id"])


@pytest.mark.parametrize("claimed", [FORGED, None])
async def test_an_agent_cannot_write_claimed_author_itself(
    client: httpx.AsyncClient, claimed: dict[str, Any] | None
) -> None:
    space = await create_space(client, "forged claim")
    agent, headers = await agent_headers(client)
    metadata: dict[str, Any] = {"claimed_author": {"kind": "agent", "name": "someone else"}}
    if claimed is not None:
        metadata["author"] = claimed
    response = await client.post(
        "/v4/chat/commit", json={"repo_id": space["id"], "message": "m", "metadata": metadata}, headers=headers
    )
    assert response.status_code == 201, response.text
    _vouched(response.json(), agent, claimed)


async def test_the_persons_commit_is_written_as_sent(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "person")
    metadata = {"author": {"kind": "human", "name": "Ada"}, "claimed_author": "anything"}
    saved = await commit(client, space["id"], metadata=metadata)
    assert saved["metadata"] == metadata
    no_author = await commit(client, space["id"], "no author")
    assert no_author["metadata"] == {}


async def test_apply_restore_and_merge_by_an_agent_are_vouched_for(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "every path")
    repo_id = space["id"]
    first = await commit(client, repo_id, "first", summary="one", metadata={"author": {"kind": "human", "name": "Ada"}})
    agent, headers = await agent_headers(client, "carrier")

    applied = await client.post(
        "/v5/checkpoints/apply",
        json={"repo_id": repo_id, "message": "apply", "set": {"summary": "two"}, "metadata": {"author": FORGED}},
        headers=headers,
    )
    assert applied.status_code == 201, applied.text
    _vouched(applied.json(), agent, FORGED)

    # Without a claim of its own, an apply does not inherit the parent's author as a claim.
    plain = await client.post("/v5/checkpoints/apply", json={"repo_id": repo_id, "message": "apply 2"}, headers=headers)
    assert plain.status_code == 201, plain.text
    _vouched(plain.json(), agent, None)

    # A restore copies the older state, whose author the server keeps as the claim.
    restored = await client.post(f"/v5/commits/{first['id']}/restore", json={}, headers=headers)
    assert restored.status_code == 201, restored.text
    _vouched(restored.json(), agent, {"kind": "human", "name": "Ada"})
    assert restored.json()["metadata"]["restored_from"]["commit_id"] == first["id"]

    # A merge: a side line's HEAD merged into the default line.
    line = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "side", "from_ref": first["id"]})
    assert line.status_code == 201, line.text
    side = await commit(client, repo_id, "side", branch="side")
    merged = await client.post(
        "/v4/chat/commit",
        json={"repo_id": repo_id, "message": "merge", "merge_parent_id": side["id"], "metadata": {"author": FORGED}},
        headers=headers,
    )
    assert merged.status_code == 201, merged.text
    assert merged.json()["merge_parent_id"] == side["id"]
    _vouched(merged.json(), agent, FORGED)

    await _verified(client, repo_id)
    # The person's own apply after the agent's: nothing of the agent's authorship is inherited.
    after = await client.post("/v5/checkpoints/apply", json={"repo_id": repo_id, "message": "mine"})
    assert after.status_code == 201, after.text
    assert "author" not in after.json()["metadata"]
    assert "claimed_author" not in after.json()["metadata"]
    assert await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1::uuid", repo_id) == 7


async def test_an_agents_author_survives_export_and_import(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "bundled")
    agent, headers = await agent_headers(client, "exporter")
    response = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "m", "metadata": {"author": FORGED}},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    bundle = await client.get(f"/v5/repos/{space['id']}/export")
    assert bundle.status_code == 200, bundle.text
    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204
    imported = await client.post(
        "/v5/repos/import", content=bundle.content, headers={"Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    _vouched(head, agent, FORGED)
    await _verified(client, space["id"])


def _made_by(item: dict[str, Any], agent: dict[str, Any] | None, name: str | None = None) -> None:
    if agent is None:
        assert item["created_by"] is None, item
    else:
        assert item["created_by"] == {"kind": "agent", "id": agent["id"], "name": name or agent["name"]}, item


async def test_lines_sessions_and_turns_say_who_made_them(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "created by")
    repo_id = space["id"]
    first = await commit(client, repo_id, "first")
    agent, headers = await agent_headers(client, "maker")

    # Lines: the agent's and the person's, single and listed.
    made = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "agent-line"}, headers=headers)
    assert made.status_code == 201, made.text
    _made_by(made.json(), agent)
    mine = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "my-line"})
    _made_by(mine.json(), None)
    _made_by((await client.get(f"/v4/repos/{repo_id}/branches/agent-line")).json(), agent)
    listed = {line["name"]: line for line in (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"]}
    _made_by(listed["agent-line"], agent)
    _made_by(listed["my-line"], None)
    default = next(line for line in listed.values() if line["is_default"])
    _made_by(default, None)
    renamed = await client.patch(f"/v4/repos/{repo_id}/branches/agent-line", json={"name": "agent-2"})
    _made_by(renamed.json(), agent)

    # Sessions: made, forked, read, listed, renamed.
    session = await client.post(f"/v4/repos/{repo_id}/sessions", json={"title": "t"}, headers=headers)
    assert session.status_code == 201, session.text
    _made_by(session.json(), agent)
    session_id = session.json()["id"]
    person_session = (await client.post(f"/v4/repos/{repo_id}/sessions", json={"title": "p"})).json()
    _made_by(person_session, None)
    fork = await client.post(
        f"/v5/sessions/{person_session['id']}/fork", json={"checkpoint_id": first["id"]}, headers=headers
    )
    assert fork.status_code == 201, fork.text
    _made_by(fork.json(), agent)
    _made_by((await client.get(f"/v4/sessions/{session_id}")).json(), agent)
    sessions = {s["id"]: s for s in (await client.get(f"/v4/repos/{repo_id}/sessions")).json()["items"]}
    _made_by(sessions[session_id], agent)
    _made_by(sessions[fork.json()["id"]], agent)
    _made_by(sessions[person_session["id"]], None)
    _made_by((await client.patch(f"/v4/sessions/{session_id}", json={"title": "u"})).json(), agent)

    # Turns: the agent's send in its answer and in the pages; the person's in the same Session.
    sent = await client.post("/v4/chat/send", json={"session_id": session_id, "content": "hello"}, headers=headers)
    assert sent.status_code == 201, sent.text
    _made_by(sent.json()["user_turn"], agent)
    _made_by(sent.json()["assistant_turn"], agent)
    by_person = await client.post("/v4/chat/send", json={"session_id": session_id, "content": "me"})
    assert by_person.status_code == 201, by_person.text
    _made_by(by_person.json()["user_turn"], None)
    page = (await client.get(f"/v4/sessions/{session_id}/turns")).json()["items"]
    assert [turn["sequence_number"] for turn in page] == [1, 2, 3, 4]
    for turn in page[:2]:
        _made_by(turn, agent)
    for turn in page[2:]:
        _made_by(turn, None)

    # The name shown is the agent's current one.
    await db.execute("UPDATE agents SET name = 'renamed' WHERE id = $1::uuid", agent["id"])
    _made_by((await client.get(f"/v4/repos/{repo_id}/branches/agent-2")).json(), agent, "renamed")
    _made_by((await client.get(f"/v4/sessions/{session_id}")).json(), agent, "renamed")
    _made_by((await client.get(f"/v4/sessions/{session_id}/turns")).json()["items"][0], agent, "renamed")
    stored = await db.fetchval(
        "SELECT count(*) FROM turns WHERE session_id = $1::uuid AND created_by = $2::uuid", session_id, agent["id"]
    )
    assert stored == 2


async def test_sessions_and_turns_an_agent_imports_say_so(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "imported by")
    agent, headers = await agent_headers(client, "importer")
    export = (FIXTURES / "chatgpt_conversations.json").read_bytes()
    response = await client.post(
        f"/v5/repos/{space['id']}/import/conversations",
        content=export,
        headers={**headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text
    session_id = response.json()["sessions"][0]["session_id"]
    _made_by((await client.get(f"/v4/sessions/{session_id}")).json(), agent)
    for turn in (await client.get(f"/v4/sessions/{session_id}/turns")).json()["items"]:
        _made_by(turn, agent)
    pasted = await client.post(
        "/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello", "repo_id": space["id"]}, headers=headers
    )
    assert pasted.status_code == 201, pasted.text
    _made_by((await client.get(f"/v4/sessions/{pasted.json()['session_id']}")).json(), agent)
    # The person's import: null.
    mine = await client.post(
        f"/v5/repos/{space['id']}/import/conversations?copies=true",
        content=export,
        headers={"Content-Type": "application/json"},
    )
    assert mine.status_code == 201, mine.text
    _made_by((await client.get(f"/v4/sessions/{mine.json()['sessions'][0]['session_id']}")).json(), None)
