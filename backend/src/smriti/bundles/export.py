"""Export a Space as a bundle (`format.py`), streamed from the database in constant memory.

The whole bundle is read from one snapshot (a repeatable-read, read-only transaction), so a
commit or a send landing during a long export is either wholly in it or not at all. Rows come
through server-side cursors a few hundred at a time as ~64 KB chunks; the content columns are
sent as PostgreSQL's own JSON text, never decoded here.

The database is read as fast as it answers, not as fast as the client reads: the chunks go to a
temporary file (`_Spool`) and the response is sent from it, chunk by chunk as they arrive. So the
pooled connection is held for as long as the reading takes (a second or so for a large Space),
never for as long as a slow or stalled client takes to download: ten downloads nobody reads held
every connection of the pool before, and every commit and send answered 503. What a client costs
instead is disk, the bundle's size while it downloads: `MAX_EXPORTS` at once per process, and a
client that reads nothing for `core.streaming` 's idle limit is cut off.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from smriti.bundles.format import FORMAT, SESSION_FIELDS, TURN_FIELDS, VERSION, encode_line
from smriti.checkpoints.commit_sql import JSONB_FIELDS
from smriti.checkpoints.hashing import CONTENT_FIELDS
from smriti.core.errors import NotFound, Unavailable
from smriti.db.pool import Pool

_CHUNK_BYTES = 64 * 1024
_PREFETCH = 500

_SPACE_SQL = "SELECT id, name, description, created_at, updated_at FROM repos WHERE id = $1"

_CONTENT = ", ".join(f"{name}::text AS {name}" if name in JSONB_FIELDS else name for name in CONTENT_FIELDS)
# Written under their line's lock with the time read after it, a Checkpoint's created_at is
# later than its parents': this order puts parents first (import refuses a bundle that does not).
_CHECKPOINTS_SQL = f"""
SELECT id, parent_commit_id, merge_parent_id, commit_hash, created_at, {_CONTENT}
FROM commits WHERE repo_id = $1 ORDER BY created_at, id"""

_BRANCHES_SQL = """
SELECT id, name, is_default, head_commit_id, head_commit_hash, commit_count, created_at, updated_at, protected
FROM branches WHERE repo_id = $1 ORDER BY is_default DESC, lower(name), name"""

# A Turn's Session is the row's; the Turn's own columns follow.
_TURN_COLUMNS = tuple(name for name in TURN_FIELDS if name != "session_id")
_SESSION_COLUMNS = SESSION_FIELDS
# Each Session with its Turns after it, in one ordered read: a Session with no Turns is one row
# whose Turn columns are null.
_SESSIONS_SQL = f"""
SELECT {", ".join(f"s.{name} AS s_{name}" for name in _SESSION_COLUMNS)},
       {", ".join(f"t.{name} AS t_{name}" for name in _TURN_COLUMNS)}
FROM sessions s LEFT JOIN turns t ON t.session_id = s.id
WHERE s.repo_id = $1
ORDER BY s.created_at, s.id, t.sequence_number"""


async def space_exists(pool: Pool, repo_id: UUID) -> str:
    """The Space's name (for the file name), or 404 before any byte of the bundle is sent."""
    name: str | None = await pool.fetchval("SELECT name FROM repos WHERE id = $1", repo_id)
    if name is None:
        raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
    return name


def bundle_filename(name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "space"
    return f"{slug[:80]}.smriti.ndjson"


MAX_EXPORTS = 4
"""Exports a server process sends at once; another one is a 503 until one ends."""

_exporting = [0]  # exports being sent in this process


def export_space(pool: Pool, repo_id: UUID) -> AsyncIterator[bytes]:
    """The bundle's bytes, read ahead of the client into a temporary file (503 past `MAX_EXPORTS`
    exports at once). A Space deleted between the 404 check and the snapshot gives a bundle with
    no `end` line, which no import accepts."""
    if _exporting[0] >= MAX_EXPORTS:
        raise Unavailable(
            f"{MAX_EXPORTS} exports are being sent by this server already; retry in a moment.", retry_after_s=5
        )
    return _sent_from_spool(pool, repo_id)


async def _sent_from_spool(pool: Pool, repo_id: UUID) -> AsyncIterator[bytes]:
    # Counted from the first chunk asked for: a response never sent (HEAD) reads nothing.
    _exporting[0] += 1
    spool = _Spool()
    reading = asyncio.create_task(spool.fill(_bundle(pool, repo_id)))
    try:
        async for chunk in spool.chunks():
            yield chunk
    finally:
        _exporting[0] -= 1
        reading.cancel()  # a client that went away: the snapshot is read no further
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        spool.close()


class _Spool:
    """The bundle as read so far: a temporary file, and how much of it is written."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by `close`, after the response)
        self._written = 0
        self._finished = False
        self._more = asyncio.Event()

    async def fill(self, chunks: AsyncIterator[bytes]) -> None:
        try:
            async for chunk in chunks:
                self._file.write(chunk)
                self._file.flush()
                self._written += len(chunk)
                self._more.set()
        finally:  # failed or done: the client gets what was read (no `end` line, if it failed)
            self._finished = True
            self._more.set()

    async def chunks(self) -> AsyncIterator[bytes]:
        sent = 0
        while True:
            if sent < self._written:
                chunk = os.pread(self._file.fileno(), min(_CHUNK_BYTES, self._written - sent), sent)
                sent += len(chunk)
                yield chunk
            elif self._finished:
                return
            else:
                self._more.clear()
                await self._more.wait()

    def close(self) -> None:
        self._file.close()


async def _bundle(pool: Pool, repo_id: UUID) -> AsyncIterator[bytes]:
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        space = await conn.fetchrow(_SPACE_SQL, repo_id)
        if space is None:
            return
        chunk = _Chunks()
        chunk.add({"format": FORMAT, "version": VERSION, "space": dict(space)})
        counts = {"checkpoints": 0, "branches": 0, "sessions": 0, "turns": 0}
        async for row in conn.cursor(_CHECKPOINTS_SQL, repo_id, prefetch=_PREFETCH):
            counts["checkpoints"] += 1
            if (ready := chunk.add(_checkpoint(row))) is not None:
                yield ready
        for row in await conn.fetch(_BRANCHES_SQL, repo_id):
            counts["branches"] += 1
            if (ready := chunk.add({"type": "branch", **dict(row)})) is not None:
                yield ready
        async for line in _sessions_and_turns(conn, repo_id, counts):
            if (ready := chunk.add(line)) is not None:
                yield ready
        chunk.add({"type": "end", **counts})
        yield chunk.flush()


def _checkpoint(row: asyncpg.Record) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "checkpoint"}
    for name, value in row.items():
        line[name] = msgspec.Raw(value.encode()) if name in JSONB_FIELDS else value
    return line


async def _sessions_and_turns(
    conn: asyncpg.Connection, repo_id: UUID, counts: dict[str, int]
) -> AsyncIterator[dict[str, Any]]:
    current: UUID | None = None
    async for row in conn.cursor(_SESSIONS_SQL, repo_id, prefetch=_PREFETCH):
        if row["s_id"] != current:
            current = row["s_id"]
            counts["sessions"] += 1
            yield {"type": "session", **{name: row[f"s_{name}"] for name in _SESSION_COLUMNS}}
        if row["t_sequence_number"] is not None:
            counts["turns"] += 1
            yield {"type": "turn", "session_id": current, **{name: row[f"t_{name}"] for name in _TURN_COLUMNS}}


class _Chunks:
    """Encoded lines gathered into chunks of about `_CHUNK_BYTES`."""

    def __init__(self) -> None:
        self._lines: list[bytes] = []
        self._size = 0

    def add(self, line: dict[str, Any]) -> bytes | None:
        encoded = encode_line(line)
        self._lines.append(encoded)
        self._size += len(encoded) + 1
        return self.flush() if self._size >= _CHUNK_BYTES else None

    def flush(self) -> bytes:
        self._lines.append(b"")
        data = b"\n".join(self._lines)
        self._lines, self._size = [], 0
        return data
