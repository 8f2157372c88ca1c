"""Forking a Session: one statement on the lean path, whatever the origin's length.

A fork is a new Session of the origin's Space whose base is a Checkpoint of that Space, and
which remembers the origin and its last Turn. Only the origin's row and the Checkpoint's are
read; no Turn is read or copied.
"""

from __future__ import annotations

from uuid import UUID

import asyncpg

from smriti.access.authors import author
from smriti.access.caller import Agent
from smriti.access.scope import limited
from smriti.core.errors import BadRequest, NotFound
from smriti.core.ids import uuid7
from smriti.core.schemas import Usage
from smriti.db.pool import Pool
from smriti.events.record import actor_columns
from smriti.sessions.schemas import ForkedFrom, ForkRequest, Session

# The default title names the base: "<origin's title, or Session> (fork from <hash>)". The new
# Session's `session.created` event is written by the same statement (SYSTEM.md §14), $5 and $6
# its actor (`events/record.actor_columns`).
_FORK_SQL = """
WITH origin AS (SELECT id, repo_id, title, provider, model, last_seq FROM sessions WHERE id = $1),
base AS (SELECT id, repo_id, commit_hash FROM commits WHERE id = $2),
made AS (
    INSERT INTO sessions (id, repo_id, title, provider, model, last_seq, base_commit_id, forked_from_session_id,
                          forked_from_seq, created_at, updated_at, created_by)
    SELECT $3, origin.repo_id,
           coalesce($4, coalesce(nullif(btrim(origin.title, E' \\t\\n\\r'), ''), 'Session')
                        || ' (fork from ' || left(base.commit_hash, 7) || ')'),
           origin.provider, origin.model, 0, base.id, origin.id, origin.last_seq, clock_timestamp(), clock_timestamp(),
           $5
    FROM origin JOIN base ON base.repo_id = origin.repo_id
    RETURNING id, repo_id, title, provider, model, base_commit_id, forked_from_session_id, forked_from_seq,
              created_at, updated_at
),
event AS (
    INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data)
    SELECT repo_id, 'session.created', $5, $6,
           jsonb_build_object('session_id', id, 'base_commit_id', base_commit_id, 'forked_from', forked_from_session_id)
    FROM made
)
SELECT EXISTS (SELECT 1 FROM origin) AS origin_found, EXISTS (SELECT 1 FROM base) AS base_found,
       (SELECT commit_hash FROM base) AS base_commit_hash, made.*
FROM (SELECT 1) AS one LEFT JOIN made ON true
"""


class SessionForks:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def fork(self, session_id: UUID, data: ForkRequest, *, agent: Agent | None) -> Session:
        title = data.title.strip() if data.title is not None else None
        try:
            row = await self._pool.fetchrow(
                _FORK_SQL, session_id, data.checkpoint_id, uuid7(), title, *actor_columns(agent)
            )
        except asyncpg.ForeignKeyViolationError:  # the Space was deleted meanwhile
            raise NotFound(f"No Session with id {session_id}.", field="session_id", source="path") from None
        if row is None or not row["origin_found"]:
            raise NotFound(f"No Session with id {session_id}.", field="session_id", source="path")
        # A 400 either way: the Checkpoint is named in the body, and the Session in the path exists.
        if not row["base_found"] or (row["id"] is None and limited()):  # as absent: access/scope.py
            raise BadRequest(f"checkpoint_id: no Checkpoint with id {data.checkpoint_id}.", field="checkpoint_id")
        if row["id"] is None:
            raise BadRequest("checkpoint_id belongs to another Space than this Session.", field="checkpoint_id")
        return Session(
            id=row["id"],
            repo_id=row["repo_id"],
            title=row["title"],
            provider=row["provider"],
            model=row["model"],
            turn_count=0,
            base_commit_id=row["base_commit_id"],
            base_commit_hash=row["base_commit_hash"],
            forked_from=ForkedFrom(
                session_id=row["forked_from_session_id"], sequence_number=row["forked_from_seq"], deleted=False
            ),
            last_saved=None,
            continued_in=[],
            continued_count=0,
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            usage=Usage(input_tokens=0, output_tokens=0, uncounted_replies=0),
            created_by=None if agent is None else author(agent.id, agent.name),
        )
