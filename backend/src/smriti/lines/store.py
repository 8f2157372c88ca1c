"""Lines of a Space: listing, creating, renaming, choosing the default and deleting.

Each change writes its one event (`line.created`, `line.updated`, `line.deleted`; SYSTEM.md §14)
in its own transaction, naming the agent that made it or the person.

Commits move a line's HEAD (`checkpoints/writes.py`); nothing here does, except that making a
line the default moves the Space's copy of HEAD to that line's. Each change takes its locks as a
commit takes them (`checkpoints/line_locks.py`): the Space's row share-locked, then the default
line's row, then the line it changes, then (making a line the default) an update of the Space's
row. So a change waits only for the commits in flight on the lines it touches, and commits to
other lines go on meanwhile. Changes of one Space's lines serialise on its default line's row, so
each reads the lines as the previous one left them.

The Space's row used to be taken `FOR UPDATE` here, which was said to order changes and commits:
it deadlocked with commits to the default line under load (they update that row after
share-locking it; see `line_locks.py`), and a test races the two.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID

import asyncpg

from smriti.access.authors import agent_name_sql, created_by
from smriti.access.caller import Agent
from smriti.checkpoints.commit_sql import PARENT_CHAIN
from smriti.checkpoints.line_locks import LINE_COLUMNS, holding_line
from smriti.checkpoints.store import CheckpointStore, protected_line
from smriti.core.errors import BadRequest, Conflict, NotFound, no_line
from smriti.core.ids import uuid7
from smriti.core.schemas import Page, line_lookup_key
from smriti.core.text import line_key
from smriti.db.pool import Pool
from smriti.events.record import record
from smriti.lines.schemas import Line, LineCreate, LineUpdate, new_line_name

T = TypeVar("T")

_ORDER = "ORDER BY is_default DESC, name_key, name"
# A line as answered: its columns and who made it, with that agent's current name.
_ANSWER = f"{LINE_COLUMNS}, created_by, {agent_name_sql('branches.created_by')}"
_BY_NAME = "repo_id = $1 AND name_key = $2"

# A new line keeps its HEAD's jump links, as every line does (`commit_sql.PARENT_CHAIN`).
_INSERT_LINE = f"""
INSERT INTO branches (id, repo_id, name, name_key, is_default, head_commit_id, head_commit_hash, head_depth,
                      head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at, created_by)
SELECT $1, $2, $3, $7, false, $4, $5, $6, CASE WHEN p.id IS NOT NULL THEN chain.ids END,
       CASE WHEN p.id IS NOT NULL THEN chain.depths END, p.first_parent_merges, 0, clock_timestamp(), clock_timestamp(),
       $8
FROM (SELECT 1) one LEFT JOIN commits p ON p.id = $4::uuid CROSS JOIN LATERAL ({PARENT_CHAIN}) chain
RETURNING {_ANSWER}"""


def _line(row: asyncpg.Record) -> Line:
    return Line(
        name=row["name"],
        head_commit_id=row["head_commit_id"],
        head_commit_hash=row["head_commit_hash"],
        is_default=row["is_default"],
        protected=row["protected"],
        created_by=created_by(row),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _written(row: asyncpg.Record | None) -> asyncpg.Record:
    """A row that surely exists: one this transaction wrote or holds locked (every Space has one
    default line)."""
    if row is None:
        raise RuntimeError("a line changed while this transaction held it")
    return row


def _no_line(name: str) -> NotFound:
    return no_line(name, field="name", source="path")


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
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
            rows = await conn.fetch(
                f"SELECT {_ANSWER} FROM branches WHERE repo_id = $1 {_ORDER} LIMIT $2 OFFSET $3",
                repo_id,
                limit,
                offset,
            )
        return Page(items=[_line(row) for row in rows], total=total, limit=limit, offset=offset)

    async def get(self, repo_id: UUID, name: str) -> Line:
        async with self._pool.acquire() as conn:
            return _line(await _fetch_line(conn, repo_id, name))

    async def create(self, repo_id: UUID, data: LineCreate, *, agent: Agent | None) -> Line:
        name = new_line_name(data.name)
        start: tuple[UUID, str, int] | None = None
        if data.from_ref is not None:
            await self._space_exists(repo_id)
            found = await self._checkpoints.resolve(
                data.from_ref, repo_id=repo_id, field="from_ref", columns="id, commit_hash, depth"
            )
            start = (found["id"], found["commit_hash"], found["depth"])

        async def insert(conn: asyncpg.Connection, default: asyncpg.Record) -> asyncpg.Record:
            # Without `from_ref`, the Space's HEAD: its default line's, read from the held row.
            head = start or (default["head_commit_id"], default["head_commit_hash"], default["head_depth"])
            try:
                line = _written(
                    await conn.fetchrow(
                        _INSERT_LINE, uuid7(), repo_id, name, *head, line_key(name), None if agent is None else agent.id
                    )
                )
            except asyncpg.UniqueViolationError:
                raise Conflict(f"This Space already has a line named {name!r}.", field="name") from None
            data = {"name": line["name"], "head_commit_id": line["head_commit_id"]}
            await record(conn, repo_id, "line.created", data, agent=agent)
            return line

        return _line(await self._changing(repo_id, insert))

    async def change(self, repo_id: UUID, name: str, data: LineUpdate, *, agent: Agent | None) -> Line:
        """Rename, make the default, or (the person: the controller refuses an agent) protect.

        An agent changes no protected line, nor makes another line the default in place of a
        protected one: checked on the rows this transaction holds locked, as commits check it."""
        if data.is_default is False:
            raise BadRequest(
                "A Space always has a default line: make another line the default instead.", field="is_default"
            )
        new_name = new_line_name(data.name) if isinstance(data.name, str) else None

        async def rename_or_make_default(conn: asyncpg.Connection, default: asyncpg.Record) -> asyncpg.Record:
            line = await _fetch_line(conn, repo_id, name, lock=True)
            # One request, one `line.updated`, saying what changed (nothing changed: no event).
            changed: dict[str, object] = {}
            if agent is not None:
                if line["protected"]:
                    raise protected_line(line["name"], source="path")
                if data.is_default is True and not line["is_default"] and default["protected"]:
                    raise protected_line(default["name"], source="path")
            if isinstance(data.protected, bool) and data.protected != line["protected"]:
                line = _written(
                    await conn.fetchrow(
                        "UPDATE branches SET protected = $2, updated_at = clock_timestamp() "
                        f"WHERE id = $1 RETURNING {_ANSWER}",
                        line["id"],
                        data.protected,
                    )
                )
                changed["protected"] = data.protected
            if new_name is not None and new_name != line["name"]:
                changed["old_name"] = line["name"]
                try:
                    line = _written(
                        await conn.fetchrow(
                            "UPDATE branches SET name = $2, name_key = $3, updated_at = clock_timestamp() "
                            f"WHERE id = $1 RETURNING {_ANSWER}",
                            line["id"],
                            new_name,
                            line_key(new_name),
                        )
                    )
                except asyncpg.UniqueViolationError:
                    raise Conflict(f"This Space already has a line named {new_name!r}.", field="name") from None
            if data.is_default is True and not line["is_default"]:
                line = await _make_default(conn, repo_id, line, default)
                changed["is_default"] = True
            if changed:
                await record(conn, repo_id, "line.updated", {"name": line["name"], **changed}, agent=agent)
            return line

        return _line(await self._changing(repo_id, rename_or_make_default))

    async def delete(self, repo_id: UUID, name: str, *, agent: Agent | None) -> None:

        async def remove(conn: asyncpg.Connection, default: asyncpg.Record) -> None:
            line = await _fetch_line(conn, repo_id, name, lock=True)
            if agent is not None and line["protected"]:
                raise protected_line(line["name"], source="path")
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
                "WITH gone AS (DELETE FROM branches WHERE id = $1 RETURNING commit_count) "
                "UPDATE branches SET commit_count = branches.commit_count + gone.commit_count "
                "FROM gone WHERE branches.id = $2",
                line["id"],
                default["id"],
            )
            await record(conn, repo_id, "line.deleted", {"name": line["name"]}, agent=agent)

        await self._changing(repo_id, remove)

    async def _space_exists(self, repo_id: UUID) -> None:
        if await self._pool.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")

    async def _changing(self, repo_id: UUID, change: Callable[[asyncpg.Connection, asyncpg.Record], Awaitable[T]]) -> T:
        """`change(conn, default_line)` in a transaction holding the Space's row share-locked and its
        default line's row (see the module's docstring)."""

        async def on_default(conn: asyncpg.Connection, default: asyncpg.Record | None) -> T:
            return await change(conn, _written(default))

        return await holding_line(self._pool, repo_id, None, on_default)


async def _fetch_line(conn: asyncpg.Connection, repo_id: UUID, name: str, *, lock: bool = False) -> asyncpg.Record:
    looked_up = line_lookup_key(name)
    row = None
    if looked_up is not None:
        row = await conn.fetchrow(
            f"SELECT {_ANSWER} FROM branches WHERE {_BY_NAME}" + (" FOR UPDATE" if lock else ""),
            repo_id,
            looked_up,
        )
    if row is None:
        if await conn.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        raise _no_line(name)
    return row


async def _make_default(
    conn: asyncpg.Connection, repo_id: UUID, line: asyncpg.Record, default: asyncpg.Record
) -> asyncpg.Record:
    """The line becomes the default instead of `default`, and the Space's HEAD becomes its HEAD."""
    await conn.execute(
        "UPDATE branches SET is_default = false, updated_at = clock_timestamp() WHERE id = $1", default["id"]
    )
    row = _written(
        await conn.fetchrow(
            f"UPDATE branches SET is_default = true, updated_at = clock_timestamp() WHERE id = $1 RETURNING {_ANSWER}",
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
