"""Alembic migrations through advanced-alchemy's command wrapper."""

from __future__ import annotations

import asyncio
from pathlib import Path

from advanced_alchemy.alembic.commands import AlembicCommands
from advanced_alchemy.config import AlembicAsyncConfig, SQLAlchemyAsyncConfig
from sqlalchemy.pool import NullPool

from smriti.db import models  # noqa: F401  (registers the tables on the metadata)
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


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the schema to `revision`. Safe to call from several processes at once (env.py locks)."""
    alembic_commands(database_url).upgrade(revision)


async def upgrade_async(database_url: str, revision: str = "head") -> None:
    # env.py runs its own event loop, so Alembic gets a thread of its own.
    await asyncio.to_thread(upgrade, database_url, revision)
