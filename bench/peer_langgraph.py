"""The peer: LangGraph's `AsyncPostgresSaver` (langgraph-checkpoint-postgres) on the same PostgreSQL.

Measured in-process, in its best configuration: one saver per caller over one shared psycopg pool
(a saver serialises its own calls behind a lock). The checkpoint carries the same ~4 KB state as
Smriti's benchmark commit, as one channel value.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.base.id import uuid6
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool


def _checkpoint(state: dict[str, Any], version: int) -> Any:
    checkpoint = empty_checkpoint()
    checkpoint["id"] = str(uuid6(clock_seq=version))  # time-ordered, as LangGraph itself makes them
    checkpoint["channel_values"] = {"state": state}
    checkpoint["channel_versions"] = {"state": version}
    return checkpoint


class Peer:
    def __init__(self, conninfo: str, clients: int) -> None:
        self.pool = AsyncConnectionPool(
            conninfo,
            min_size=min(clients, 16),
            max_size=max(clients, 2),
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
            open=False,
        )
        self.clients = clients

    async def __aenter__(self) -> Peer:
        await self.pool.open()
        await AsyncPostgresSaver(self.pool).setup()  # type: ignore[arg-type]
        return self

    async def __aexit__(self, *args: object) -> None:
        await self.pool.close()

    def saver(self) -> AsyncPostgresSaver:
        return AsyncPostgresSaver(self.pool)  # type: ignore[arg-type]


def config(thread: str) -> Any:
    return {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}


async def fill_thread(peer: Peer, thread: str, count: int, state: dict[str, Any]) -> None:
    saver = peer.saver()
    cfg = config(thread)
    for version in range(1, count + 1):
        cfg = await saver.aput(
            cfg, _checkpoint(state, version), {"source": "bench", "step": version}, {"state": version}
        )


async def throughput(
    clients: int, seconds: float, make_call: Callable[[int], Callable[[], Awaitable[Any]]]
) -> tuple[float, float, float]:
    """ops/s, p50 ms and p99 ms for `clients` concurrent callers, each with its own call."""
    deadline = time.perf_counter() + seconds
    latencies: list[float] = []

    async def caller(index: int) -> None:
        call = make_call(index)
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(clients)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return len(latencies) / elapsed, p50, p99


async def measure_peer(
    conninfo: str, state: dict[str, Any], *, clients: int, seconds: float, history: int
) -> dict[str, tuple[float, float, float]]:
    """aput (a fresh thread per caller), aget_tuple latest and alist(limit=20) on a thread of `history`."""
    async with Peer(conninfo, clients) as peer:
        long_thread = f"bench-long-{history}"
        async with peer.pool.connection() as conn:
            cur = await conn.execute("SELECT count(*) AS n FROM checkpoints WHERE thread_id = %s", (long_thread,))
            row = await cur.fetchone()
        if not row or row["n"] < history:
            await fill_thread(peer, long_thread, history, state)
            async with peer.pool.connection() as conn:
                await conn.execute("ANALYZE")
        results: dict[str, tuple[float, float, float]] = {}

        def put_call(index: int) -> Callable[[], Awaitable[Any]]:
            saver = peer.saver()
            cfg = config(f"bench-put-{uuid.uuid4().hex}-{index}")
            version = 0

            async def call() -> None:
                nonlocal cfg, version
                version += 1
                cfg = await saver.aput(cfg, _checkpoint(state, version), {"step": version}, {"state": version})

            return call

        def get_call(index: int) -> Callable[[], Awaitable[Any]]:
            saver = peer.saver()

            async def call() -> None:
                assert await saver.aget_tuple(config(long_thread)) is not None

            return call

        def list_call(index: int) -> Callable[[], Awaitable[Any]]:
            saver = peer.saver()

            async def call() -> None:
                items = [item async for item in saver.alist(config(long_thread), limit=20)]
                assert len(items) == 20

            return call

        results["aput"] = await throughput(clients, seconds, put_call)
        results["aget_tuple"] = await throughput(clients, seconds, get_call)
        results["alist20"] = await throughput(clients, seconds, list_call)
        return results
