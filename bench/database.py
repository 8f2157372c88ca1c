"""Where every benchmark's database lives: on $DATABASE_URL's server, else on the embedded
PostgreSQL under bench/results/pg (started on first use, shared by the benchmark scripts)."""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg

from smriti.db.admin import recreate_database
from smriti.db.embedded import start_embedded_postgres

_EMBEDDED_DIR = Path(__file__).resolve().parent / "results" / "pg"


async def fresh_database(name: str, *, revision: str = "head") -> str:
    """Database `name`, dropped if it exists, created empty and migrated to `revision`; its URL."""
    server = os.environ.get("DATABASE_URL") or start_embedded_postgres(_EMBEDDED_DIR)
    return await recreate_database(server, name, revision=revision)


async def drop_search(url: str) -> None:
    """Drop search's triggers and indexes (migration 0012), wherever there are any: what the rest
    of a write costs without indexing."""
    conn = await asyncpg.connect(url)
    try:
        for table in ("turns", "commits"):
            await conn.execute(f"DROP TRIGGER IF EXISTS smriti_search_vector ON {table}")
            await conn.execute(f"DROP INDEX IF EXISTS ix_{table}_search_vector")
    finally:
        await conn.close()


async def discard_events(url: str) -> None:
    """Make `events` keep nothing: a BEFORE INSERT trigger that returns NULL, so every change's
    event insert still runs (its statement, the identity's next value, the trigger's call) and
    stores no row. Smriti has no switch that turns the log off (every change writes its event,
    SYSTEM.md §14), so the side "without the event log" of an A/B is made here, in the bench's own
    database only. It pays more than a Smriti without events would (the insert's share of its
    statement), so a ratio against it understates the log's cost by that share
    (`pg_instructions.py --events-discarded` counts it)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE FUNCTION bench_discard_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$"
        )
        await conn.execute(
            "CREATE TRIGGER bench_discard_event BEFORE INSERT ON events"
            " FOR EACH ROW EXECUTE FUNCTION bench_discard_event()"
        )
    finally:
        await conn.close()
