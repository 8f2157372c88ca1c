"""What the events table holds, as a test compares it: each event's type, actor and data, in the
order written (numbering is the sequencer's, tested on its own)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import asyncpg


@dataclass(frozen=True)
class Recorded:
    type: str
    repo_id: str
    actor_agent_id: str | None
    actor_name: str
    data: dict[str, Any]


async def recorded(db: asyncpg.Connection, *types: str) -> list[Recorded]:
    """The events written so far, oldest first; only those of `types` when given."""
    rows = await db.fetch(
        "SELECT type, repo_id, actor_agent_id, actor_name, data::text AS data FROM events "
        "WHERE cardinality($1::text[]) = 0 OR type = ANY($1::text[]) ORDER BY seq",
        list(types),
    )
    return [
        Recorded(
            row["type"],
            str(row["repo_id"]),
            None if row["actor_agent_id"] is None else str(row["actor_agent_id"]),
            row["actor_name"],
            json.loads(row["data"]),
        )
        for row in rows
    ]


def by_person(type: str, repo_id: str, **data: Any) -> Recorded:
    return Recorded(type, repo_id, None, "person", data)


def by_agent(agent: dict[str, Any], type: str, repo_id: str, **data: Any) -> Recorded:
    return Recorded(type, repo_id, agent["id"], agent["name"], data)
