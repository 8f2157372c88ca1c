"""The lean connection pool: bounded, and never hands out a connection in an unknown state."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from smriti.db.admin import with_database
from smriti.db.pool import Pool, PoolTimeout, connect_options, create_pool
from smriti.db.urls import asyncpg_url


class CountingConnect:
    """Opens real connections and counts them; `fail_next` makes the next attempt fail, `slow_next`
    makes it take that many seconds first."""

    def __init__(self, url: str) -> None:
        self.url = asyncpg_url(url)
        self.opened = 0
        self.fail_next = False
        self.slow_next = 0.0

    async def __call__(self) -> asyncpg.Connection:
        if self.fail_next:
            self.fail_next = False
            raise ConnectionRefusedError("refused on purpose")
        delay, self.slow_next = self.slow_next, 0.0
        if delay:
            await asyncio.sleep(delay)
        self.opened += 1
        return await asyncpg.connect(self.url)


@pytest.fixture
async def connect(database_url: str) -> CountingConnect:
    return CountingConnect(database_url)


@asynccontextmanager
async def open_pool(connect: CountingConnect, **options: Any) -> AsyncIterator[Pool]:
    pool = Pool(connect, **options)
    try:
        yield pool
    finally:
        await pool.close()


@pytest.fixture
async def pool(connect: CountingConnect) -> AsyncIterator[Pool]:
    async with open_pool(connect, size=3) as pool:
        yield pool


async def _backend_pid(pool: Pool) -> int:
    pid: int = await pool.fetchval("SELECT pg_backend_pid()")
    return pid


async def test_never_more_than_size_connections(pool: Pool, connect: CountingConnect) -> None:
    busiest = 0

    async def query(n: int) -> int:
        nonlocal busiest
        async with pool.acquire() as conn:
            busiest = max(busiest, pool.open_connections)
            value: int = await conn.fetchval("SELECT $1::int FROM pg_sleep(0.01)", n)
            return value

    assert await asyncio.gather(*(query(n) for n in range(40))) == list(range(40))
    assert busiest == 3
    assert connect.opened == 3, "connections are reused, not reopened"


async def test_a_postgres_error_keeps_the_connection(pool: Pool, connect: CountingConnect) -> None:
    pid = await _backend_pid(pool)
    with pytest.raises(asyncpg.DivisionByZeroError):
        await pool.fetchval("SELECT 1 / 0")
    assert await _backend_pid(pool) == pid
    assert connect.opened == 1


async def _statement_stops(pool: Pool, statement: str) -> None:
    """Wait until no backend is running `statement` any more: the server got the cancel."""
    for _ in range(40):
        running = await pool.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query = $1", statement
        )
        if running == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{statement!r} is still running on the server")


async def _settled(pool: Pool, expected_open: int) -> None:
    for _ in range(40):
        if pool.open_connections == expected_open:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{pool.open_connections} connections open, expected {expected_open}")


async def test_a_cancelled_query_is_stopped_and_never_reaches_the_next_caller(pool: Pool) -> None:
    slow = asyncio.create_task(pool.fetchval("SELECT pg_sleep(5)"))
    await asyncio.sleep(0.2)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    # The interrupted connection is busy until the server acknowledges the cancel; the next
    # caller gets another one at once, and the server stops the statement.
    started = asyncio.get_running_loop().time()
    assert await pool.fetchval("SELECT 41 + 1") == 42
    assert asyncio.get_running_loop().time() - started < 2
    await _statement_stops(pool, "SELECT pg_sleep(5)")
    await _settled(pool, 2)
    # Both connections are usable again, one after the other and at once.
    assert await asyncio.gather(*(pool.fetchval("SELECT $1::int FROM pg_sleep(0.05)", n) for n in range(3))) == [
        0,
        1,
        2,
    ]


async def test_a_timed_out_query_is_stopped(pool: Pool) -> None:
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(pool.fetchval("SELECT pg_sleep(4)"), timeout=0.2)
    await _statement_stops(pool, "SELECT pg_sleep(4)")
    assert await pool.fetchval("SELECT 1") == 1
    assert pool.open_connections <= 2


async def test_idle_connections_are_replaced_after_a_while(connect: CountingConnect) -> None:
    async with open_pool(connect, size=2, max_idle_seconds=0.1) as pool:
        first = await _backend_pid(pool)
        assert await _backend_pid(pool) == first
        await asyncio.sleep(0.2)
        assert await _backend_pid(pool) != first
        assert pool.open_connections == 1


async def test_a_connection_left_in_a_transaction_is_dropped(pool: Pool) -> None:
    async with pool.acquire() as conn:
        await conn.execute("BEGIN")
        await conn.execute("CREATE TEMPORARY TABLE leftover (x int)")
        left_pid = await conn.fetchval("SELECT pg_backend_pid()")
    async with pool.acquire() as conn:
        assert not conn.is_in_transaction()
        assert await conn.fetchval("SELECT pg_backend_pid()") != left_pid
        assert await conn.fetchval("SELECT to_regclass('pg_temp.leftover')") is None


async def test_connections_killed_by_the_server_are_replaced(pool: Pool, database_url: str) -> None:
    pids = await asyncio.gather(*(_query_pid_slowly(pool) for _ in range(3)))
    assert len(set(pids)) == 3
    admin = await asyncpg.connect(asyncpg_url(database_url))
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", pids)
    finally:
        await admin.close()
    await asyncio.sleep(0.3)  # the server's goodbye reaches the idle connections
    assert await pool.fetchval("SELECT 7") == 7
    assert await _backend_pid(pool) not in pids


async def _query_pid_slowly(pool: Pool) -> int:
    pid: int = await pool.fetchval("SELECT pg_backend_pid() FROM pg_sleep(0.05)")
    return pid


async def test_a_waiter_cancelled_as_it_is_handed_a_connection_gives_it_back(
    connect: CountingConnect,
) -> None:
    async with open_pool(connect, size=1) as pool:
        async with pool.acquire():
            waiter = asyncio.create_task(pool.fetchval("SELECT 1"))
            await asyncio.sleep(0.05)  # it is queued for the only connection
            assert not waiter.done()
        # The connection was handed to the waiter when the block ended; cancel it before it runs.
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert await asyncio.wait_for(pool.fetchval("SELECT 2"), timeout=2) == 2
        assert pool.open_connections == 1
        assert connect.opened == 1


async def test_a_cancelled_waiter_passes_on_the_place_it_was_given(connect: CountingConnect) -> None:
    async with open_pool(connect, size=1) as pool:
        async with pool.acquire() as conn:
            first = asyncio.create_task(pool.fetchval("SELECT 1"))
            second = asyncio.create_task(pool.fetchval("SELECT 2"))
            await asyncio.sleep(0.05)
            conn.terminate()  # dropped on release: its place goes to the first waiter
        first.cancel()  # before it runs: the place must reach the second waiter
        with pytest.raises(asyncio.CancelledError):
            await first
        assert await asyncio.wait_for(second, timeout=2) == 2
        assert pool.open_connections == 1


async def test_a_waiter_gives_up_after_the_acquire_timeout(connect: CountingConnect) -> None:
    async with open_pool(connect, size=1, acquire_timeout=0.2) as pool:
        async with pool.acquire() as conn:
            holder = await conn.fetchval("SELECT pg_backend_pid()")
            started = asyncio.get_running_loop().time()
            with pytest.raises(PoolTimeout, match=r"within 0\.2 s"):
                await pool.fetchval("SELECT 1")
            assert 0.2 <= asyncio.get_running_loop().time() - started < 1
            late = asyncio.create_task(pool.fetchval("SELECT pg_backend_pid()"))
            await asyncio.sleep(0.05)
        # The connection goes to the waiter still waiting, not to the one that gave up.
        assert await late == holder
        assert pool.open_connections == 1
        assert connect.opened == 1


async def test_a_waiter_handed_a_place_opens_its_connection_within_its_own_deadline(
    connect: CountingConnect,
) -> None:
    loop = asyncio.get_running_loop()
    async with open_pool(connect, size=1, acquire_timeout=0.5) as pool:
        async with pool.acquire() as conn:
            started = loop.time()
            waiter = asyncio.create_task(pool.fetchval("SELECT 1"))
            await asyncio.sleep(0.4)
            connect.slow_next = 2.0
            conn.terminate()  # dropped on release: the waiter gets its place and must connect
        # A slow connect is the database being slow, not the pool being busy: "unavailable".
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(waiter, timeout=5)
        # Its own deadline is 0.5 s after it queued; a fresh timeout for the connect would be ~0.9 s.
        assert 0.49 <= loop.time() - started < 0.8
        assert pool.open_connections == 0  # the abandoned connect gave its place back
        assert await pool.fetchval("SELECT 2") == 2


async def test_waiters_that_queued_later_give_up_later(connect: CountingConnect) -> None:
    loop = asyncio.get_running_loop()

    async def gives_up_after(pool: Pool) -> float:
        started = loop.time()
        with pytest.raises(PoolTimeout):
            await pool.fetchval("SELECT 1")
        return loop.time() - started

    async with open_pool(connect, size=1, acquire_timeout=0.2) as pool:
        async with pool.acquire():
            first = asyncio.create_task(gives_up_after(pool))
            await asyncio.sleep(0.1)
            second = asyncio.create_task(gives_up_after(pool))
            waited = await asyncio.wait_for(asyncio.gather(first, second), timeout=3)
        assert all(0.19 <= seconds < 0.6 for seconds in waited), waited
        assert await pool.fetchval("SELECT 2") == 2
        assert pool.open_connections == 1


async def test_a_cancelled_waiter_does_not_stop_the_timeouts_behind_it(connect: CountingConnect) -> None:
    async with open_pool(connect, size=1, acquire_timeout=0.1) as pool:
        async with pool.acquire():
            cancelled = asyncio.create_task(pool.fetchval("SELECT 1"))
            behind = asyncio.create_task(pool.fetchval("SELECT 2"))
            await asyncio.sleep(0.01)
            cancelled.cancel()
            with pytest.raises(PoolTimeout):
                await asyncio.wait_for(behind, timeout=2)
        assert cancelled.cancelled()
        assert pool.open_connections == 1


async def test_waiters_are_refused_when_the_pool_closes(connect: CountingConnect) -> None:
    pool = Pool(connect, size=1)
    async with pool.acquire():
        waiter = asyncio.create_task(pool.fetchval("SELECT 1"))
        await asyncio.sleep(0.05)
        await pool.close()
        with pytest.raises(asyncpg.InterfaceError):
            await waiter
    assert pool.open_connections == 0


async def test_a_failed_connect_frees_its_place(connect: CountingConnect) -> None:
    async with open_pool(connect, size=1) as pool:
        connect.fail_next = True
        with pytest.raises(ConnectionRefusedError):
            await pool.fetchval("SELECT 1")
        assert pool.open_connections == 0
        assert await pool.fetchval("SELECT 3") == 3


async def test_a_closed_pool_refuses_and_closes_what_comes_back(pool: Pool) -> None:
    async with pool.acquire() as conn:
        await pool.close()
        assert await conn.fetchval("SELECT 1") == 1  # in use: closed when released
    assert conn.is_closed()
    assert pool.open_connections == 0
    with pytest.raises(asyncpg.InterfaceError):
        await pool.fetchval("SELECT 1")


async def test_create_pool_fails_at_once_on_a_wrong_url(database_url: str) -> None:
    wrong = with_database(database_url, "no_such_database")
    with pytest.raises(asyncpg.InvalidCatalogNameError):
        await create_pool(wrong, size=2)
    pool = await create_pool(database_url, size=2)
    try:
        assert pool.open_connections == 1
        assert await pool.fetchval("SELECT '{\"a\": 1}'::jsonb") == {"a": 1}
    finally:
        await pool.close()


async def test_a_server_that_never_answers_a_connect_fails_within_the_acquire_timeout() -> None:
    accepted: list[asyncio.StreamWriter] = []

    async def silent(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # accept the TCP connection, never say a word

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    started = asyncio.get_running_loop().time()
    try:
        with pytest.raises(TimeoutError):
            await create_pool(f"postgresql://smriti@127.0.0.1:{port}/smriti", size=1, acquire_timeout=0.3)
        assert asyncio.get_running_loop().time() - started < 2
        assert accepted, "the pool did reach the server"
    finally:
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_postgresql_itself_stops_a_statement_past_the_statement_timeout(database_url: str) -> None:
    pool = await create_pool(database_url, size=1, statement_timeout=0.3)
    try:
        assert await pool.fetchval("SHOW statement_timeout") == "300ms"
        pid = await _backend_pid(pool)
        with pytest.raises(asyncpg.QueryCanceledError):
            await pool.fetchval("SELECT pg_sleep(2)")
        assert await _backend_pid(pool) == pid, "stopped by the server, the connection stays usable"
    finally:
        await pool.close()


async def test_postgresql_ends_a_transaction_left_idle_past_the_statement_timeout(
    database_url: str, db: asyncpg.Connection
) -> None:
    """A process that stops mid-transaction must not hold its locks for ever."""
    pool = await create_pool(database_url, size=1, idle_in_transaction_timeout=0.3)
    try:
        async with pool.acquire() as conn:
            await conn.execute("BEGIN")
            await conn.execute("LOCK TABLE repos IN ROW EXCLUSIVE MODE")
            await asyncio.sleep(1.0)  # idle inside the transaction, as a stopped process would be
            # The server has ended that session and released its lock: a conflicting lock is free.
            async with db.transaction():
                await db.execute("SET LOCAL lock_timeout = '1s'")
                await db.execute("LOCK TABLE repos IN EXCLUSIVE MODE")
            with pytest.raises((asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
                await conn.fetchval("SELECT 1")
        assert await pool.fetchval("SELECT 2") == 2, "the pool replaced the ended connection"
    finally:
        await pool.close()


def test_the_idle_in_transaction_limit_is_never_shorter_than_a_minute_by_default() -> None:
    """A short statement timeout must not make a request that pauses briefly (a stalled event
    loop between an ORM request's last query and its commit) lose its transaction."""
    for statement_timeout, expected in ((0.5, "60000"), (30, "60000"), (120, "120000")):
        options = connect_options(acquire_timeout_s=10, statement_timeout_s=statement_timeout)
        assert options["server_settings"]["idle_in_transaction_session_timeout"] == expected
