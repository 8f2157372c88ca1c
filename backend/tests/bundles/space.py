"""A Space with one of everything a bundle carries, and what it looks like through the API."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.api import commit, create_session, create_space, send


async def rich_space(client: httpx.AsyncClient, name: str = "Rich") -> str:
    """Checkpoints on two lines and a merge, a mounted Session, a fork, a retry, an empty
    Session and a Checkpoint with every field filled."""
    space = await create_space(client, name, description="for export")
    repo_id = space["id"]
    root = await commit(
        client,
        repo_id,
        "Root",
        summary="the start",
        decisions=["use PostgreSQL"],
        assumptions=["2 cores"],
        tasks=[{"text": "write the importer", "done": True}, {"text": "measure"}],
        open_questions=["how big?"],
        entities=[{"name": "Smriti", "kind": "product"}],
        artifacts=[{"name": "notes.md", "content": "# Notes\nx = 1 ✓", "media_type": "text/markdown"}],
        metadata={"n": 1.5, "nested": {"z": [1, "two", None, True]}, "€": "sorted by UTF-16"},
    )
    line = await client.post(f"/v4/repos/{repo_id}/branches", json={"name": "feature/x"})
    assert line.status_code == 201, line.text
    theirs = await commit(client, repo_id, "On the line", branch="feature/x")
    ours = await commit(client, repo_id, "On main")
    await commit(client, repo_id, "Merge", merge_parent_id=theirs["id"])
    chat = await create_session(client, repo_id, title="Chat")
    await send(client, chat["id"], "hello", request_id="req-1")
    await send(client, chat["id"], "hello", retry_of=1)
    mounted = await create_session(client, repo_id, title="Mounted", base_commit_id=root["id"])
    await send(client, mounted["id"], "from the root")
    fork = await client.post(f"/v5/sessions/{chat['id']}/fork", json={"checkpoint_id": ours["id"]})
    assert fork.status_code == 201, fork.text
    await send(client, fork.json()["id"], "in the fork")
    await create_session(client, repo_id, title="Empty")
    return str(repo_id)


async def _all(client: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    response = await client.get(path, params={"limit": 200})
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def observed(client: httpx.AsyncClient, repo_id: str) -> dict[str, Any]:
    """Everything the API shows of a Space: what an import must give back unchanged."""
    space = (await client.get(f"/v4/repos/{repo_id}")).json()
    sessions = await _all(client, f"/v4/repos/{repo_id}/sessions")
    return {
        "space": space,
        "log": await _all(client, f"/v4/repos/{repo_id}/commits"),
        "lines": await _all(client, f"/v4/repos/{repo_id}/branches"),
        "sessions": sessions,
        "turns": {s["id"]: await _all(client, f"/v4/sessions/{s['id']}/turns") for s in sessions},
        "verify": (await client.get(f"/v4/repos/{repo_id}/verify")).json(),
    }
