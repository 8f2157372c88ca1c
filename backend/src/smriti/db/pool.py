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
- a waiter that is cancelled just after being handed a connection gives it back;
- a request waits at most `acquire_timeout` for a connection (`PoolTimeout`, answered 503).

There is no reset query on release: no Smriti query leaves session state behind (no SET, no
advisory session locks, no LISTEN, no temporary tables), and transactions are closed by asyncpg's
context managers, or the connection is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg
import msgspec

from smriti.db.urls import asyncpg_url

T = TypeVar("T")

_CANCEL_SECONDS = 5.0
"""How long an interrupted statement's cancel may take before its connection is terminated."""

_json_encode = msgspec.json.Encoder().encode
_json_decode = msgspec.json.Decoder().decode


class PoolTimeout(Exception):
    """Every connection stayed busy for the whole acquire timeout."""


IDLE_IN_TRANSACTION_FLOOR_S = 60.0


def connect_options(
    *, acquire_timeout_s: float, statement_timeout_s: float, idle_in_transaction_timeout_s: float | None = None
) -> dict[str, Any]:
    """`asyncpg.connect` options for every connection Smriti opens at run time (both pools).

    Opening a connection counts against the acquire timeout, so an unreachable host is answered
    as soon as a busy pool would be. PostgreSQL itself stops a statement that runs longer than
    the statement timeout, a lock wait included: the transaction rolls back and the connection
    stays usable. asyncpg's own timeout, a little longer, is the backstop for a server that no
    longer answers at all.

    PostgreSQL also ends a session left idle inside a transaction for as long (but at least a
    minute): that is a process that stopped or lost its network while holding locks, such as a
    Space's row that every commit to it would otherwise wait on. No request waits on anything
    else inside a transaction (provider calls happen outside; an ORM request's transaction ends
    when its response starts), and the minute keeps a briefly stalled process from losing one.
    """
    if idle_in_transaction_timeout_s is None:
        idle_in_transaction_timeout_s = max(statement_timeout_s, IDLE_IN_TRANSACTION_FLOOR_S)
    return {
        "timeout": acquire_timeout_s,
        "command_timeout": statement_timeout_s + 5,
        "server_settings": {
            "statement_timeout": _milliseconds(statement_timeout_s),
            "idle_in_transaction_session_timeout": _milliseconds(idle_in_transaction_timeout_s),
        },
    }


def _milliseconds(seconds: float) -> str:
    return str(max(1, round(seconds * 1000)))


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
    """Whether a connection may still be in a known state after `error` left the code using it.

    An error PostgreSQL sent back (and our own errors raised between queries) leave it ready
    for the next query. Cancellation, timeouts, broken sockets, lost connections and asyncpg's
    interface errors may leave a query half-done on it. (`_release` checks the state as well.)
    """
    return isinstance(error, Exception) and not isinstance(
        error, OSError | asyncpg.InterfaceError | asyncpg.PostgresConnectionError
    )


def _cancelling(conn: asyncpg.Connection) -> bool:
    """asyncpg is asking the server to stop an interrupted statement on this connection."""
    return bool(conn._protocol._is_cancelling())  # type: ignore[attr-defined]  # asyncpg's pool asks the same


def _unusable(conn: asyncpg.Connection) -> bool:
    # `_top_xact` stays set when a transaction's BEGIN failed; the next transaction would misbehave.
    return conn.is_closed() or conn.is_in_transaction() or getattr(conn, "_top_xact", None) is not None


class Pool:
    def __init__(
        self,
        connect: Callable[[], Awaitable[asyncpg.Connection]],
        *,
        size: int,
        acquire_timeout: float = 10.0,
        max_idle_seconds: float = 300.0,
    ) -> None:
        self._connect = connect
        self._size = size
        self._acquire_timeout = acquire_timeout
        # A connection idle this long may have been cut by something between us and the server
        # without either side noticing; it is replaced rather than trusted.
        self._max_idle_seconds = max_idle_seconds
        self._idle: list[tuple[asyncpg.Connection, float]] = []  # with the time it became idle
        # A waiter is handed a connection, or None: a place it now owns, to open a connection in.
        # Each waits with the loop time at which it gives up.
        self._waiters: deque[tuple[asyncio.Future[asyncpg.Connection | None], float]] = deque()
        self._overdue_timer: asyncio.TimerHandle | None = None
        self._open = 0  # places taken: connections open, being opened, in use or settling
        self._settling: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def open_connections(self) -> int:
        return self._open

    @property
    def acquire_timeout(self) -> float:
        """The longest a request waits for a connection before `PoolTimeout`."""
        return self._acquire_timeout

    async def _acquire(self) -> asyncpg.Connection:
        if self._closed:
            raise asyncpg.InterfaceError("the connection pool is closed")
        loop = asyncio.get_running_loop()
        now = loop.time()
        deadline = now + self._acquire_timeout
        while self._idle:
            conn, since = self._idle.pop()
            if not conn.is_closed() and now - since < self._max_idle_seconds:
                return conn
            conn.terminate()  # closed by the server while idle, or idle too long to trust
            self._forget()
        if self._open < self._size:
            self._open += 1
            return await self._open_in_place(deadline)
        waiter: asyncio.Future[asyncpg.Connection | None] = loop.create_future()
        self._waiters.append((waiter, deadline))
        if self._overdue_timer is None:
            self._overdue_timer = loop.call_at(deadline, self._fail_overdue)
        try:
            handed = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                # Handed a connection or a place in the same tick it was cancelled: pass it on.
                handed = waiter.result()
                if handed is None:
                    self._forget()
                else:
                    self._release(handed, reusable=True)
            raise
        return handed if handed is not None else await self._open_in_place(deadline)

    async def _open_in_place(self, deadline: float) -> asyncpg.Connection:
        """Open a connection in a place already counted in `_open`, by the request's deadline.

        A waiter handed a place opens it within what is left of its own wait, so the whole
        acquire stays within the timeout. Running out here is a slow database, not a busy pool:
        the `TimeoutError` is answered as "database unavailable", like asyncpg's own.
        """
        try:
            async with asyncio.timeout_at(deadline):
                return await self._connect()
        except BaseException:
            self._forget()
            raise

    def _release(self, conn: asyncpg.Connection, *, reusable: bool) -> None:
        if not self._closed and not conn.is_closed() and _cancelling(conn):
            # Terminating now would drop asyncpg's cancel request and leave the statement running
            # on the server for nobody (a timed-out commit could still commit). Keep the place
            # until the server has acknowledged the cancel, then decide.
            task = asyncio.get_running_loop().create_task(self._settle(conn))
            self._settling.add(task)
            task.add_done_callback(self._settling.discard)
        elif not reusable or self._closed or _unusable(conn):
            conn.terminate()  # no round trip: it may be mid-protocol
            self._forget()
        elif not self._wake_one(conn):
            self._idle.append((conn, asyncio.get_running_loop().time()))

    async def _settle(self, conn: asyncpg.Connection) -> None:
        # On a timeout asyncpg terminates the connection itself; then _release drops it.
        with contextlib.suppress(BaseException):
            await conn._protocol._wait_for_cancellation(_CANCEL_SECONDS)  # type: ignore[attr-defined]
        if _cancelling(conn):
            conn.terminate()
        self._release(conn, reusable=True)

    def _fail_overdue(self) -> None:
        """Fail the waiters whose time is up. All wait equally long and queue in arrival order, so
        those are the first ones and one timer serves the whole queue (a timer per waiter cost
        ~13k instructions each). Waiters handed a connection have left the queue; cancelled ones
        are done and only removed."""
        self._overdue_timer = None
        loop = asyncio.get_running_loop()
        while self._waiters:
            waiter, deadline = self._waiters[0]
            if not waiter.done():
                if deadline - loop.time() > 0.001:  # timers may fire a little early
                    self._overdue_timer = loop.call_at(deadline, self._fail_overdue)
                    return
                waiter.set_exception(
                    PoolTimeout(f"no database connection became free within {self._acquire_timeout:g} s")
                )
            self._waiters.popleft()

    def _forget(self) -> None:
        """A place was freed: it goes to the first waiter, which opens a connection in it."""
        if not self._wake_one(None):
            self._open -= 1

    def _wake_one(self, conn: asyncpg.Connection | None) -> bool:
        while self._waiters:
            waiter, _ = self._waiters.popleft()
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
        closed = asyncpg.InterfaceError("the connection pool is closed")
        if self._overdue_timer is not None:
            self._overdue_timer.cancel()
            self._overdue_timer = None
        while self._waiters:
            waiter, _ = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(closed)
        if self._settling:
            await asyncio.wait(self._settling, timeout=_CANCEL_SECONDS + 1)
        idle, self._idle = self._idle, []
        for conn, _ in idle:
            self._open -= 1
            try:
                await conn.close(timeout=5)
            except BaseException:  # closing politely failed: close it anyway
                conn.terminate()


async def create_pool(
    url: str,
    *,
    size: int,
    acquire_timeout: float = 10.0,
    statement_timeout: float = 30.0,
    idle_in_transaction_timeout: float | None = None,
) -> Pool:
    """A pool of up to `size` connections; the first is opened now, so a wrong URL fails here."""
    dsn = asyncpg_url(url)
    options = connect_options(
        acquire_timeout_s=acquire_timeout,
        statement_timeout_s=statement_timeout,
        idle_in_transaction_timeout_s=idle_in_transaction_timeout,
    )

    async def connect() -> asyncpg.Connection:
        conn: asyncpg.Connection = await asyncpg.connect(dsn, **options)
        try:
            await _init_connection(conn)
        except BaseException:
            conn.terminate()
            raise
        return conn

    pool = Pool(connect, size=size, acquire_timeout=acquire_timeout)
    async with pool.acquire():
        pass
    return pool
