"""Writing an event, in the transaction of the change it describes (SYSTEM.md §14).

A change's store calls `record` (asyncpg) or `record_orm` (an advanced-alchemy session) with the
same connection or session that writes the change, so a change that rolls back leaves no event
and a committed one always has its event. The actor is the caller the store was handed: `agent`
None is the person. The event gets its public id later, once committed (`events/sequencer.py`).
"""

from __future__ import annotations

from typing import Any, Final, Literal
from uuid import UUID

import asyncpg
import msgspec
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from smriti.access.caller import Agent

EventType = Literal[
    "space.created",
    "space.updated",
    "space.deleted",
    "space.imported",
    "checkpoint.created",
    "line.created",
    "line.updated",
    "line.deleted",
    "session.created",
    "session.deleted",
    "turns.added",
    "proposal.opened",
    "proposal.updated",
    "proposal.merged",
    "proposal.closed",
]
EVENT_TYPES: Final[tuple[str, ...]] = EventType.__args__  # type: ignore[attr-defined]

PERSON_NAME: Final = "person"
"""The actor name of the person (`actor.kind` "human")."""

EVENT_INSERT_SQL: Final = (
    "INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data) VALUES ($1, $2, $3, $4, $5)"
)


def actor_columns(agent: Agent | None) -> tuple[UUID | None, str]:
    """`actor_agent_id` and `actor_name` for a change made by `agent` (None: the person)."""
    return (None, PERSON_NAME) if agent is None else (agent.id, agent.name)


async def record(
    conn: asyncpg.Connection, repo_id: UUID, type: EventType, data: dict[str, Any], *, agent: Agent | None
) -> None:
    """Writes one event on `conn`, which must be in the change's transaction."""
    await conn.execute(EVENT_INSERT_SQL, repo_id, type, *actor_columns(agent), data)


_ORM_INSERT: Final = text(
    "INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data)"
    " VALUES (:repo_id, :type, :actor_agent_id, :actor_name, CAST(:data AS jsonb))"
)


async def record_orm(
    session: AsyncSession, repo_id: UUID, type: EventType, data: dict[str, Any], *, agent: Agent | None
) -> None:
    """`record` on the request's ORM session, committed (or rolled back) with the change."""
    agent_id, name = actor_columns(agent)
    await session.execute(
        _ORM_INSERT,
        {
            "repo_id": repo_id,
            "type": type,
            "actor_agent_id": agent_id,
            "actor_name": name,
            "data": msgspec.json.encode(data).decode(),
        },
    )
