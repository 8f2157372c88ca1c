"""Migration 0016: each Checkpoint's line where it is known for sure, the index that finds what a
Session saved last, and the one that finds the Sessions continued from one; a downgrade keeps
every row."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import uuid

import asyncpg

from smriti.core.config import Settings
from smriti.db.migrate import alembic_commands, upgrade
from tests.conftest import make_client
from tests.support.databases import database_at

_T0 = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)

_INSERT_COMMIT = """
INSERT INTO commits (id, repo_id, parent_commit_id, commit_hash, message, summary, decisions, assumptions, tasks,
                     open_questions, entities, artifacts, metadata, depth, jump_commit_id, jump_depth,
                     first_parent_merges, created_at)
VALUES ($1, $2, $3, $4, $5, '', '[]', '[]', '[]', '[]', '[]', '[]', $6::jsonb, $7, $1, 0, 0, $8)
"""
_MOVE_LINE = """
UPDATE branches SET head_commit_id = $3, head_commit_hash = $4, head_depth = $5, head_jumps = '{}',
                    head_jump_depths = '{}', head_merges = 0
WHERE repo_id = $1 AND name = $2
"""
_INSERT_LINE = """
INSERT INTO branches (id, repo_id, name, name_key, is_default, head_commit_id, head_commit_hash, head_depth,
                      head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at)
VALUES ($1, $2, $3::text, $3::text, false, NULL, NULL, NULL, NULL, NULL, NULL, 0, $4, $4)
"""


async def _checkpoint(
    conn: asyncpg.Connection,
    space: uuid.UUID,
    message: str,
    minutes: int,
    *,
    parent: uuid.UUID | None = None,
    metadata: str = "{}",
    depth: int = 0,
) -> tuple[uuid.UUID, str]:
    commit_id, commit_hash = uuid.uuid4(), uuid.uuid4().hex * 2
    when = _T0 + datetime.timedelta(minutes=minutes)
    await conn.execute(_INSERT_COMMIT, commit_id, space, parent, commit_hash, message, metadata, depth, when)
    return commit_id, commit_hash


async def test_migration_0016_records_the_lines_it_knows_and_finds_what_a_session_saved_last(
    postgres_url: str, settings: Settings
) -> None:
    async with database_at(postgres_url, "0015") as url:
        conn = await asyncpg.connect(url)
        try:
            space, session = uuid.uuid4(), uuid.uuid4()
            await conn.execute(
                "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, 'Old', '', $2, $2)",
                space,
                _T0,
            )
            await conn.execute(
                "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
                "VALUES ($1, $2, 'Talk', 0, $3, $3)",
                session,
                space,
                _T0,
            )
            root, root_hash = await _checkpoint(conn, space, "root", 1)
            source = f'{{"source": {{"session_id": "{str(session).upper()}", "from_seq": 1, "to_seq": 2}}}}'
            saved, saved_hash = await _checkpoint(conn, space, "saved", 2, parent=root, metadata=source, depth=1)
            await conn.execute(_MOVE_LINE, space, "main", saved, saved_hash, 1)
            # A line started later at the root: its HEAD is older than it, so not made on it.
            await conn.execute(_INSERT_LINE, uuid.uuid4(), space, "later", _T0 + datetime.timedelta(minutes=3))
            await conn.execute(_MOVE_LINE, space, "later", root, root_hash, 0)
            # A line with a Checkpoint of its own.
            await conn.execute(_INSERT_LINE, uuid.uuid4(), space, "side", _T0 + datetime.timedelta(minutes=4))
            side, side_hash = await _checkpoint(conn, space, "side", 5, parent=root, depth=1)
            await conn.execute(_MOVE_LINE, space, "side", side, side_hash, 1)
            await conn.execute(
                "UPDATE repos SET head_commit_id = $2, head_commit_hash = $3 WHERE id = $1", space, saved, saved_hash
            )
            hashes_before = await conn.fetch("SELECT id, commit_hash FROM commits ORDER BY id")

            await asyncio.to_thread(upgrade, url)

            lines = await conn.fetch(
                "SELECT c.message, b.name FROM commits c LEFT JOIN branches b ON b.id = c.branch_id ORDER BY 1"
            )
            assert [(row["message"], row["name"]) for row in lines] == [
                ("root", None),  # no line's HEAD that was written to it: not known
                ("saved", "main"),
                ("side", "side"),
            ]
            # The lookup's shape can use the index (a table this small is read whole otherwise).
            await conn.execute("SET enable_seqscan = off")
            plan = "\n".join(
                row[0]
                for row in await conn.fetch(
                    "EXPLAIN SELECT id FROM commits WHERE repo_id = $1 "
                    "AND lower(metadata #>> '{source,session_id}') = $2 "
                    "AND (metadata #>> '{source,session_id}') IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1",
                    space,
                    str(session),
                )
            )
            assert "ix_commits_source_session" in plan
            await conn.execute("RESET enable_seqscan")

            # The server on the upgraded database: the last save, on the line it went to.
            async with make_client(dataclasses.replace(settings, database_url=url)) as client:
                answer = (await client.get(f"/v4/sessions/{session}")).json()
            saved_hash = await conn.fetchval("SELECT commit_hash FROM commits WHERE id = $1", saved)
            assert answer["last_saved"] == {"commit_id": str(saved), "commit_hash": saved_hash, "branch": "main"}

            await asyncio.to_thread(lambda: alembic_commands(url).downgrade("0015"))
            columns = await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'commits'"
            )
            assert "branch_id" not in {row["column_name"] for row in columns}
            assert await conn.fetch("SELECT id, commit_hash FROM commits ORDER BY id") == hashes_before
            indexes = await conn.fetch("SELECT indexname FROM pg_indexes WHERE tablename IN ('commits', 'sessions')")
            assert {"ix_commits_source_session", "ix_sessions_forked_from"}.isdisjoint(
                {row["indexname"] for row in indexes}
            )
        finally:
            await conn.close()
