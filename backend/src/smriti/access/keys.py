"""Agent keys: made, listed and revoked by the person; looked up on every request an agent makes.

A key is `smr_` + 256 random bits (base64url). Only its SHA-256 is stored: the key is too long to
guess, so a fast hash loses nothing, and the look-up is by the hash, so the time it takes says
nothing about how much of a guessed key was right.

Each process keeps what it looked up for `FRESH_S`, so an agent's requests cost no query most of
the time (`bench/`: HEAD and a commit with a key against the person's token), and a key revoked
on any process stops working on every process within a second. What was looked up and found
wanting (an unknown or revoked key) is kept the same way, in a bounded cache, so a flood of made-
up keys costs one query each at most once per `FRESH_S`, and never grows the cache past its bound.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from uuid import UUID

import asyncpg

from smriti.access.caller import Agent, Caller
from smriti.access.schemas import AgentCreate, AgentKey, NewAgentKey
from smriti.core.errors import BadRequest, NotFound
from smriti.core.ids import uuid7
from smriti.db.pool import Pool

PREFIX = "smr_"
FRESH_S = 0.5
"""How long a looked-up key is trusted without asking the database again: under a second, so a
revocation reaches every process within one."""
_CACHED_KEYS = 4096

_COLUMNS = "id, name, spaces, write, created_at, last_used_at, revoked_at"
# Touch `last_used_at` only when it is a minute old: a busy agent's requests do not each write.
_LOOK_UP = """
WITH found AS (
    SELECT id, name, spaces, write, last_used_at FROM agents WHERE token_hash = $1 AND revoked_at IS NULL
), touched AS (
    UPDATE agents SET last_used_at = now() FROM found
    WHERE agents.id = found.id AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 minute')
)
SELECT id, name, spaces, write FROM found
"""
_INSERT = f"""
INSERT INTO agents (id, name, token_hash, spaces, write, created_at)
VALUES ($1, $2, $3, $4, $5, now()) RETURNING {_COLUMNS}
"""
_MISSING_SPACES = "SELECT s.id FROM unnest($1::uuid[]) AS s(id) WHERE NOT EXISTS (SELECT 1 FROM repos WHERE id = s.id)"
_LIST = f"SELECT {_COLUMNS}, count(*) OVER () AS total FROM agents ORDER BY created_at DESC, id LIMIT $1 OFFSET $2"
_COUNT = "SELECT count(*) FROM agents"
_SPACE_OF_SESSION = "SELECT repo_id FROM sessions WHERE id = $1"
_REVOKE = "UPDATE agents SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING token_hash"


def token_hash(token: bytes) -> bytes:
    return hashlib.sha256(token).digest()


def new_token() -> str:
    return PREFIX + base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def _key(row: asyncpg.Record) -> AgentKey:
    return AgentKey(
        id=row["id"],
        name=row["name"],
        spaces=None if row["spaces"] is None else list(row["spaces"]),
        write=row["write"],
        created_at=row["created_at"],
        last_used_at=row["last_used_at"],
        revoked_at=row["revoked_at"],
    )


@dataclass(frozen=True, slots=True)
class _Seen:
    caller: Caller | None
    at: float


class AgentKeys:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._seen: OrderedDict[bytes, _Seen] = OrderedDict()

    async def caller_for(self, token: bytes) -> Caller | None:
        """The agent whose key this is, or None for a key that is unknown or revoked."""
        digest = token_hash(token)
        now = time.monotonic()
        seen = self._seen.get(digest)
        if seen is not None and now - seen.at < FRESH_S:
            return seen.caller
        row = await self._pool.fetchrow(_LOOK_UP, digest)
        caller = (
            None
            if row is None
            else Caller(
                Agent(
                    id=row["id"],
                    name=row["name"],
                    spaces=None if row["spaces"] is None else frozenset(row["spaces"]),
                    write=row["write"],
                ),
                self.space_of_session,
            )
        )
        self._seen[digest] = _Seen(caller, now)
        self._seen.move_to_end(digest)
        while len(self._seen) > _CACHED_KEYS:
            self._seen.popitem(last=False)
        return caller

    async def space_of_session(self, session_id: UUID) -> UUID | None:
        """The Space a Session is in, None when there is no such Session: one small query, asked
        only for an agent whose key reaches some Spaces (`access/scope.py`)."""
        space: UUID | None = await self._pool.fetchval(_SPACE_OF_SESSION, session_id)
        return space

    async def create(self, data: AgentCreate) -> NewAgentKey:
        name = data.name.strip()
        if not name:
            raise BadRequest("name must have a character that is not a space.", field="name")
        token = new_token()
        spaces = None if data.spaces is None else list(dict.fromkeys(data.spaces))
        async with self._pool.acquire() as conn, conn.transaction():
            if spaces:
                missing = await conn.fetchval(_MISSING_SPACES + " LIMIT 1", spaces)
                if missing is not None:
                    raise NotFound(f"No Space with id {missing}.", field="spaces")
            row = await conn.fetchrow(_INSERT, uuid7(), name, token_hash(token.encode()), spaces, data.write)
        assert row is not None
        key = _key(row)
        return NewAgentKey(**{f: getattr(key, f) for f in key.__struct_fields__}, token=token)

    async def page(self, *, limit: int, offset: int) -> tuple[list[AgentKey], int]:
        rows = await self._pool.fetch(_LIST, limit, offset)
        total = rows[0]["total"] if rows else await self._pool.fetchval(_COUNT)
        return [_key(row) for row in rows], total

    async def revoke(self, agent_id: UUID) -> None:
        digest = await self._pool.fetchval(_REVOKE, agent_id)
        if digest is None:
            raise NotFound(f"No agent key with id {agent_id}.", field="agent_id", source="path")
        self._seen.pop(bytes(digest), None)  # this process at once; the others within FRESH_S
