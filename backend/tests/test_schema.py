"""The schema: what the migrations build is what the models say, and its keys guard HEAD."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest
from advanced_alchemy.base import DefaultBase
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from smriti.db.urls import sqlalchemy_url
from tests.support.api import commit, create_space


async def test_migrations_build_the_models_schema(database_url: str) -> None:
    engine = create_async_engine(sqlalchemy_url(database_url))
    try:
        async with engine.connect() as conn:

            def differences(sync_conn: Any) -> list[Any]:
                context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                return [d for d in compare_metadata(context, DefaultBase.metadata) if d[0] != "remove_table"]

            diff = await conn.run_sync(differences)
    finally:
        await engine.dispose()
    assert diff == []


async def test_head_cannot_point_into_another_space(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    ours, theirs = await create_space(client, "ours"), await create_space(client, "theirs")
    their_checkpoint = await commit(client, theirs["id"], message="theirs")
    with pytest.raises(asyncpg.ForeignKeyViolationError, match="fk_repos_head_commit_id_commits"):
        async with db.transaction():
            await db.execute("UPDATE repos SET head_commit_id = $1 WHERE id = $2", their_checkpoint["id"], ours["id"])
    assert (await client.get(f"/v4/repos/{ours['id']}/head")).status_code == 404


async def test_deleting_a_space_checks_each_checkpoint_by_key(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """Every Checkpoint deleted with its Space is checked against the HEAD pointers, and that check
    must find Spaces by key: keyed on `head_commit_id` alone it read every Space once per Checkpoint
    (2.7 s to delete 10,000 Checkpoints among 10,000 Spaces, quadratic)."""
    space = await create_space(client, "doomed")
    for n in range(3):
        await commit(client, space["id"], message=f"c{n}")
    await db.execute(
        "INSERT INTO repos (id, name, created_at, updated_at) "
        "SELECT gen_random_uuid(), 'other' || g, now(), now() FROM generate_series(1, 2000) g"
    )
    await db.execute("ANALYZE repos")
    scans = "SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'repos'"
    async with db.transaction():
        await db.execute("DELETE FROM repos WHERE id = $1", space["id"])
        before = await db.fetchval(scans)
        # The deferred checks, run now rather than at COMMIT so that this transaction sees them.
        await db.execute("SET CONSTRAINTS ALL IMMEDIATE")
        assert await db.fetchval(scans) == before
    assert await db.fetchval("SELECT count(*) FROM commits") == 0
