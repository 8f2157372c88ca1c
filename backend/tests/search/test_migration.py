"""Migration 0012 on a database that already has Checkpoints and Turns: they are searchable after."""

from __future__ import annotations

import asyncio
from uuid import uuid4

import asyncpg

from smriti.core.config import Settings
from smriti.db.admin import drop_database, recreate_database
from smriti.db.migrate import alembic_commands, upgrade
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send


async def test_rows_written_before_the_migration_are_filled_in_and_indexed(
    postgres_url: str, settings: Settings
) -> None:
    name = f"smriti_search_{uuid4().hex[:10]}"
    url = await recreate_database(postgres_url, name)
    try:
        async with make_client(settings, database_url=url) as client:
            space = await create_space(client, "Before search")
            await commit(client, space["id"], "Chose the harbour route", summary="ferries every hour")
            session = await create_session(client, space["id"])
            await send(client, session["id"], "the lighthouse keeper agreed")
        await asyncio.to_thread(lambda: alembic_commands(url).downgrade("0011"))
        await asyncio.to_thread(upgrade, url)
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT count(*) FROM commits WHERE search_vector IS NULL") == 0
            assert await conn.fetchval("SELECT count(*) FROM turns WHERE search_vector IS NULL") == 0
            valid = await conn.fetch(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "WHERE c.relname LIKE '%search_vector' AND i.indisvalid ORDER BY 1"
            )
            assert [row["relname"] for row in valid] == ["ix_commits_search_vector", "ix_turns_search_vector"]
        finally:
            await conn.close()
        async with make_client(settings, database_url=url) as client:
            for words in ("ferry", "lighthouse keeper"):
                found = await client.get("/v5/search", params={"q": words})
                assert found.status_code == 200, found.text
                assert found.json()["total"] >= 1, words
    finally:
        await drop_database(postgres_url, name)
