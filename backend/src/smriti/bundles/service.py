"""Import a Space bundle: spooled to a file as it arrives, checked whole, then written whole.

Nothing of a bundle is written until every line of it has been checked (`check.py`), and then
all of it is written in one transaction (`write.py`), so a bad bundle leaves no trace and a
good one appears at once. The upload goes to a temporary file rather than memory, and the
check keeps only a few hundred bytes per Checkpoint, so a large Space imports in little memory;
the connection is taken only for the write. No line may be longer than
SMRITI_MAX_BUNDLE_LINE_BYTES: one line is what both passes hold at once, so that limit, not the
body's, bounds their memory. A longer line is refused as it arrives (`LineLimit`).
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import IO
from uuid import UUID

import asyncpg

from smriti.access.caller import Agent
from smriti.bundles.check import BundleCheck, BundleError, Plan, decode, read_header
from smriti.bundles.write import write_bundle
from smriti.core.cpu import Lane, keep_going, off_loop
from smriti.core.errors import BadRequest, Conflict, TooLarge
from smriti.core.uploads import within
from smriti.db.pool import Pool
from smriti.events.record import record


@dataclass(frozen=True, slots=True)
class BundleService:
    pool: Pool
    max_import_bytes: int
    max_line_bytes: int

    async def import_bundle(
        self, chunks: AsyncIterator[bytes], *, declared_bytes: int | None, agent: Agent | None
    ) -> UUID:
        """The Space of the bundle, written whole by `agent` (None: the person). Its event is one
        `space.imported`, written with it: the Checkpoints, lines and Sessions it brings were made
        elsewhere, so none has an event of its own (SYSTEM.md §14)."""
        with tempfile.TemporaryFile() as spool:
            lines = LineLimit(self.max_line_bytes)
            async for chunk in within(chunks, self.max_import_bytes, "The bundle", declared_bytes=declared_bytes):
                lines.check(chunk)
                spool.write(chunk)
            try:
                plan = await off_loop(lambda: check_bundle(spool), lane=Lane.IMPORT)
            except BundleError as exc:
                raise BadRequest(str(exc), field=f"line {exc.number}") from None
            await self._refuse_taken(plan)
            try:
                async with self.pool.acquire() as conn, conn.transaction():
                    await write_bundle(conn, plan, spool)
                    await record(conn, plan.space.id, "space.imported", {"name": plan.space.name}, agent=agent)
            except asyncpg.UniqueViolationError as exc:
                raise Conflict(_taken(exc)) from None
        # A large import can change the tables' sizes many times over before autovacuum looks
        # (up to a minute later); until then the planner plans from the old sizes, and the first
        # export took 37 s instead of 1.4 for 100,000 Turns. ANALYZE samples, and blocks no write.
        await self.pool.fetchval("ANALYZE commits, branches, sessions, turns")
        return plan.space.id

    async def _refuse_taken(self, plan: Plan) -> None:
        space = plan.space
        same = await self.pool.fetchrow(
            "SELECT id = $1 AS same_id FROM repos WHERE id = $1 OR name = $2 ORDER BY id = $1 DESC LIMIT 1",
            space.id,
            space.name,
        )
        if same is not None:
            raise Conflict(
                f"A Space with id {space.id} is already here: delete it first to import it again "
                f"(`smriti space delete {space.id} --yes`, or DELETE /v4/repos/{space.id})."
                if same["same_id"]
                else f"A Space named {space.name!r} is already here: rename one of them first.",
                field="space.id" if same["same_id"] else "space.name",
            )


class LineLimit:
    """Refuses a bundle whose line runs past `limit` bytes as soon as its bytes arrive, naming the
    line, so neither pass ever reads a longer one (their `for line in spool` holds a line whole).
    Lines are counted from 1; the newline that ends one is not part of it."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._number = 1
        self._length = 0
        """The bytes of the current line so far."""

    def check(self, chunk: bytes) -> None:
        ends = chunk.count(b"\n")
        if not ends:
            self._length += len(chunk)
        elif self._length + len(chunk) - ends <= self._limit:
            # Every line in the chunk is within the limit: only the last one's length matters.
            self._number += ends
            self._length = len(chunk) - chunk.rindex(b"\n") - 1
        else:
            start = 0
            for _ in range(ends):
                end = chunk.index(b"\n", start)
                self._length += end - start
                self._refuse_if_over()
                self._number += 1
                self._length, start = 0, end + 1
            self._length = len(chunk) - start
        self._refuse_if_over()

    def _refuse_if_over(self) -> None:
        if self._length > self._limit:
            raise TooLarge(
                f"Line {self._number}: longer than SMRITI_MAX_BUNDLE_LINE_BYTES ({self._limit} bytes), the "
                "longest line this server reads; nothing was imported.",
                limit_bytes=self._limit,
                field=f"line {self._number}",
            )


def check_bundle(spool: IO[bytes]) -> Plan:
    """Every line of the spooled bundle checked, in order; the plan the write pass follows."""
    spool.seek(0)
    check: BundleCheck | None = None
    number = 0
    for number, line in enumerate(spool, start=1):
        keep_going()  # a large bundle's check ends when the server stops
        if not line.strip():
            raise BundleError(number, "an empty line: every line of a bundle is one JSON object.")
        if check is None:
            check = BundleCheck(read_header(number, line))
        else:
            check.check(number, decode(number, line))
    if check is None:
        raise BundleError(1, "the bundle is empty.")
    return check.finish(number + 1)


def _taken(exc: asyncpg.UniqueViolationError) -> str:
    """A race the check before the write cannot see, or ids reused under another Space's id."""
    table = exc.table_name or ""
    if table == "repos":
        return "A Space with this bundle's id or name was imported or created just now."
    what = {"commits": "Checkpoints", "sessions": "Sessions", "branches": "lines"}.get(table, "rows")
    return f"Some of the bundle's {what} are already in this database under another Space (their ids are taken)."
