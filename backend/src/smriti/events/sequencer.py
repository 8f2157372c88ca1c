"""Numbering committed events, in the order they are found committed (SYSTEM.md §14).

Writers insert events with `id` NULL (`events/record.py`); `number_events` gives the committed
ones the next ids, 1, 2, 3… with no gap (after those retention pruned), in `seq` order within a
batch. Only committed rows are visible to it, and a transaction that commits after a batch was
numbered can only be numbered in a later batch: so ids follow commit order, and a reader that
has seen id N never later finds a new event below N. Commits to one line take the line's row
lock in turn, so their events' `seq`, and so their ids, follow the order they took effect.

One numberer at a time across every process: a transaction-scoped advisory lock, tried, never
waited for (another process numbering now will number these too). The lock is taken in its own
statement, so the numbering statement's snapshot sees whatever the previous holder committed.
Transaction-scoped, it works behind a connection pooler in transaction mode.

Every process's hub runs this every tick, busy or idle, so the numbering statement takes its
batch as a parameter: asyncpg then prepares it once per connection, where a statement without
parameters went by the simple protocol and PostgreSQL parsed and planned it at every tick
(~500 µs of its CPU an idle tick against ~225 prepared; ~1,600 against ~1,100 a tick of 33
events; docs/performance.md, "Events").
"""

from __future__ import annotations

from typing import Final

from smriti.db.pool import Pool

_LOCK_KEY: Final = 0x736D7269_0001  # "smri", 1: the event numberer
_BATCH: Final = 5000

_NUMBER_SQL: Final = """
WITH todo AS (
    SELECT seq, row_number() OVER (ORDER BY seq) AS rank
    FROM (SELECT seq FROM events WHERE id IS NULL ORDER BY seq LIMIT $1) AS waiting
),
top AS (
    SELECT greatest((SELECT max(id) FROM events WHERE id IS NOT NULL), (SELECT through FROM events_pruned)) AS id
)
UPDATE events SET id = top.id + todo.rank
FROM todo, top
WHERE events.seq = todo.seq
"""


async def number_events(pool: Pool) -> int:
    """Numbers the committed events that have no id yet; returns how many it numbered (0 when
    there were none, or another process holds the numberer's lock and will number them)."""
    async with pool.acquire() as conn, conn.transaction():
        if not await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", _LOCK_KEY):
            return 0
        status: str = await conn.execute(_NUMBER_SQL, _BATCH)
        return int(status.rsplit(" ", 1)[1])
