"""The lean connection pool behind the hot paths (HEAD, a Checkpoint, the log, context, send, commit).

SQLAlchemy's async session costs three round trips per read (BEGIN, query, ROLLBACK) and several
hundred microseconds of CPU, so the hottest paths use asyncpg directly. asyncpg's own pool then
cost more than the query's Python side: a queue, a proxy object per acquire, a shielded release
task and timers, about 120k instructions per acquire and release (`make bench-instructions`: HEAD
430k → 310k with this pool). `Pool` keeps idle connections on a stack and hands them over directly.

What it must still get right, each with a test in `test_pool.py`:

- at most `size` connections, opened when needed;
- a connection that may be unusable is never handed out again: closed, left inside a transaction,
  or whose query was interrupted (cancelled, timed out, broken), where asyncpg may still be
  waiting for the server. It is terminated and its place freed for a fresh one;
- a waiter that is cancelled just after being handed a connection gives it back.

There is no reset query on release: no Smriti query leaves session state behind (no SET, no
advisory session locks, no LISTEN, no temporary tables), and transactions are closed by asyncpg's
context managers, or the connection is dropped.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg
import msgspec

from smriti.db.urls import asyncpg_url

T = TypeVar("T")

_json_encode = msgspec.json.Encoder().encode
_json_decode = msgspec.json.Decoder().decode


def _encode_jsonb(value: Any) -> bytes:
    # Binary jsonb wire format: a version byte, then the JSON text.
    return b"\x01" + _json_encode(value)


def _decode_jsonb(data: bytes) -> Any:
    return _json_decode(data[1:])


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "jsonb", schema="pg_catalog", encoder=_encode_jsonb, decoder=_decode_jsonb, format="binary"
    )


def _reusable_after(error: BaseException) -> bool:
    """Whether a connection is still in a known state after `error` left the code using it.

    An error PostgreSQL sent back (and our own errors raised between queries) leave it ready
    for the next query. Cancellation, timeouts, broken sockets and asyncpg's interface errors
    may leave a query half-done on it.
    """
    return isinstance(error, Exception) and not isinstance(error, OSError | asyncpg.InterfaceError)


class Pool:
    def __init__(self, connect: Callable[[], Awaitable[asyncpg.Connection]], *, size: int) -> None:
        self._connect = connect
        self._size = size
        self._idle: list[asyncpg.Connection] = []
        # A waiter gets a connection, or None when a place was freed and it may open one itself.
        self._waiters: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._open = 0  # connections open, being opened, or in use
        self._closed = False

    @property
    def open_connections(self) -> int:
        return self._open

    async def _acquire(self) -> asyncpg.Connection:
        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the connection pool is closed")
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._forget()  # the server closed it while it was idle
            if self._open < self._size:
                return await self._open_connection()
            waiter: asyncio.Future[asyncpg.Connection | None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                handed = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    # Handed a connection (or a free place) in the same tick it was cancelled.
                    conn_or_place = waiter.result()
                    if conn_or_place is None:
                        self._wake_one(None)
                    else:
                        self._release(conn_or_place, reusable=True)
                raise
            if handed is not None:
                return handed

    async def _open_connection(self) -> asyncpg.Connection:
        self._open += 1
        try:
            return await self._connect()
        except BaseException:
            self._forget()
            raise

    def _release(self, conn: asyncpg.Connection, *, reusable: bool) -> None:
        if not reusable or self._closed or conn.is_closed() or conn.is_in_transaction():
            conn.terminate()  # no round trip: it may be mid-protocol
            self._forget()
        elif not self._wake_one(conn):
            self._idle.append(conn)

    def _forget(self) -> None:
        """A connection is gone: its place goes to a waiter, which opens a new one."""
        self._open -= 1
        self._wake_one(None)

    def _wake_one(self, conn: asyncpg.Connection | None) -> bool:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return True
        return False

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection for several statements (a transaction, or reads that must agree)."""
        conn = await self._acquire()
        try:
            yield conn
        except BaseException as error:
            self._release(conn, reusable=_reusable_after(error))
            raise
        self._release(conn, reusable=True)

    async def _run(self, method: Callable[..., Awaitable[T]], *args: Any) -> T:
        # The same as `acquire`, without a context manager object per query (the hot paths).
        conn = await self._acquire()
        try:
            result = await method(conn, *args)
        except BaseException as error:
            self._release(conn, reusable=_reusable_after(error))
            raise
        self._release(conn, reusable=True)
        return result

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await self._run(asyncpg.Connection.fetch, query, *args)

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await self._run(asyncpg.Connection.fetchrow, query, *args)

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self._run(asyncpg.Connection.fetchval, query, *args)

    async def executemany(self, query: str, args: Iterable[Sequence[Any]]) -> None:
        await self._run(asyncpg.Connection.executemany, query, args)

    async def close(self) -> None:
        """Close the idle connections now; those in use are closed when they come back."""
        self._closed = True
        idle, self._idle = self._idle, []
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)  # it wakes, sees the pool closed, and raises
        self._waiters.clear()
        for conn in idle:
            self._open -= 1
            try:
                await conn.close(timeout=5)
            except (OSError, asyncpg.InterfaceError, TimeoutError):
                conn.terminate()


async def create_pool(url: str, *, size: int) -> Pool:
    """A pool of up to `size` connections; the first is opened now, so a wrong URL fails here."""
    dsn = asyncpg_url(url)

    async def connect() -> asyncpg.Connection:
        conn = await asyncpg.connect(dsn, command_timeout=30)
        try:
            await _init_connection(conn)
        except BaseException:
            conn.terminate()
            raise
        return conn

    pool = Pool(connect, size=size)
    async with pool.acquire():
        pass
    return pool
