"""Databases at an older schema, for testing a migration on the data it meets."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from uuid import uuid4

from smriti.db.admin import drop_database, recreate_database


@contextlib.asynccontextmanager
async def database_at(postgres_url: str, revision: str) -> AsyncIterator[str]:
    """A fresh database migrated to `revision` only; dropped afterwards."""
    name = f"smriti_migrate_{uuid4().hex[:10]}"
    yield await recreate_database(postgres_url, name, revision=revision)
    await drop_database(postgres_url, name)
