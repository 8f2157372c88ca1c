"""Alembic migrations through advanced-alchemy's command wrapper."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncpg
from advanced_alchemy.alembic.commands import AlembicCommands
from advanced_alchemy.config import AlembicAsyncConfig, SQLAlchemyAsyncConfig
from sqlalchemy.pool import NullPool

from smriti.core.errors import caused_by
from smriti.db import agent_models, event_models, models, webhook_models  # noqa: F401  (registers the tables on the metadata)
from smriti.db.urls import sqlalchemy_url

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def alembic_commands(database_url: str) -> AlembicCommands:
    config = SQLAlchemyAsyncConfig(
        connection_string=sqlalchemy_url(database_url),
        alembic_config=AlembicAsyncConfig(
            script_location=str(MIGRATIONS_DIR),
            script_config=str(MIGRATIONS_DIR / "alembic.ini"),
            version_table_name="alembic_version",
        ),
    )
    config.engine_config.poolclass = NullPool
    return AlembicCommands(sqlalchemy_config=config)


LOCK_TIMEOUT_ATTRIBUTE = "smriti_lock_timeout_ms"
DEFAULT_LOCK_TIMEOUT_S = 5.0
ATTEMPTS = 3
PAUSE_BETWEEN_ATTEMPTS_S = 1.0


def lock_timeout_ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class MigrationBlockedError(RuntimeError):
    """Another transaction kept a table the migration must lock, on every attempt. Nothing changed."""


def upgrade(database_url: str, revision: str = "head", *, lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S) -> None:
    """Bring the schema to `revision`. Safe to call from several processes at once (env.py locks).

    A migration that waits for a table lock makes every request on that table queue behind it,
    so it waits at most `lock_timeout_s`, then rolls back (changing nothing), lets the queue
    drain for a second, and tries again, up to ATTEMPTS times.
    """
    blocked: Exception | None = None
    for attempt in range(1, ATTEMPTS + 1):
        commands = alembic_commands(database_url)
        commands.config.attributes[LOCK_TIMEOUT_ATTRIBUTE] = lock_timeout_ms(lock_timeout_s)
        try:
            commands.upgrade(revision)
        except Exception as exc:
            if not caused_by(exc, asyncpg.LockNotAvailableError):
                raise
            blocked = exc
        else:
            return
        if attempt < ATTEMPTS:
            time.sleep(PAUSE_BETWEEN_ATTEMPTS_S)
    raise MigrationBlockedError(
        f"The migration to {revision} stopped and changed nothing: {ATTEMPTS} times it waited "
        f"{lock_timeout_s:g} s (SMRITI_MIGRATION_LOCK_TIMEOUT) for a table that another transaction "
        "was using. Find that transaction in pg_stat_activity, let it finish or end it, and migrate again."
    ) from blocked


async def upgrade_async(
    database_url: str, revision: str = "head", *, lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S
) -> None:
    # env.py runs its own event loop, so Alembic gets a thread of its own.
    await asyncio.to_thread(upgrade, database_url, revision, lock_timeout_s=lock_timeout_s)
