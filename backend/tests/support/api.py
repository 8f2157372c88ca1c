"""Small helpers that drive the API the way a client would."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import httpx

from smriti.checkpoints.hashing import CONTENT_FIELDS, compute_commit_hash


def _ok(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    body: dict[str, Any] = response.json()
    return body


async def create_space(client: Any, name: str = "Space", **fields: Any) -> dict[str, Any]:
    return _ok(await client.post("/v4/repos", json={"name": name, **fields}), 201)


async def create_session(client: Any, repo_id: str, **fields: Any) -> dict[str, Any]:
    return _ok(await client.post(f"/v4/repos/{repo_id}/sessions", json=fields), 201)


async def send(client: Any, session_id: str, content: str, **fields: Any) -> dict[str, Any]:
    return _ok(await client.post("/v4/chat/send", json={"session_id": session_id, "content": content, **fields}), 201)


async def commit(client: Any, repo_id: str, message: str = "Checkpoint", **fields: Any) -> dict[str, Any]:
    return _ok(await client.post("/v4/chat/commit", json={"repo_id": repo_id, "message": message, **fields}), 201)


async def turns(client: Any, session_id: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = _ok(await client.get(f"/v4/sessions/{session_id}/turns?limit=1000"), 200)["items"]
    return items


def recomputed_hash(checkpoint: dict[str, Any], parent_hash: str | None) -> str:
    """A Checkpoint's hash recomputed in Python from its JSON form, as a client could."""
    return compute_commit_hash(
        commit_id=uuid.UUID(checkpoint["id"]),
        repo_id=uuid.UUID(checkpoint["repo_id"]),
        parent_hash=parent_hash,
        created_at=datetime.datetime.fromisoformat(checkpoint["created_at"]),
        content={name: checkpoint[name] for name in CONTENT_FIELDS},
    )
