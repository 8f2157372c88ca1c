"""Waiting, in a test, for a request or a migration to queue behind a lock the test holds."""

from __future__ import annotations

import asyncio

import asyncpg


async def someone_waits_on_a_lock(conn: asyncpg.Connection, *, sessions: int = 1) -> None:
    """Until `sessions` other sessions of `conn`'s database are queued behind locks (at most 2 s)."""
    for _ in range(100):
        waiting = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()"
        )
        if waiting >= sessions:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("nothing ever waited on the lock")
