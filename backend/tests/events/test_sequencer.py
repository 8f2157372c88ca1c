"""The numberer gives committed events ids in commit order, with no gap, once across processes."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import pytest

from smriti.db.pool import Pool, create_pool
from smriti.events.record import record
from smriti.events.sequencer import number_events


async def _ids_by_type(db: asyncpg.Connection) -> dict[str, int | None]:
    rows = await db.fetch("SELECT type, id FROM events ORDER BY seq")
    return {row["type"]: row["id"] for row in rows}


async def test_an_event_written_first_but_committed_last_is_numbered_last(
    pool: Pool, database_url: str, db: asyncpg.Connection
) -> None:
    repo_id = uuid.uuid4()
    slow = await asyncpg.connect(database_url)
    try:
        transaction = slow.transaction()
        await transaction.start()
        await slow.execute(
            "INSERT INTO events (repo_id, type, actor_name, data) VALUES ($1, 'space.updated', 'person', '{}')",
            repo_id,
        )
        async with pool.acquire() as conn, conn.transaction():
            await record(conn, repo_id, "line.created", {"name": "b"}, agent=None)
        assert await number_events(pool) == 1  # the uncommitted one is invisible, so left for later
        assert await _ids_by_type(db) == {"line.created": 1}
        await transaction.commit()
    finally:
        await slow.close()
    assert await number_events(pool) == 1
    assert await _ids_by_type(db) == {"space.updated": 2, "line.created": 1}
    assert await number_events(pool) == 0


async def test_a_rolled_back_change_leaves_no_event(pool: Pool, db: asyncpg.Connection) -> None:
    async def change_that_fails() -> None:
        async with pool.acquire() as conn, conn.transaction():
            await record(conn, uuid.uuid4(), "line.deleted", {"name": "b"}, agent=None)
            raise RuntimeError("the change failed after its event was written")

    with pytest.raises(RuntimeError):
        await change_that_fails()
    assert await db.fetchval("SELECT count(*) FROM events") == 0


async def test_numberers_racing_number_each_event_once(pool: Pool, database_url: str, db: asyncpg.Connection) -> None:
    other = await create_pool(database_url, size=4)  # another process's pool
    try:
        repo_id = uuid.uuid4()
        for batch in range(20):
            async with pool.acquire() as conn, conn.transaction():
                for k in range(5):
                    await record(conn, repo_id, "turns.added", {"batch": batch, "k": k}, agent=None)
            await asyncio.gather(*(number_events(p) for p in (pool, other, pool, other)))
        while await number_events(pool):
            pass
    finally:
        await other.close()
    ids = [row["id"] for row in await db.fetch("SELECT id FROM events ORDER BY seq")]
    assert ids == list(range(1, 101))


async def test_numbering_goes_on_after_what_retention_pruned(pool: Pool, db: asyncpg.Connection) -> None:
    await db.execute("UPDATE events_pruned SET through = 41")
    async with pool.acquire() as conn, conn.transaction():
        await record(conn, uuid.uuid4(), "space.created", {"name": "a"}, agent=None)
    await number_events(pool)
    assert await db.fetchval("SELECT id FROM events") == 42


async def test_the_numbering_statement_is_prepared_once_per_connection(database_url: str) -> None:
    """Every process's hub numbers every tick, idle or not: parsed and planned at every tick, the
    statement cost PostgreSQL about twice the CPU (docs/performance.md, "Events")."""
    single = await create_pool(database_url, size=1)  # one connection: the one that numbers
    try:
        for _ in range(3):
            await number_events(single)
        async with single.acquire() as conn:
            statements = [row["statement"] for row in await conn.fetch("SELECT statement FROM pg_prepared_statements")]
    finally:
        await single.close()
    assert len([s for s in statements if "UPDATE events SET id" in s]) == 1
