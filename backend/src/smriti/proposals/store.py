"""The proposals table: the one module that writes it (docs/architecture.md, "Two rules for SQL").

A proposal follows its lines by id, so its rows are read joined with `branches` (the lines' names
and HEADs now) and `agents` (who opened it). Opening one takes its locks in a commit's order
(`checkpoints/line_locks.py`): the Space's row share-locked, the lines' rows (the default line
first, as a change of lines takes them), then the Space's row updated for the next number.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import asyncpg

from smriti.access.caller import Agent
from smriti.access.schemas import Author
from smriti.core.errors import BadRequest, Conflict, NotFound, no_line
from smriti.core.ids import uuid7
from smriti.core.schemas import line_lookup_key
from smriti.db.pool import Pool
from smriti.events.record import actor_columns, record
from smriti.proposals.schemas import Proposal, ProposalCreate, ProposalStatus

_SELECT = """
SELECT p.id, p.repo_id, p.number, p.from_branch_id, p.into_branch_id, p.from_name, p.into_name,
       f.name AS from_line, i.name AS into_line, f.head_commit_id AS from_head, i.head_commit_id AS into_head,
       p.title, p.description, p.status, p.created_by, a.name AS agent_name, p.merge_commit_id,
       p.closed_reason, p.created_at, p.updated_at
FROM proposals p
LEFT JOIN branches f ON f.id = p.from_branch_id
LEFT JOIN branches i ON i.id = p.into_branch_id
LEFT JOIN agents a ON a.id = p.created_by
"""
_ONE = _SELECT + " WHERE p.repo_id = $1 AND p.number = $2"
# Newest first: the number grows with every proposal of a Space.
_PAGE = f"""
WITH page AS (
    SELECT id FROM proposals WHERE repo_id = $1 AND ($2::text IS NULL OR status = $2::text)
    ORDER BY number DESC LIMIT $3 OFFSET $4
)
{_SELECT} JOIN page ON page.id = p.id ORDER BY p.number DESC
"""
_COUNT = """
SELECT (SELECT count(*) FROM proposals WHERE repo_id = r.id AND ($2::text IS NULL OR status = $2::text))::int
FROM repos r WHERE r.id = $1
"""

# An event's `from` and `into` (SYSTEM.md §14): each line's name now, or the name it had when the
# proposal was opened once it is deleted (a listener is told which lines, not that one is gone).
_EVENT_LINES = (
    "jsonb_build_object('number', changed.number, 'from', coalesce(f.name, changed.from_name), "
    "'into', coalesce(i.name, changed.into_name))"
)

_LOCK_SPACE = "SELECT id FROM repos WHERE id = $1 FOR KEY SHARE"
# Both lines in one statement, locked in its order (LockRows sits above the sort): the default
# line first, as every change of a Space's lines takes it; a line deleted or renamed meanwhile
# is simply not found.
_LOCK_LINES = """
SELECT id, name, name_key, is_default, head_commit_id FROM branches
WHERE repo_id = $1 AND (name_key = $2 OR CASE WHEN $3::text IS NULL THEN is_default ELSE name_key = $3::text END)
ORDER BY is_default DESC, id FOR KEY SHARE
"""
_NEXT_NUMBER = "UPDATE repos SET proposal_count = proposal_count + 1 WHERE id = $1 RETURNING proposal_count"
# One open proposal per pair of lines (`uq_proposals_open_pair`): a second is not inserted.
_INSERT = """
INSERT INTO proposals (id, repo_id, number, from_branch_id, into_branch_id, from_name, into_name, title,
                       description, status, created_by, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, now(), now())
ON CONFLICT (from_branch_id, into_branch_id) WHERE status = 'open' DO NOTHING
RETURNING id
"""
_OPEN_PAIR = "SELECT number FROM proposals WHERE from_branch_id = $1 AND into_branch_id = $2 AND status = 'open'"
# The proposal closed and its `proposal.closed` event (actor $4, $5) in one statement.
_CLOSE = f"""
WITH changed AS (
    UPDATE proposals SET status = 'closed', closed_reason = $3, updated_at = now()
    WHERE repo_id = $1 AND number = $2 AND status = 'open'
    RETURNING id, repo_id, number, from_branch_id, into_branch_id, from_name, into_name
),
event AS (
    INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data)
    SELECT changed.repo_id, 'proposal.closed', $4, $5, {_EVENT_LINES}
    FROM changed
    LEFT JOIN branches f ON f.id = changed.from_branch_id
    LEFT JOIN branches i ON i.id = changed.into_branch_id
)
SELECT id FROM changed
"""
_LOCK_PROPOSAL = "SELECT status FROM proposals WHERE repo_id = $1 AND number = $2 FOR UPDATE"
_MERGED = f"""
WITH changed AS (
    UPDATE proposals SET status = 'merged', merge_commit_id = $3, updated_at = now()
    WHERE repo_id = $1 AND number = $2 AND status = 'open'
    RETURNING id, repo_id, number, from_branch_id, into_branch_id, from_name, into_name, merge_commit_id
),
event AS (
    INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data)
    SELECT changed.repo_id, 'proposal.merged', $4, $5,
           {_EVENT_LINES} || jsonb_build_object('merge_commit_id', changed.merge_commit_id)
    FROM changed
    LEFT JOIN branches f ON f.id = changed.from_branch_id
    LEFT JOIN branches i ON i.id = changed.into_branch_id
)
SELECT id FROM changed
"""


@dataclass(frozen=True, slots=True)
class ProposalRow:
    """A proposal and its lines as they are now."""

    proposal: Proposal
    from_branch_id: UUID | None
    into_branch_id: UUID | None
    from_head: UUID | None
    into_head: UUID | None


def _row(row: asyncpg.Record) -> ProposalRow:
    agent = row["created_by"]
    status: ProposalStatus = row["status"]
    proposal = Proposal(
        id=row["id"],
        repo_id=row["repo_id"],
        number=row["number"],
        from_=row["from_line"],
        into=row["into_line"],
        from_name=row["from_name"],
        into_name=row["into_name"],
        from_deleted=row["from_branch_id"] is None,
        into_deleted=row["into_branch_id"] is None,
        title=row["title"],
        description=row["description"],
        status=status,
        created_by=None if agent is None else Author(kind="agent", id=agent, name=row["agent_name"]),
        merge_commit_id=row["merge_commit_id"],
        closed_reason=row["closed_reason"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
    return ProposalRow(proposal, row["from_branch_id"], row["into_branch_id"], row["from_head"], row["into_head"])


def _line_key(name: str, field: str) -> str:
    key = line_lookup_key(name)
    if key is None:  # a name no line can have
        raise no_line(name, field=field)
    return key


def not_found(repo_id: UUID, number: int) -> NotFound:
    return NotFound(f"This Space has no proposal #{number}.", field="number", source="path")


class ProposalStore:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def open(self, repo_id: UUID, data: ProposalCreate, *, agent: Agent | None) -> int:
        """Insert an open proposal; its number. 404 naming `from` or `into` for a line the Space
        lacks, 400 naming `into` when both are one line, 409 when the pair already has an open one."""
        from_key = _line_key(data.from_, "from")
        into_key = None if data.into is None else _line_key(data.into, "into")
        async with self._pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(_LOCK_SPACE, repo_id) is None:
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
            lines = await conn.fetch(_LOCK_LINES, repo_id, from_key, into_key)
            source = next((line for line in lines if line["name_key"] == from_key), None)
            target = next(
                (line for line in lines if (line["is_default"] if into_key is None else line["name_key"] == into_key)),
                None,
            )
            if source is None:
                raise no_line(data.from_, field="from")
            if target is None and data.into is None:
                # The default line stopped being the default while this waited for its row.
                raise Conflict("The Space's default line changed meanwhile; nothing was opened. Retry.", field="into")
            if target is None:
                raise no_line(data.into or "", field="into")
            if source["id"] == target["id"]:
                raise BadRequest(
                    f"from and into are both line {target['name']!r}: a proposal merges one line into another.",
                    field="into",
                )
            number: int = await conn.fetchval(_NEXT_NUMBER, repo_id)
            inserted = await conn.fetchval(
                _INSERT,
                uuid7(),
                repo_id,
                number,
                source["id"],
                target["id"],
                source["name"],
                target["name"],
                data.title.strip(),
                data.description,
                None if agent is None else agent.id,
            )
            if inserted is None:
                existing = await conn.fetchval(_OPEN_PAIR, source["id"], target["id"])
                raise Conflict(
                    f"Proposal #{existing} already proposes {source['name']!r} into {target['name']!r} and is "
                    "open: update its line, or close it first.",
                    field="from",
                )
            opened = {"number": number, "from": source["name"], "into": target["name"]}
            await record(conn, repo_id, "proposal.opened", opened, agent=agent)
        return number

    async def get(self, repo_id: UUID, number: int) -> ProposalRow:
        row = await self._pool.fetchrow(_ONE, repo_id, number)
        if row is None:
            if await self._pool.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
            raise not_found(repo_id, number)
        return _row(row)

    async def page(
        self, repo_id: UUID, status: ProposalStatus | None, *, limit: int, offset: int
    ) -> tuple[list[Proposal], int]:
        total = await self._pool.fetchval(_COUNT, repo_id, status)
        if total is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        rows = await self._pool.fetch(_PAGE, repo_id, status, limit, offset) if offset < total else []
        return [_row(row).proposal for row in rows], total

    async def close(self, repo_id: UUID, number: int, reason: str | None, *, agent: Agent | None) -> None:
        """Close an open proposal; 409 when it is not open."""
        if await self._pool.fetchval(_CLOSE, repo_id, number, reason, *actor_columns(agent)) is None:
            raise not_open(await self.get(repo_id, number))

    @staticmethod
    async def lock_open(conn: asyncpg.Connection, repo_id: UUID, number: int) -> None:
        """Lock the proposal's row for a merge, in the caller's transaction: 409 unless it is open."""
        status = await conn.fetchval(_LOCK_PROPOSAL, repo_id, number)
        if status != "open":
            raise Conflict(f"Proposal #{number} is {status} now; only an open one is merged.", field="number")

    @staticmethod
    async def mark_merged(
        conn: asyncpg.Connection, repo_id: UUID, number: int, merge_commit_id: UUID, *, agent: Agent | None
    ) -> None:
        """Mark a locked open proposal merged, with its `proposal.merged` event, in the caller's
        transaction (the one that wrote the merge Checkpoint)."""
        if await conn.fetchval(_MERGED, repo_id, number, merge_commit_id, *actor_columns(agent)) is None:
            raise RuntimeError("a locked open proposal was not open")


def not_open(row: ProposalRow) -> Conflict:
    proposal = row.proposal
    return Conflict(
        f"Proposal #{proposal.number} is {proposal.status}; only an open proposal can be merged or closed.",
        field="number",
        source="path",
    )
