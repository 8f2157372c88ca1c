"""Migration 0015: every line gets its name's key, and lines whose names already look alike stay,
one of them renamed where the upgrade says so."""

from __future__ import annotations

import asyncio
import datetime
import uuid

import asyncpg
import pytest
from structlog.testing import capture_logs

from smriti.db.migrate import alembic_commands, upgrade
from tests.support.databases import database_at

_INSERT_LINE = """
INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth, commit_count,
                      created_at, updated_at)
VALUES ($1, $2, $3, $4, NULL, NULL, NULL, 0, $5, $5)
"""
_T0 = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)


async def _space(conn: asyncpg.Connection, name: str) -> uuid.UUID:
    space = uuid.uuid4()
    await conn.execute(
        "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, $2, '', $3, $3)",
        space,
        name,
        _T0,
    )
    return space


async def _lines(conn: asyncpg.Connection, space: uuid.UUID, *names: str, default: str | None = None) -> None:
    """Lines made in this order, a minute apart, after the Space's `main`."""
    for minute, name in enumerate(names, start=1):
        await conn.execute(_INSERT_LINE, uuid.uuid4(), space, name, False, _T0 + datetime.timedelta(minutes=minute))
    if default is not None:
        await conn.execute("UPDATE branches SET is_default = (name = $2) WHERE repo_id = $1", space, default)


async def _names(conn: asyncpg.Connection, space: uuid.UUID) -> dict[str, str | None]:
    rows = await conn.fetch("SELECT name, name_key FROM branches WHERE repo_id = $1", space)
    return {row["name"]: row["name_key"] for row in rows}


async def test_migration_0015_keys_every_line_and_renames_only_lines_that_look_alike(postgres_url: str) -> None:
    async with database_at(postgres_url, "0014") as url:
        conn = await asyncpg.connect(url)
        try:
            space = await _space(conn, "Old names")
            # `café` composed (older) and decomposed, with a line already named `café (2)`; two
            # spellings of `a b`, the younger of them the default; a name shaped like a hash.
            await _lines(
                conn,
                space,
                "caf\u00e9",
                "cafe\u0301",
                "caf\u00e9 (2)",
                "a b",
                "a\u00a0b",
                "deadbeef1",
                default="a\u00a0b",
            )
            other = await _space(conn, "Another")
            await _lines(conn, other, "cafe\u0301")
            before = await conn.fetchval("SELECT count(*) FROM branches")

            with capture_logs() as logs:
                await asyncio.to_thread(upgrade, url)

            assert await conn.fetchval("SELECT count(*) FROM branches") == before  # no line lost
            assert await _names(conn, space) == {
                "main": "main",
                "caf\u00e9": "caf\u00e9",
                "cafe\u0301 (3)": "caf\u00e9 (3)",  # (2) was taken by a line of its own
                "caf\u00e9 (2)": "caf\u00e9 (2)",
                "a b (2)": "a b (2)",  # the default line kept its name, although it was younger
                "a\u00a0b": "a b",
                "deadbeef1": "deadbeef1",  # named before the rule: kept (docs/merge.md)
            }
            assert await _names(conn, other) == {"main": "main", "cafe\u0301": "caf\u00e9"}
            warnings = sorted((log["old_name"], log["new_name"]) for log in logs if log["log_level"] == "warning")
            assert warnings == [("a b", "a b (2)"), ("cafe\u0301", "cafe\u0301 (3)")]
            assert all(log["space_id"] == str(space) for log in logs if log["log_level"] == "warning")

            with pytest.raises(asyncpg.UniqueViolationError, match="uq_branches_repo_id_name_key"):
                await conn.execute(
                    "INSERT INTO branches (id, repo_id, name, name_key, is_default, commit_count, created_at, "
                    "updated_at) VALUES ($1, $2, 'CAFÉ', 'caf\u00e9', false, 0, now(), now())",
                    uuid.uuid4(),
                    space,
                )
            new = await _space(conn, "Made after")  # the trigger's `main` has its key
            assert await _names(conn, new) == {"main": "main"}

            await asyncio.to_thread(lambda: alembic_commands(url).downgrade("0014"))
            columns = (
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'branches' AND column_name = $1"
            )
            assert await conn.fetchval(columns, "name_key") == 0
            indexes = await conn.fetch("SELECT indexname FROM pg_indexes WHERE tablename = 'branches'")
            assert "uq_branches_repo_id_name" in {row["indexname"] for row in indexes}
            assert "a b (2)" in {row["name"] for row in await conn.fetch("SELECT name FROM branches")}
            await _space(conn, "Made after the downgrade")  # the trigger works without the column
        finally:
            await conn.close()
