"""Lines of a Space: listing, creating, renaming, choosing the default and deleting.

Commits move a line's HEAD (`checkpoints/writes.py`); nothing here does, except that making a
line the default moves the Space's copy of HEAD to that line's. Each change here holds the
Space's row exclusively for its short transaction: a commit share-locks that row before it
locks its line, so a change waits for the commits in flight and new commits wait for it, and
no order of the two can deadlock. Changes of one Space's lines also serialise on it, so each
reads the lines as the previous one left them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from uuid import UUID

import asyncpg

from smriti.checkpoints.commit_sql import PARENT_CHAIN
from smriti.checkpoints.store import CheckpointStore
from smriti.core.errors import BadRequest, Conflict, NotFound
from smriti.core.ids import uuid7
from smriti.core.schemas import Page, stored_form
from smriti.db.pool import Pool
from smriti.lines.schemas import Line, LineCreate, LineUpdate, line_name

_LINE_COLUMNS = "name, head_commit_id, is_default, created_at, updated_at"
_ORDER = "ORDER BY is_default DESC, lower(name), name"
_BY_NAME = "repo_id = $1 AND lower(name) = lower($2)"

# A new line keeps its HEAD's jump links, as every line does (`commit_sql.PARENT_CHAIN`).
_INSERT_LINE = f"""
INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth,
                      head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at)
SELECT $1, $2, $3, false, $4, $5, $6, CASE WHEN p.id IS NOT NULL THEN chain.ids END,
       CASE WHEN p.id IS NOT NULL THEN chain.depths END, p.first_parent_merges, 0, clock_timestamp(), clock_timestamp()
FROM (SELECT 1) one LEFT JOIN commits p ON p.id = $4::uuid CROSS JOIN LATERAL ({PARENT_CHAIN}) chain
RETURNING {_LINE_COLUMNS}"""


def _line(row: asyncpg.Record) -> Line:
    return Line(
        name=row["name"],
        head_commit_id=row["head_commit_id"],
        is_default=row["is_default"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _written(row: asyncpg.Record | None) -> asyncpg.Record:
    """The row a statement inside `_changing` surely returns (the Space's row is held)."""
    if row is None:
        raise RuntimeError("a line changed under the Space's lock")
    return row


def _no_line(name: str) -> NotFound:
    return NotFound(f"This Space has no line named {name.strip()[:120]!r}.", field="name", source="path")


class LineStore:
    def __init__(self, pool: Pool, checkpoints: CheckpointStore) -> None:
        self._pool = pool
        self._checkpoints = checkpoints

    async def page(self, repo_id: UUID, *, limit: int, offset: int) -> Page[Line]:
        async with self._pool.acquire() as conn:
            total = await conn.fetchval(
                "SELECT (SELECT count(*) FROM branches b WHERE b.repo_id = r.id) FROM repos r WHERE r.id = $1", repo_id
            )
            if total is None:
                raise NotFound(f"No Space with id {repo_id}.")
            rows = await conn.fetch(
                f"SELECT {_LINE_COLUMNS} FROM branches WHERE repo_id = $1 {_ORDER} LIMIT $2 OFFSET $3",
                repo_id,
                limit,
                offset,
            )
        return Page(items=[_line(row) for row in rows], total=total, limit=limit, offset=offset)

    async def get(self, repo_id: UUID, name: str) -> Line:
        async with self._pool.acquire() as conn:
            return _line(await _fetch_line(conn, repo_id, name))

    async def create(self, repo_id: UUID, data: LineCreate) -> Line:
        name = line_name(data.name)
        head_id: UUID | None = None
        head_hash: str | None = None
        head_depth: int | None = None
        if data.from_ref is not None:
            await self._space_exists(repo_id)
            start = await self._checkpoints.resolve(
                data.from_ref, repo_id=repo_id, field="from_ref", columns="id, commit_hash, depth"
            )
            head_id, head_hash, head_depth = start["id"], start["commit_hash"], start["depth"]
        async with self._changing(repo_id) as conn:
            if data.from_ref is None:
                head = _written(
                    await conn.fetchrow(
                        "SELECT r.head_commit_id, r.head_commit_hash, c.depth FROM repos r "
                        "LEFT JOIN commits c ON c.id = r.head_commit_id WHERE r.id = $1",
                        repo_id,
                    )
                )
                head_id, head_hash, head_depth = head["head_commit_id"], head["head_commit_hash"], head["depth"]
            try:
                row = _written(
                    await conn.fetchrow(
                        _INSERT_LINE,
                        uuid7(),
                        repo_id,
                        name,
                        head_id,
                        head_hash,
                        head_depth,
                    )
                )
            except asyncpg.UniqueViolationError:
                raise Conflict(f"This Space already has a line named {name!r}.", field="name") from None
        return _line(row)

    async def change(self, repo_id: UUID, name: str, data: LineUpdate) -> Line:
        if data.is_default is False:
            raise BadRequest(
                "A Space always has a default line: make another line the default instead.", field="is_default"
            )
        new_name = line_name(data.name) if isinstance(data.name, str) else None
        async with self._changing(repo_id) as conn:
            line = await _fetch_line(conn, repo_id, name, lock=True)
            if new_name is not None and new_name != line["name"]:
                try:
                    line = _written(
                        await conn.fetchrow(
                            f"UPDATE branches SET name = $2, updated_at = clock_timestamp() WHERE id = $1 "
                            f"RETURNING id, {_LINE_COLUMNS}, head_commit_hash",
                            line["id"],
                            new_name,
                        )
                    )
                except asyncpg.UniqueViolationError:
                    raise Conflict(f"This Space already has a line named {new_name!r}.", field="name") from None
            if data.is_default is True and not line["is_default"]:
                line = await _make_default(conn, repo_id, line)
        return _line(line)

    async def delete(self, repo_id: UUID, name: str) -> None:
        async with self._changing(repo_id) as conn:
            line = await _fetch_line(conn, repo_id, name, lock=True)
            if line["is_default"]:
                raise Conflict(
                    f"{line['name']!r} is the Space's default line and cannot be deleted; make another "
                    "line the default first.",
                    field="name",
                    source="path",
                )
            # Its Checkpoints stay, and so does the Space's count of them: the default line
            # takes over this line's share.
            await conn.execute(
                "WITH gone AS (DELETE FROM branches WHERE id = $1 RETURNING repo_id, commit_count) "
                "UPDATE branches SET commit_count = branches.commit_count + gone.commit_count "
                "FROM gone WHERE branches.repo_id = gone.repo_id AND branches.is_default",
                line["id"],
            )

    async def _space_exists(self, repo_id: UUID) -> None:
        if await self._pool.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.")

    @asynccontextmanager
    async def _changing(self, repo_id: UUID) -> AsyncIterator[asyncpg.Connection]:
        """A transaction holding the Space's row exclusively (see the module's docstring)."""
        async with self._pool.acquire() as conn, conn.transaction():
            if await conn.fetchval("SELECT 1 FROM repos WHERE id = $1 FOR UPDATE", repo_id) is None:
                raise NotFound(f"No Space with id {repo_id}.")
            yield conn


async def _fetch_line(conn: asyncpg.Connection, repo_id: UUID, name: str, *, lock: bool = False) -> asyncpg.Record:
    looked_up = stored_form(name)
    row = None
    if looked_up is not None:
        row = await conn.fetchrow(
            f"SELECT id, {_LINE_COLUMNS}, head_commit_hash FROM branches WHERE {_BY_NAME}"
            + (" FOR UPDATE" if lock else ""),
            repo_id,
            looked_up,
        )
    if row is None:
        if await conn.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.")
        raise _no_line(name)
    return row


async def _make_default(conn: asyncpg.Connection, repo_id: UUID, line: asyncpg.Record) -> asyncpg.Record:
    """The line becomes the default, and the Space's HEAD becomes its HEAD."""
    await conn.execute(
        "UPDATE branches SET is_default = false, updated_at = clock_timestamp() WHERE repo_id = $1 AND is_default",
        repo_id,
    )
    row = _written(
        await conn.fetchrow(
            f"UPDATE branches SET is_default = true, updated_at = clock_timestamp() WHERE id = $1 "
            f"RETURNING id, {_LINE_COLUMNS}, head_commit_hash",
            line["id"],
        )
    )
    await conn.execute(
        "UPDATE repos SET head_commit_id = $2, head_commit_hash = $3, updated_at = clock_timestamp() WHERE id = $1",
        repo_id,
        row["head_commit_id"],
        row["head_commit_hash"],
    )
    return row
