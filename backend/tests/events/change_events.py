"""Reading the events a change wrote, straight from the table (the write side's tests).

A test takes a `mark` before the change it looks at and reads the events written after it, so
the events of its setup (a Space made, a line started) are not counted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import asyncpg


@dataclass(frozen=True, slots=True)
class Written:
    repo_id: str
    type: str
    actor_agent_id: str | None
    actor_name: str
    data: dict[str, Any]


async def mark(db: asyncpg.Connection) -> int:
    """The last event written so far (its `seq`)."""
    seq: int = await db.fetchval("SELECT coalesce(max(seq), 0) FROM events")
    return seq


async def events_since(db: asyncpg.Connection, after: int, type: str | None = None) -> list[Written]:
    """The events written after `mark` returned `after`, in the order they were written (of one
    `type`, when given)."""
    rows = await db.fetch(
        "SELECT repo_id, type, actor_agent_id, actor_name, data FROM events "
        "WHERE seq > $1 AND ($2::text IS NULL OR type = $2) ORDER BY seq",
        after,
        type,
    )
    return [
        Written(
            repo_id=str(row["repo_id"]),
            type=row["type"],
            actor_agent_id=None if row["actor_agent_id"] is None else str(row["actor_agent_id"]),
            actor_name=row["actor_name"],
            data=json.loads(row["data"]),
        )
        for row in rows
    ]


def created(checkpoint: dict[str, Any], branch: str | None) -> dict[str, Any]:
    """The `data` of the `checkpoint.created` event of `checkpoint` (as the API answered it)."""
    return {
        "commit_id": checkpoint["id"],
        "commit_hash": checkpoint["commit_hash"],
        "branch": branch,
        "parent_commit_id": checkpoint["parent_commit_id"],
        "merge_parent_id": checkpoint["merge_parent_id"],
        "message": checkpoint["message"],
    }
