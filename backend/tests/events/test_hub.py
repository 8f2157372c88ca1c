"""The hub's rounds on a real database: where it starts, what it hands out, retention."""

from __future__ import annotations

import uuid

import asyncpg

from smriti.db.pool import Pool
from smriti.events.hub import EventHub
from tests.events.support import write_events


async def test_a_stream_that_started_before_the_hubs_first_round_reads_the_log(pool: Pool) -> None:
    """Its start and the hub's may differ: the events between them would otherwise be lost."""
    hub = EventHub(pool, retention_days=30)
    space = uuid.uuid4()
    early = hub.subscribe(repo_id=None, spaces=None)
    await write_events(pool, space, 2)  # numbered before the hub's first round
    await hub.tick()
    assert early.behind
    late = hub.subscribe(repo_id=space, spaces=None)
    other = hub.subscribe(repo_id=uuid.uuid4(), spaces=None)
    await write_events(pool, space, 1, number=False)
    await hub.tick()
    assert [event.id for event in late.pending] == [3]
    assert not other.pending
    assert not late.behind


async def test_retention_removes_the_oldest_ids_and_records_the_highest(pool: Pool, db: asyncpg.Connection) -> None:
    hub = EventHub(pool, retention_days=1)
    await write_events(pool, uuid.uuid4(), 4)
    # Id 3 is old and id 2 young (a long transaction commits late): 1-3 go, as a prefix of the ids.
    await db.execute("UPDATE events SET at = now() - interval '3 days' WHERE id IN (1, 3)")
    await hub.prune()
    assert [row["id"] for row in await db.fetch("SELECT id FROM events ORDER BY id")] == [4]
    assert await db.fetchval("SELECT through FROM events_pruned") == 3
