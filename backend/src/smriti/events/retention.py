"""Removing events past their retention (`SMRITI_EVENT_RETENTION_DAYS`, SYSTEM.md §14).

What goes is always a prefix of the ids, the numbered events up to the newest one older than the
retention (a transaction that started long ago can commit, and so be numbered, after younger
ones): what is kept is exactly the ids above `events_pruned.through`, so a reader's `after` below
it is a 410 and never a silent gap. Each batch is one statement, so its removal and the new
`through` commit together; batches keep a month's backlog from running into the statement timeout.
"""

from __future__ import annotations

from typing import Final

from smriti.db.pool import Pool

BATCH: Final = 10_000

_PRUNE_SQL: Final = """
WITH target AS (
    SELECT max(id) AS id FROM (
        SELECT id FROM events
        WHERE id IS NOT NULL AND at < now() - make_interval(days => $1)
        ORDER BY id LIMIT $2
    ) AS old
),
gone AS (DELETE FROM events WHERE id IS NOT NULL AND id <= (SELECT id FROM target) RETURNING id),
moved AS (
    UPDATE events_pruned SET through = greatest(through, (SELECT max(id) FROM gone))
    WHERE EXISTS (SELECT 1 FROM gone)
)
SELECT count(*) FROM gone
"""


async def prune_events(pool: Pool, *, retention_days: int, batch: int = BATCH) -> int:
    """Removes the events older than `retention_days`; returns how many."""
    removed = 0
    while True:
        count: int = await pool.fetchval(_PRUNE_SQL, retention_days, batch)
        removed += count
        if count < batch:
            return removed
