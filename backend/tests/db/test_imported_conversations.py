"""Migration 0017: the table a conversation import records what it imported in, and its rules."""

from __future__ import annotations

import asyncio
import datetime
import uuid

import asyncpg
import pytest

from smriti.db.migrate import alembic_commands, upgrade
from tests.support.databases import database_at

_T0 = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
_PREVIOUS = "0016"  # what 0017 follows
_RECORD = "INSERT INTO imported_conversations (session_id, repo_id, source, conversation_id) VALUES ($1, $2, $3, $4)"


async def _space_with_session(conn: asyncpg.Connection) -> tuple[uuid.UUID, uuid.UUID]:
    space, session = uuid.uuid4(), uuid.uuid4()
    await conn.execute(
        "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, $2, '', $3, $3)",
        space,
        f"space {space.hex[:6]}",
        _T0,
    )
    await conn.execute(
        "INSERT INTO sessions (id, repo_id, title, created_at, updated_at) VALUES ($1, $2, 'Imported', $3, $3)",
        session,
        space,
        _T0,
    )
    return space, session


async def test_migration_0017_adds_the_record_of_imports_and_its_downgrade_removes_it(postgres_url: str) -> None:
    async with database_at(postgres_url, _PREVIOUS) as url:
        conn = await asyncpg.connect(url)
        try:
            space, session = await _space_with_session(conn)

            await asyncio.to_thread(upgrade, url)

            assert await conn.fetchval("SELECT count(*) FROM imported_conversations") == 0
            await conn.execute(_RECORD, session, space, "claude", "conversation-1")
            # One Session per conversation of a source in a Space...
            _, another = await _space_with_session(conn)
            await conn.execute("UPDATE sessions SET repo_id = $1 WHERE id = $2", space, another)
            with pytest.raises(asyncpg.UniqueViolationError, match="uq_imported_conversations"):
                await conn.execute(_RECORD, another, space, "claude", "conversation-1")
            await conn.execute(_RECORD, another, space, "chatgpt", "conversation-1")  # ...another source's is its own
            # ...and the record goes with its Session, and with its Space.
            await conn.execute("DELETE FROM sessions WHERE id = $1", session)
            assert await conn.fetchval("SELECT count(*) FROM imported_conversations") == 1
            await conn.execute("DELETE FROM repos WHERE id = $1", space)
            assert await conn.fetchval("SELECT count(*) FROM imported_conversations") == 0

            kept, kept_session = await _space_with_session(conn)
            await conn.execute(_RECORD, kept_session, kept, "claude_code", "4c1f8e2a")
            await asyncio.to_thread(lambda: alembic_commands(url).downgrade(_PREVIOUS))

            tables = await conn.fetchval("SELECT count(*) FROM pg_tables WHERE tablename = 'imported_conversations'")
            assert tables == 0
            assert await conn.fetchval("SELECT count(*) FROM sessions WHERE id = $1", kept_session) == 1
        finally:
            await conn.close()
