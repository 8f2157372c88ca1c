"""Alembic environment: online migrations only, serialised across processes by an advisory lock."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from advanced_alchemy.base import metadata_registry
from alembic import context
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from smriti.db import agent_models, event_models, models, webhook_models  # noqa: F401  (registers the tables on the metadata)
from smriti.db.migrate import DEFAULT_LOCK_TIMEOUT_S, LOCK_TIMEOUT_ATTRIBUTE, lock_timeout_ms

if TYPE_CHECKING:
    from advanced_alchemy.alembic.commands import AlembicCommandConfig
    from sqlalchemy.engine import Connection

config = cast("AlembicCommandConfig", context.config)

# Any fixed number works; it only has to be the same in every Smriti process.
_MIGRATION_LOCK_KEY = 0x5_3_4D_52_49  # "SMRI"


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata_registry.get(config.bind_key),
        version_table=config.version_table_name,
        compare_type=True,
        render_as_batch=False,
    )
    with context.begin_transaction():
        # Two servers starting together must not both create the tables. A session lock, not a
        # transaction's: a migration that must work outside a transaction (0012's concurrent
        # index builds, in `autocommit_block`) commits on the way, and must still run alone.
        # It is released when this connection closes, whatever happens.
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
        # Only table locks time out: the advisory lock above may wait for another server's
        # whole migration. For the session, so it outlives such a commit. SET cannot take a
        # bind parameter, hence the int() check.
        timeout_ms = int(config.attributes.get(LOCK_TIMEOUT_ATTRIBUTE, lock_timeout_ms(DEFAULT_LOCK_TIMEOUT_S)))
        connection.execute(text(f"SET lock_timeout = {timeout_ms}"))
        context.run_migrations()


async def _run_online() -> None:
    engine = cast("AsyncEngine", config.engine)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("Smriti runs migrations online only: smriti db upgrade")
asyncio.run(_run_online())
