"""The schema: what the migrations build is what the models say, and its keys guard HEAD."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

import asyncpg
import httpx
import pytest
from advanced_alchemy.base import DefaultBase
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine

from smriti.db.migrate import MIGRATIONS_DIR, MigrationBlockedError, alembic_commands, upgrade
from smriti.db.urls import sqlalchemy_url
from tests.support.api import commit, create_space
from tests.support.cli import smriti
from tests.support.databases import database_at
from tests.support.jumps import expected_jumps
from tests.support.locks import someone_waits_on_a_lock

# The newest migration: an upgrade to "head" ends there.
LATEST = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()


async def test_migrations_build_the_models_schema(database_url: str) -> None:
    engine = create_async_engine(sqlalchemy_url(database_url))
    try:
        async with engine.connect() as conn:

            def differences(sync_conn: Any) -> list[Any]:
                context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                diff = compare_metadata(context, DefaultBase.metadata)
                # Alembic's own bookkeeping table is the one table the models do not describe.
                return [d for d in diff if not (d[0] == "remove_table" and d[1].name == "alembic_version")]

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
    (3.3 s to delete 10,000 Checkpoints among 10,000 Spaces, `make bench-delete`)."""
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


@pytest.fixture
async def database_at_0001(postgres_url: str) -> AsyncIterator[str]:
    """A fresh database with the first schema only, for testing migration 0002 on data."""
    async with database_at(postgres_url, "0001") as url:
        yield url


async def _insert_checkpoint(conn: asyncpg.Connection, space: UUID, parent: UUID | None, message: str) -> UUID:
    """A Checkpoint row as the old schema allows it (any unique hash will do here)."""
    checkpoint: UUID = await conn.fetchval(
        "INSERT INTO commits (id, repo_id, parent_commit_id, commit_hash, message, summary, decisions, "
        "assumptions, tasks, open_questions, entities, artifacts, metadata, created_at) "
        "VALUES (gen_random_uuid(), $1, $2, md5($3) || md5($3 || 'x'), $3, '', '[]', '[]', '[]', '[]', "
        "'[]', '[]', '{}', now()) RETURNING id",
        space,
        parent,
        message,
    )
    return checkpoint


async def _space_with_checkpoints(conn: asyncpg.Connection, name: str, count: int) -> tuple[UUID, UUID]:
    """A Space of `count` chained Checkpoints with HEAD on the last, written as the old schema allows."""
    space: UUID = await conn.fetchval(
        "INSERT INTO repos (id, name, created_at, updated_at) VALUES (gen_random_uuid(), $1, now(), now()) "
        "RETURNING id",
        name,
    )
    parent = None
    for n in range(count):
        parent = await _insert_checkpoint(conn, space, parent, f"{name} {n}")
    await conn.execute("UPDATE repos SET head_commit_id = $1 WHERE id = $2", parent, space)
    assert parent is not None
    return space, parent


async def _heads(conn: asyncpg.Connection) -> dict[UUID, UUID]:
    return {r["id"]: r["head_commit_id"] for r in await conn.fetch("SELECT id, head_commit_id FROM repos")}


async def test_migration_0002_keeps_every_head_up_and_down(database_at_0001: str) -> None:
    conn = await asyncpg.connect(database_at_0001)
    try:
        expected = dict([await _space_with_checkpoints(conn, f"space {n}", 3) for n in range(3)])
        await conn.execute("INSERT INTO repos (id, name, created_at, updated_at) "
                           "VALUES (gen_random_uuid(), 'no HEAD yet', now(), now())")  # fmt: skip
        heads = await _heads(conn)
        assert {k: v for k, v in heads.items() if v is not None} == expected
        for step in (lambda: upgrade(database_at_0001), lambda: alembic_commands(database_at_0001).downgrade("0001")):
            await asyncio.to_thread(step)
            assert await _heads(conn) == heads
        await asyncio.to_thread(upgrade, database_at_0001, "0002")
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0002"
        assert await _heads(conn) == heads
    finally:
        await conn.close()


async def test_migration_0002_names_a_head_from_another_space_and_changes_nothing(database_at_0001: str) -> None:
    conn = await asyncpg.connect(database_at_0001)
    try:
        crossed, _ = await _space_with_checkpoints(conn, "crossed", 1)
        _, foreign_head = await _space_with_checkpoints(conn, "other", 1)
        await conn.execute("UPDATE repos SET head_commit_id = $1 WHERE id = $2", foreign_head, crossed)
        with pytest.raises(RuntimeError, match=str(crossed)):
            await asyncio.to_thread(upgrade, database_at_0001)
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0001"
    finally:
        await conn.close()


async def test_migration_0002_waits_for_a_commit_in_flight_instead_of_deadlocking(database_at_0001: str) -> None:
    """A server still running (an older one, during an upgrade) can be committing while another
    migrates. A commit holds its Space's row, then writes a Checkpoint; the migration must take
    its locks in that order too, or the two deadlock and one of them fails."""
    conn, writer = await asyncpg.connect(database_at_0001), await asyncpg.connect(database_at_0001)
    try:
        space, head = await _space_with_checkpoints(conn, "busy", 1)
        async with writer.transaction():
            await writer.execute("SELECT 1 FROM repos WHERE id = $1 FOR UPDATE", space)
            await writer.execute("UPDATE repos SET updated_at = now() WHERE id = $1", space)
            migration = asyncio.create_task(asyncio.to_thread(upgrade, database_at_0001))
            await someone_waits_on_a_lock(conn)
            new_head = await _insert_checkpoint(writer, space, head, "in flight")
            await writer.execute("UPDATE repos SET head_commit_id = $1 WHERE id = $2", new_head, space)
        await migration
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == LATEST
        assert await _heads(conn) == {space: new_head}
    finally:
        await conn.close()
        await writer.close()


@asynccontextmanager
async def _migrating_while_held(
    url: str, table: str, conn: asyncpg.Connection, *, lock_timeout_s: float = 0.3
) -> AsyncIterator[asyncio.Task[None]]:
    """An open transaction has read `table`, and a migration queues behind it; the transaction
    ends with the block."""
    holder = await asyncpg.connect(url)
    try:
        async with holder.transaction():
            await holder.execute(f"SELECT 1 FROM {table}")
            migration = asyncio.create_task(asyncio.to_thread(upgrade, url, lock_timeout_s=lock_timeout_s))
            await someone_waits_on_a_lock(conn)
            yield migration
    finally:
        await holder.close()


async def test_a_migration_blocked_by_a_long_transaction_steps_back_and_changes_nothing(database_at_0001: str) -> None:
    """While the migration waits for a table, every request on it queues behind the migration; it
    must give way after its lock timeout, so that a transaction left open somewhere (a console,
    a stuck job) cannot stall the service, and leave the schema as it was."""
    conn, reader = await asyncpg.connect(database_at_0001), await asyncpg.connect(database_at_0001)
    try:
        space, head = await _space_with_checkpoints(conn, "held", 1)
        await reader.execute("SET statement_timeout = '3s'")
        async with _migrating_while_held(database_at_0001, "repos", conn, lock_timeout_s=1.0) as migration:
            # The read queues behind the migration's lock request (checked: two sessions wait).
            # Without the timeout it waited for the holder, i.e. forever, and the statement
            # timeout stopped it.
            read = asyncio.create_task(reader.fetchval("SELECT count(*) FROM repos"))
            await someone_waits_on_a_lock(conn, sessions=2)
            assert await read == 1
            with pytest.raises(MigrationBlockedError, match=r"changed nothing.*SMRITI_MIGRATION_LOCK_TIMEOUT"):
                await migration
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0001"
        assert not await conn.fetchval("SELECT count(*) FROM pg_constraint WHERE conname = 'uq_commits_repo_id_id'")
        assert await _heads(conn) == {space: head}
    finally:
        await conn.close()
        await reader.close()


async def test_db_upgrade_says_when_a_long_transaction_blocked_it(database_at_0001: str) -> None:
    conn, holder = await asyncpg.connect(database_at_0001), await asyncpg.connect(database_at_0001)
    try:
        async with holder.transaction():
            await holder.execute("SELECT 1 FROM repos")
            env = {"DATABASE_URL": database_at_0001, "SMRITI_MIGRATION_LOCK_TIMEOUT": "0.2"}
            started = time.monotonic()
            result = await asyncio.to_thread(smriti, "db", "upgrade", env=env)
            took = time.monotonic() - started
        assert result.code == 1
        assert took < 12, "the setting was not used: the default (5 s) takes three times that and more"
        assert result.error_line().startswith(
            "Error: The migration to head stopped and changed nothing: 3 times it waited 0.2 s"
        )
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0001"
    finally:
        await conn.close()
        await holder.close()


async def test_a_blocked_migration_tries_again_and_succeeds_once_the_table_is_free(database_at_0001: str) -> None:
    conn = await asyncpg.connect(database_at_0001)
    try:
        space, head = await _space_with_checkpoints(conn, "briefly held", 2)
        async with _migrating_while_held(database_at_0001, "commits", conn) as migration:
            await asyncio.sleep(0.5)  # past the first attempt's timeout
        await migration
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == LATEST
        assert await _heads(conn) == {space: head}
    finally:
        await conn.close()


@pytest.fixture
async def database_at_0003(postgres_url: str) -> AsyncIterator[str]:
    async with database_at(postgres_url, "0003") as url:
        yield url


async def test_migration_0004_gives_every_space_a_main_line_at_its_head(database_at_0003: str) -> None:
    conn = await asyncpg.connect(database_at_0003)
    try:
        spaces = dict([await _space_with_checkpoints(conn, f"space {n}", n + 2) for n in range(3)])
        for space in spaces:
            await conn.execute(
                "UPDATE repos SET commit_count = (SELECT count(*) FROM commits WHERE repo_id = $1), "
                "head_commit_hash = (SELECT commit_hash FROM commits c WHERE c.id = repos.head_commit_id) "
                "WHERE id = $1",
                space,
            )
        empty = await conn.fetchval(
            "INSERT INTO repos (id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'empty', now(), now()) "
            "RETURNING id"
        )
        await asyncio.to_thread(upgrade, database_at_0003)
        lines = {
            r["repo_id"]: r
            for r in await conn.fetch(
                "SELECT b.repo_id, b.name, b.is_default, b.head_commit_id, b.head_depth, b.commit_count, "
                "b.head_commit_hash = r.head_commit_hash AS same_hash FROM branches b JOIN repos r ON r.id = b.repo_id"
            )
        }
        assert set(lines) == {*spaces, empty}
        for n, (space, head) in enumerate(spaces.items()):
            line = lines[space]
            assert (line["name"], line["is_default"], line["head_commit_id"]) == ("main", True, head)
            assert (line["head_depth"], line["commit_count"], line["same_hash"]) == (n + 1, n + 2, True)
            depths = await conn.fetch("SELECT depth FROM commits WHERE repo_id = $1 ORDER BY depth", space)
            assert [r["depth"] for r in depths] == list(range(n + 2))
        assert (lines[empty]["head_commit_id"], lines[empty]["commit_count"]) == (None, 0)
        # A Space inserted afterwards, however, gets its main line from the trigger.
        later = await conn.fetchval(
            "INSERT INTO repos (id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'later', now(), now()) "
            "RETURNING id"
        )
        assert await conn.fetchval("SELECT name FROM branches WHERE repo_id = $1 AND is_default", later) == "main"
        await asyncio.to_thread(lambda: alembic_commands(database_at_0003).downgrade("0003"))
        counts = {r["id"]: r["commit_count"] for r in await conn.fetch("SELECT id, commit_count FROM repos")}
        assert counts == {**{space: n + 2 for n, space in enumerate(spaces)}, empty: 0, later: 0}
    finally:
        await conn.close()


@pytest.fixture
async def database_at_0006(postgres_url: str) -> AsyncIterator[str]:
    async with database_at(postgres_url, "0006") as url:
        yield url


async def test_migration_0007_gives_every_checkpoint_the_jump_link_a_write_would(database_at_0006: str) -> None:
    conn = await asyncpg.connect(database_at_0006)
    try:
        space, head = await _space_with_checkpoints(conn, "long", 40)
        parents = {r["id"]: r["parent_commit_id"] for r in await conn.fetch("SELECT id, parent_commit_id FROM commits")}
        # Branches off the chain at several depths, and a second root.
        for start in list(parents)[::7]:
            node = start
            for n in range(9):
                node = await _insert_checkpoint(conn, space, node, f"from {start} {n}")
        node = None
        for n in range(3):
            node = await _insert_checkpoint(conn, space, node, f"root two {n}")
        parents = {r["id"]: r["parent_commit_id"] for r in await conn.fetch("SELECT id, parent_commit_id FROM commits")}
        # Two merges on the main chain: every Checkpoint after each counts it.
        chain: list[UUID] = [head]
        while (parent := parents[chain[-1]]) is not None:
            chain.append(parent)
        merges = [chain[-11], chain[-31]]
        await conn.execute("UPDATE commits SET merge_parent_id = $1 WHERE id = ANY($2)", node, merges)
        await conn.execute("UPDATE branches SET head_commit_id = $1 WHERE repo_id = $2", head, space)
        await asyncio.to_thread(upgrade, database_at_0006)
        rows = await conn.fetch("SELECT id, jump_commit_id, jump_depth, first_parent_merges FROM commits")
        assert {r["id"]: (r["jump_commit_id"], r["jump_depth"]) for r in rows} == expected_jumps(parents)
        counted = {r["id"]: r["first_parent_merges"] for r in rows}
        assert counted[head] == 2
        assert [counted[merges[0]], counted[merges[1]], counted[parents[merges[0]]]] == [1, 2, 0]
        assert counted[node] == 0
        assert len(rows) == 40 + 6 * 9 + 3
        # The line keeps its HEAD's chain of jumps, to the root, and its merge count.
        jumps = expected_jumps(parents)
        chain_of_head = [jumps[head][0]]
        while jumps[chain_of_head[-1]][0] != chain_of_head[-1]:
            chain_of_head.append(jumps[chain_of_head[-1]][0])
        line = await conn.fetchrow("SELECT head_jumps, head_merges FROM branches WHERE repo_id = $1", space)
        assert line is not None
        assert (line["head_jumps"], line["head_merges"]) == (chain_of_head, 2)
        # So does the first line of a Space made with a HEAD (rolled back: the Checkpoint is
        # another Space's, which the deferred key would refuse at the end of the transaction).
        made_with_head = conn.transaction()
        await made_with_head.start()
        made = await conn.fetchval(
            "INSERT INTO repos (id, name, head_commit_id, head_commit_hash, created_at, updated_at) "
            "SELECT gen_random_uuid(), 'made with a head', id, commit_hash, now(), now() FROM commits "
            "WHERE id = $1 RETURNING id",
            head,
        )
        line = await conn.fetchrow("SELECT head_jumps, head_merges FROM branches WHERE repo_id = $1", made)
        await made_with_head.rollback()
        assert line is not None
        assert (line["head_jumps"], line["head_merges"]) == (chain_of_head, 2)
        await asyncio.to_thread(lambda: alembic_commands(database_at_0006).downgrade("0006"))
        columns = "SELECT count(*) FROM information_schema.columns WHERE column_name = 'jump_depth'"
        assert await conn.fetchval(columns) == 0
    finally:
        await conn.close()


async def test_migration_0010_counts_what_each_sessions_replies_cost(postgres_url: str) -> None:
    async with database_at(postgres_url, "0009") as url:
        conn = await asyncpg.connect(url)
        try:
            space = await conn.fetchval(
                "INSERT INTO repos (id, name, created_at, updated_at) "
                "VALUES (gen_random_uuid(), 'usage', now(), now()) RETURNING id"
            )
            sessions = []
            for title, count in (("counted", 4), ("mixed", 4), ("empty", 0)):
                sessions.append(
                    await conn.fetchval(
                        "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
                        "VALUES (gen_random_uuid(), $1, $2, $3, now(), now()) RETURNING id",
                        space,
                        title,
                        count,
                    )
                )
            counted, mixed, empty = sessions
            rows = [
                (counted, 1, "user", None, None),
                (counted, 2, "assistant", 10, 3),
                (counted, 3, "user", None, None),
                (counted, 4, "assistant", 20, 5),
                (mixed, 1, "user", None, None),
                (mixed, 2, "assistant", 7, None),  # no output count: uncounted, its input still summed
                (mixed, 3, "user", None, None),
                (mixed, 4, "assistant", None, None),
            ]
            await conn.executemany(
                "INSERT INTO turns (session_id, sequence_number, role, content, input_tokens, output_tokens) "
                "VALUES ($1, $2, $3, 'x', $4, $5)",
                rows,
            )
            await asyncio.to_thread(upgrade, url)
            usage = {
                r["id"]: (r["input_tokens"], r["output_tokens"], r["uncounted_replies"])
                for r in await conn.fetch("SELECT id, input_tokens, output_tokens, uncounted_replies FROM sessions")
            }
            assert usage == {counted: (30, 8, 0), mixed: (7, 0, 2), empty: (0, 0, 0)}
            await asyncio.to_thread(lambda: alembic_commands(url).downgrade("0009"))
            columns = "SELECT count(*) FROM information_schema.columns WHERE column_name = 'uncounted_replies'"
            assert await conn.fetchval(columns) == 0
        finally:
            await conn.close()
