"""Holding a line of a Space for a transaction, with the locks taken in the order a commit takes them.

Every writer of a Space's lines takes the same locks in the same order: the Space's row share-locked
(`FOR KEY SHARE`, which only deleting the Space waits for), then line rows, then, for a move of the
Space's copy of HEAD, an update of the Space's row. A commit locks its one line; changing lines
(`lines/store.py`) holds the default line, then locks the line it changes; applying changes
(`verbs.apply`) holds its line. The Space's row is never taken `FOR UPDATE` on this path: a commit
to the default line updates that row after it share-locked it, and PostgreSQL, while a transaction
waits to take such a row `FOR UPDATE`, locks the row's newer versions one by one, which another
commit still reading an older version then waits for: the two deadlocked (503) under load, until
line changes took the row as commits do.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID

import asyncpg

from smriti.core.errors import Conflict, NotFound
from smriti.db.pool import Pool

T = TypeVar("T")

LINE_COLUMNS = "id, name, is_default, protected, head_commit_id, head_commit_hash, head_depth, created_at, updated_at"

_LOCK_SPACE_SQL = "SELECT id FROM repos WHERE id = $1 FOR KEY SHARE"

# A statement's snapshot is taken before it waits: a default line that stopped being the default
# while this waited for its row is not returned (though its row stays locked), and the next
# statement sees the new default.
_LOCK_LINE_SQL = f"""
SELECT {LINE_COLUMNS} FROM branches
WHERE repo_id = $1 AND CASE WHEN $2::text IS NULL THEN is_default ELSE name_key = $2::text END
FOR UPDATE
"""

_ATTEMPTS = 3


class _DefaultMoved(Exception):
    """The default line changed while the transaction waited for it."""


async def holding_line(
    pool: Pool,
    repo_id: UUID,
    key: str | None,
    work: Callable[[asyncpg.Connection, asyncpg.Record | None], Awaitable[T]],
    *,
    space_field: str | None = None,
) -> T:
    """`work(conn, line)` in a transaction holding the Space's row share-locked and the row of its
    line whose name has the key `key` (`core.text.line_key`; None: the default line), or None
    when no line has it. A default line that stops
    being the default while this waits for it is followed to the new one: the transaction starts
    again, so that the row it locked in vain (PostgreSQL keeps it locked) is let go first; a row
    held while waiting for another is how two changes of a Space's lines deadlocked."""
    for _ in range(_ATTEMPTS):
        try:
            async with pool.acquire() as conn, conn.transaction():
                if await conn.fetchval(_LOCK_SPACE_SQL, repo_id) is None:
                    raise NotFound(f"No Space with id {repo_id}.", field=space_field)
                line: asyncpg.Record | None = await conn.fetchrow(_LOCK_LINE_SQL, repo_id, key)
                if line is None and key is None:
                    raise _DefaultMoved
                return await work(conn, line)
        except _DefaultMoved:
            continue
    raise Conflict("The Space's default line kept changing; nothing was written. Retry.", field="branch")
