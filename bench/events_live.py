"""Live events (issue 46, SYSTEM.md §14): part of `bench/run.py --only events`.

- latency across two processes: N subscribers (1, then 100) hold `GET /v5/repos/{id}/events`
  streams on server process B while Checkpoints are committed through process A (the same
  database), one at a time at ~10 a second, at random intervals (so that commits do not keep
  step with the hubs' 100-ms ticks); a latency is the time from a commit's 201 at the client to a
  subscriber's receipt of its `checkpoint.created` (matched by `commit_id`). The event is
  numbered at the next tick of either process's hub and read at the next tick of B's, so p50 is
  expected at 50–100 ms. The client (committer and subscribers) is one process: its own delays
  count in the latencies;
- 1,000 idle streams on one process: its resident memory per stream ((after − before) / 1,000),
  how fast it answers `GET head` while they are open (against before), the database backends
  busy meanwhile (a stream holds no pooled connection: none should be), and the CPU time the
  server and PostgreSQL spend with no request, before and while the streams are open (the hub's
  tick every 100 ms, the keep-alives).

1,000 streams need as many sockets on each side: the bench raises its own soft limit on open
files (`RLIMIT_NOFILE`, inherited by the server it starts) to 4,000, or the hard limit if that is
lower, when it is below that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from database import fresh_database
from payload import STATE_4KB
from report import Report, Row
from servers import ROOT, Server, postgres_cpu_seconds, server, server_command
from streams import median_p99_ms

LATENCY_ROW = "events: commit on A to receipt on B"
SUBSCRIBERS = (1, 100)
LATENCY_AIM_MS = 250.0
IDLE_STREAMS = 1_000
OPEN_AT_ONCE = 50
"""Streams opened at a time: each reads the newest id on a pooled connection as it opens."""
POOL_SIZE = 10
"""SMRITI_DB_POOL_SIZE of these servers (its default)."""
COMMIT_INTERVAL_S = 0.1
"""The mean time between commits (random, from half to one and a half of it)."""
IDLE_CPU_S = 10.0
"""The shortest window for the CPU time of a server with no request: the kernel counts in 10-ms ticks."""
LAST_WAIT_S = 3.0
"""How long the last commit's event may take before it counts as never received."""
_STREAM_HEADERS = {"accept": "text/event-stream"}


def _raise_open_files(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        soft = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


async def _space(client: httpx.AsyncClient, base: str) -> str:
    response = await client.post(f"{base}/v4/repos", json={"name": f"events {time.time_ns()}"})
    response.raise_for_status()
    return str(response.json()["id"])


async def _subscribe(
    client: httpx.AsyncClient, url: str, opened: asyncio.Event, lines: list[tuple[float, str]] | None
) -> None:
    """Holds one stream until cancelled; the `data:` lines it receives and when, into `lines`."""
    async with client.stream("GET", url, headers=_STREAM_HEADERS) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            opened.set()  # the stream's first line is its start (`id: N`)
            if lines is not None and line.startswith("data: "):
                lines.append((time.perf_counter(), line))  # parsed afterwards: the receipt is what is timed


async def _open(
    tasks: list[asyncio.Task[None]], start: Callable[[asyncio.Event], Coroutine[object, object, None]]
) -> None:
    """One more stream, returned once it has started (it raises if the stream failed)."""
    opened = asyncio.Event()
    task = asyncio.create_task(start(opened))
    tasks.append(task)
    waiting = asyncio.create_task(opened.wait())
    await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if task.done():
        task.result()
        raise RuntimeError("an event stream ended as it opened")


async def _close(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class LatencyRun:
    """One latency row's receipts, in seconds after the commit's 201, by commit."""

    receipts: dict[str, list[float]]
    missing: int
    client_cpu: float
    """This process's CPU time over the run's wall time: near 1, the client itself is late."""
    reader_cpu_us_per_receipt: float
    """Server B's CPU time per event handed to a stream (its hub's ticks included)."""

    def all(self) -> list[float]:
        return [at for each in self.receipts.values() for at in each]

    def firsts(self) -> list[float]:
        """Each event's first receipt: numbering and the hub's read, without the fan-out."""
        return [min(each) for each in self.receipts.values() if each]

    def spreads(self) -> list[float]:
        """From each event's first receipt to its last: the fan-out, B's and this client's."""
        return [max(each) - min(each) for each in self.receipts.values() if each]


async def latencies(writer: str, reader: Server, subscribers: int, commits: int) -> LatencyRun:
    """Each subscriber's receipt on `reader` of each commit's event, timed from the commit's 201
    on `writer`."""
    limits = httpx.Limits(max_connections=subscribers + 4, max_keepalive_connections=subscribers + 4)
    # The commits on a client of their own: one holding 100 streams looks through all of them for
    # a free connection at every request.
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(60, read=None), limits=limits) as client,
        httpx.AsyncClient(timeout=60) as committer,
    ):
        space = await _space(committer, writer)
        url = f"{reader.url}/v5/repos/{space}/events"
        received: list[list[tuple[float, str]]] = [[] for _ in range(subscribers)]
        tasks: list[asyncio.Task[None]] = []
        try:
            for lines in received:
                await _open(tasks, partial(_subscribe, client, url, lines=lines))
            committed: dict[str, float] = {}
            pace = random.Random(46)  # noqa: S311 (intervals, not secrets)
            started, client_before, reader_before = time.perf_counter(), time.process_time(), reader.cpu_seconds()
            for n in range(commits):
                body = {"repo_id": space, "message": f"event latency {n}", **STATE_4KB}
                response = await committer.post(f"{writer}/v4/chat/commit", json=body)
                answered = time.perf_counter()
                response.raise_for_status()
                committed[response.json()["id"]] = answered
                await asyncio.sleep(COMMIT_INTERVAL_S * pace.uniform(0.5, 1.5))
            await asyncio.sleep(LAST_WAIT_S)
            client_cpu = (time.process_time() - client_before) / (time.perf_counter() - started)
            reader_cpu = reader.cpu_seconds() - reader_before
        finally:
            await _close(tasks)
    receipts: dict[str, list[float]] = {commit_id: [] for commit_id in committed}
    for lines in received:
        for at, line in lines:
            event = json.loads(line[len("data: ") :])
            if event["type"] == "checkpoint.created" and event["data"]["commit_id"] in committed:
                receipts[event["data"]["commit_id"]].append(at - committed[event["data"]["commit_id"]])
    got = sum(len(each) for each in receipts.values())
    return LatencyRun(receipts, subscribers * commits - got, client_cpu, reader_cpu / max(1, got) * 1e6)


async def _heads_ms(client: httpx.AsyncClient, url: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        response = await client.get(url)
        response.raise_for_status()
        times.append((time.perf_counter() - started) * 1e3)
    return times


async def _backends(url: str, samples: int = 10) -> tuple[int, int]:
    """The database's backends other than this one, over `samples` looks 0.1 s apart: the most
    open, and the fewest busy (in a statement or a transaction; a hub's tick is busy for a moment
    every 100 ms, a held connection would be at every look)."""
    conn = await asyncpg.connect(url)
    opened, busy = 0, samples * 1_000_000
    try:
        for _ in range(samples):
            row = await conn.fetchrow(
                "SELECT count(*) AS open, count(*) FILTER (WHERE state <> 'idle') AS busy FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert row is not None
            opened, busy = max(opened, int(row["open"])), min(busy, int(row["busy"]))
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    return opened, busy


async def _idle_cpu(watch: Server, seconds: float) -> tuple[float, float]:
    """CPU milliseconds per second of the server, and of PostgreSQL, over `seconds` of no requests:
    the hub's ticks (numbering, reading the new events) and the streams' keep-alives."""
    server_before, postgres_before = watch.cpu_seconds(), postgres_cpu_seconds()
    await asyncio.sleep(seconds)
    server_cpu, postgres_cpu = watch.cpu_seconds() - server_before, postgres_cpu_seconds() - postgres_before
    return server_cpu / seconds * 1e3, postgres_cpu / seconds * 1e3


async def idle_streams(watch: Server, database_url: str, count: int, idle_s: float) -> dict[str, Any]:
    base = watch.url
    limits = httpx.Limits(max_connections=count + 4, max_keepalive_connections=count + 4)
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(60, read=None), limits=limits) as client,
        httpx.AsyncClient(timeout=60) as reader,  # HEAD on a client of its own, as in `latencies`
    ):
        space = await _space(reader, base)
        head = f"{base}/v4/repos/{space}/head"
        url = f"{base}/v5/repos/{space}/events"
        committed = await reader.post(f"{base}/v4/chat/commit", json={"repo_id": space, "message": "events"})
        committed.raise_for_status()
        tasks: list[asyncio.Task[None]] = []
        # Warm up: the code a stream runs is loaded and its first allocations made before `before`.
        for _ in range(OPEN_AT_ONCE):
            await _open(tasks, partial(_subscribe, client, url, lines=None))
        await _close(tasks)
        tasks.clear()
        await asyncio.sleep(1)
        cpu_before = await _idle_cpu(watch, idle_s)
        heads_before = await _heads_ms(reader, head, 50)
        backends_before = await _backends(database_url)
        rss_before = watch.rss()
        try:
            for first in range(0, count, OPEN_AT_ONCE):
                opening = [
                    _open(tasks, partial(_subscribe, client, url, lines=None))
                    for _ in range(min(OPEN_AT_ONCE, count - first))
                ]
                await asyncio.gather(*opening)
            await asyncio.sleep(2)
            rss_open = watch.rss()
            cpu_open = await _idle_cpu(watch, idle_s)
            heads_open = await _heads_ms(reader, head, 50)
            backends_open = await _backends(database_url)
            still_open = sum(1 for task in tasks if not task.done())
        finally:
            await _close(tasks)
    return {
        "streams": still_open,
        "rss_kib_per_stream": (rss_open - rss_before) / count / 1024,
        "rss_mb_before": rss_before / 2**20,
        "rss_mb_open": rss_open / 2**20,
        "head_ms_p50_before": statistics.median(heads_before),
        "head_ms_p50_open": statistics.median(heads_open),
        "head_ms_max_open": max(heads_open),
        "server_cpu_ms_per_s_before": cpu_before[0],
        "postgres_cpu_ms_per_s_before": cpu_before[1],
        "server_cpu_ms_per_s_open": cpu_open[0],
        "postgres_cpu_ms_per_s_open": cpu_open[1],
        "backends_before": backends_before[0],
        "backends_open": backends_open[0],
        "backends_busy_open": backends_open[1],
    }


def run_events_live(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path) -> None:
    limit = _raise_open_files(4 * IDLE_STREAMS)
    print(f"live events ({args.server}, 2 processes on one database; open files limit {limit}):", flush=True)
    url = asyncio.run(fresh_database("smriti_bench_events_live"))
    env = {**env, "DATABASE_URL": url, "SMRITI_DB_POOL_SIZE": str(POOL_SIZE)}
    command = server_command(args.server, "smriti")
    commits = max(20, round(args.seconds * 3 / COMMIT_INTERVAL_S))
    with server(command, env, ROOT, log) as writer, server(command, env, ROOT, log) as reader:
        for subscribers in SUBSCRIBERS:
            run = asyncio.run(latencies(writer.url, reader, subscribers, commits))
            p50, p99 = median_p99_ms(run.all())
            report.rows.append(Row("events", LATENCY_ROW, subscribers, float("nan"), p50, p99, errors=run.missing))
            first, spread = median_p99_ms(run.firsts()), median_p99_ms(run.spreads())
            parts = {
                "first_p50_ms": first[0],
                "first_p99_ms": first[1],
                "spread_p50_ms": spread[0],
                "spread_p99_ms": spread[1],
                "client_cpu": run.client_cpu,
                "reader_cpu_us_per_receipt": run.reader_cpu_us_per_receipt,
            }
            report.growth.setdefault("events_latency", []).append({"subscribers": subscribers, **parts})
            print(
                f"  {subscribers} subscriber(s), {commits} commits: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                f"max {max(run.all()) * 1e3:.1f} ms, {run.missing} never received; first receipt p50 "
                f"{first[0]:.1f} / p99 {first[1]:.1f} ms, first to last p50 {spread[0]:.1f} / p99 {spread[1]:.1f} "
                f"ms; client CPU {100 * run.client_cpu:.0f}%, server B {run.reader_cpu_us_per_receipt:.0f} µs "
                "per receipt",
                flush=True,
            )
    with server(command, env, ROOT, log) as alone:  # alone: every backend of the database is its pool's
        idle = asyncio.run(idle_streams(alone, url, IDLE_STREAMS, max(IDLE_CPU_S, args.seconds)))
    report.growth["events_idle_streams"] = [idle]
    print(f"  {IDLE_STREAMS:,} idle streams on one process: {idle}", flush=True)


def evaluate_events_live(report: Report) -> None:
    for subscribers in SUBSCRIBERS:
        row = report.get(LATENCY_ROW, subscribers)
        what = f"event latency, commit on A to a subscriber on B, {subscribers} subscriber(s)"
        report.target(f"{what}: p50 ms", row.p50_ms, "(reported)", True)
        held = subscribers < max(SUBSCRIBERS) or row.p99_ms < LATENCY_AIM_MS
        aim = f"< {LATENCY_AIM_MS:g}" if subscribers == max(SUBSCRIBERS) else "(reported)"
        report.target(f"{what}: p99 ms", row.p99_ms, aim, held)
        report.target(f"{what}: events never received", row.errors, "= 0", row.errors == 0)
    # Where a tail comes from: an event's first receipt (numbering, the hub's read) or its fan-out.
    for parts in report.growth["events_latency"]:
        what = f"event latency, {parts['subscribers']} subscriber(s)"
        report.target(f"{what}: first receipt of an event, p99 ms", parts["first_p99_ms"], "(reported)", True)
        report.target(f"{what}: first to last receipt of an event, p99 ms", parts["spread_p99_ms"], "(reported)", True)
        report.target(f"{what}: the client's CPU share (1: it is late)", parts["client_cpu"], "(reported)", True)
    [idle] = report.growth["events_idle_streams"]
    count = f"{IDLE_STREAMS:,} idle event streams"
    report.target(f"{count}: open at the end", idle["streams"], f"= {IDLE_STREAMS:,}", idle["streams"] == IDLE_STREAMS)
    report.target(f"{count}: server memory KiB per stream", idle["rss_kib_per_stream"], "(reported)", True)
    report.target(f"{count}: GET head median ms while open", idle["head_ms_p50_open"], "(reported)", True)
    report.target(f"{count}: GET head median ms before", idle["head_ms_p50_before"], "(reported)", True)
    for when in ("before", "open"):
        for part in ("server", "postgres"):
            what = f"{count}: {part} CPU ms per second with no request, {when}"
            report.target(what, idle[f"{part}_cpu_ms_per_s_{when}"], "(reported)", True)
    # A stream that kept a pooled connection would keep it to its end: with 100 times more streams
    # than the pool has connections, they could not all open, nor HEAD be answered, had any kept
    # one. The backends open are the pool's (grown while 50 streams at a time read the newest id)
    # and the ORM engine's.
    report.target(f"{count}: the server's database backends while open", idle["backends_open"], "(reported)", True)
    busy = idle["backends_busy_open"]
    report.target(f"{count}: database backends busy at every look while open", busy, "= 0", busy == 0)
