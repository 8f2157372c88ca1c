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
