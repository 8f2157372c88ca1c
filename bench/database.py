"""Where every benchmark's database lives: on $DATABASE_URL's server, else on the embedded
PostgreSQL under bench/results/pg (started on first use, shared by the benchmark scripts)."""

from __future__ import annotations

import os
from pathlib import Path

from smriti.db.admin import recreate_database
from smriti.db.embedded import start_embedded_postgres

_EMBEDDED_DIR = Path(__file__).resolve().parent / "results" / "pg"


async def fresh_database(name: str, *, revision: str = "head") -> str:
    """Database `name`, dropped if it exists, created empty and migrated to `revision`; its URL."""
    server = os.environ.get("DATABASE_URL") or start_embedded_postgres(_EMBEDDED_DIR)
    return await recreate_database(server, name, revision=revision)
