"""The provider's time is not the database's: no connection is held while a provider thinks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space
from tests.support.fake_providers import FakeProviderServer
from tests.support.locks import someone_waits_on_a_lock


async def test_a_slow_provider_does_not_hold_a_pool_connection(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, db_pool_size=1, provider_timeout_s=5.0) as client:
        space = await create_space(client)
        await commit(client, space["id"], "state")
        session = await create_session(client, space["id"])
        fake_providers.state.mode = "hang"
        fake_providers.state.hang_seconds = 1.5
        pending = asyncio.create_task(
            client.post("/v4/chat/send", json={"session_id": session["id"], "content": "slow", "provider": "openai"})
        )
        await asyncio.sleep(0.3)
        assert not pending.done()
        for _ in range(5):
            started = time.monotonic()
            head = await client.get(f"/v4/repos/{space['id']}/head")
            assert head.status_code == 200
            assert time.monotonic() - started < 0.5
        assert not pending.done(), "the provider should still be thinking"
        response = await pending
        assert response.status_code == 201


async def test_shutdown_closes_every_database_connection(settings: Settings, db: asyncpg.Connection) -> None:
    """Of every app a process makes, not only the first (the ORM library only closed the first's)."""
    count = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    before = await db.fetchval(count)
    for name in ("first", "second"):
        async with make_client(settings) as client:
            space = await create_space(client, name)  # the ORM's connections
            assert (await client.get(f"/v4/repos/{space['id']}/head")).status_code == 404  # the lean pool's
            assert await db.fetchval(count) > before
        assert await db.fetchval(count) == before, f"the {name} app left connections open"


@asynccontextmanager
async def _space_locked(db: asyncpg.Connection, space_id: str) -> AsyncIterator[None]:
    """Hold the Space's row lock, as a concurrent commit would, until the block ends."""
    async with db.transaction():
        await db.execute("SELECT 1 FROM repos WHERE id = $1 FOR UPDATE", space_id)
        yield


async def test_a_statement_stuck_on_a_lock_is_a_503_and_writes_nothing(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """A commit waiting on a Space someone else holds gives up after the statement timeout."""
    async with make_client(settings, db_statement_timeout_s=0.5) as client:
        space = await create_space(client)
        await commit(client, space["id"], "before")
        async with _space_locked(db, space["id"]):
            started = time.monotonic()
            stuck = await asyncio.wait_for(
                client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "stuck"}), timeout=10
            )
            assert 0.5 <= time.monotonic() - started < 3
        assert stuck.status_code == 503
        assert "SMRITI_DB_STATEMENT_TIMEOUT" in stuck.json()["detail"]
        log = (await client.get(f"/v4/repos/{space['id']}/commits")).json()
        assert [c["message"] for c in log["items"]] == ["before"], "the timed-out commit wrote nothing"
        after = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "after"})
        assert after.status_code == 201, after.text


async def test_a_commit_chosen_as_a_deadlock_victim_is_a_503_and_writes_nothing(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """PostgreSQL ends one side of a deadlock; that request rolled back, so it is a 'retry', not a bug."""
    async with make_client(settings) as client:
        space = await create_space(client)
        await commit(client, space["id"], "before")
        # The request waits first, so its deadlock check (after PostgreSQL's deadlock_timeout, 1 s)
        # runs first and rolls it back. A role allowed to can also keep this side from checking
        # at all; any other relies on the order alone.
        if await db.fetchval("SELECT has_parameter_privilege('deadlock_timeout', 'SET')"):
            await db.execute("SET deadlock_timeout = '60s'")
        async with _space_locked(db, space["id"]):
            # The commit statement holds its lock on the commits table while it waits for the Space...
            victim = asyncio.create_task(
                client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "victim"})
            )
            await someone_waits_on_a_lock(db)
            # ...and this waits for that lock: a cycle, which PostgreSQL breaks after deadlock_timeout.
            await asyncio.wait_for(db.execute("LOCK TABLE commits IN SHARE MODE"), timeout=10)
        response = await victim
        assert response.status_code == 503, response.text
        assert "deadlock" in response.json()["detail"]
        log = (await client.get(f"/v4/repos/{space['id']}/commits")).json()
        assert [c["message"] for c in log["items"]] == ["before"], "the rolled-back commit wrote nothing"
        assert (
            await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "after"})
        ).status_code == 201


async def test_no_free_connection_within_the_acquire_timeout_is_a_503(
    settings: Settings, db: asyncpg.Connection
) -> None:
    async with make_client(settings, db_pool_size=1, db_acquire_timeout_s=0.3) as client:
        space = await create_space(client)
        await commit(client, space["id"], "state")
        async with _space_locked(db, space["id"]):
            # The one lean-pool connection waits on this lock; HEAD then has no connection to use.
            blocked = asyncio.create_task(
                client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "waits"})
            )
            await someone_waits_on_a_lock(db)
            started = time.monotonic()
            head = await client.get(f"/v4/repos/{space['id']}/head")
            waited = time.monotonic() - started
        assert head.status_code == 503
        assert "SMRITI_DB_ACQUIRE_TIMEOUT" in head.json()["detail"]
        assert 0.3 <= waited < 2
        assert (await blocked).status_code == 201, "the request holding the connection still completes"
        assert (await client.get(f"/v4/repos/{space['id']}/head")).status_code == 200


async def test_no_free_orm_connection_within_the_acquire_timeout_is_a_503(
    settings: Settings, db: asyncpg.Connection
) -> None:
    async with make_client(settings, db_pool_size=1, db_acquire_timeout_s=0.3) as client:
        space = await create_space(client, "old name")
        async with _space_locked(db, space["id"]):
            # The one ORM connection waits on this lock; listing Spaces then has none to use.
            rename = asyncio.create_task(client.patch(f"/v4/repos/{space['id']}", json={"name": "new name"}))
            await someone_waits_on_a_lock(db)
            listed = await client.get("/v4/repos")
        assert listed.status_code == 503, listed.text
        assert "SMRITI_DB_ACQUIRE_TIMEOUT" in listed.json()["detail"]
        assert (await rename).status_code == 200
        assert (await client.get("/v4/repos")).json()["items"][0]["name"] == "new name"


async def test_an_orm_statement_stuck_on_a_lock_is_a_503_too(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, db_statement_timeout_s=0.5) as client:
        space = await create_space(client, "old name")
        async with _space_locked(db, space["id"]):
            renamed = await asyncio.wait_for(
                client.patch(f"/v4/repos/{space['id']}", json={"name": "new name"}), timeout=10
            )
        assert renamed.status_code == 503, renamed.text
        assert "SMRITI_DB_STATEMENT_TIMEOUT" in renamed.json()["detail"]
        assert (await client.get(f"/v4/repos/{space['id']}")).json()["name"] == "old name"
