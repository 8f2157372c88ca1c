"""Measuring a row: wrk runs (one process of its own, over loopback) with the server's and
PostgreSQL's CPU time per request, wrk's POST scripts, rows measured in turn with one another,
and the median run of each row recorded in the report."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import asyncpg
from payload import STATE_4KB
from report import Report, Row
from servers import SERVERS, Server, cpu_ticks, postgres_cpu_seconds

_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    match = re.match(r"([\d.]+)(us|ms|s)", text)
    return float(match.group(1)) * _UNITS[match.group(2)] if match else float("nan")


class WrkRun(NamedTuple):
    rps: float
    p50_ms: float
    p99_ms: float
    failed: int
    server_cpu_us: float
    postgres_cpu_us: float
    machine_busy: float


def wrk(url: str, *, clients: int, seconds: float, script: Path | None, watch: Server | None) -> WrkRun:
    command = ["wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "10s"]
    if script is not None:
        command += ["-s", str(script)]
    stop = threading.Event()

    def sampler() -> None:
        while watch is not None and not stop.wait(0.5):
            watch.sample_rss()

    thread = threading.Thread(target=sampler, daemon=True)
    serving = next((s for base, s in SERVERS.items() if url.startswith(base)), None)
    cpu_before = serving.cpu_seconds() if serving else float("nan")
    postgres_before = postgres_cpu_seconds()
    busy_before, total_before = cpu_ticks()
    thread.start()
    try:
        output = subprocess.run(
            [*command, url], capture_output=True, text=True, check=True, timeout=seconds + 60
        ).stdout
    finally:
        stop.set()
        thread.join()
    busy_after, total_after = cpu_ticks()
    postgres_seconds = postgres_cpu_seconds() - postgres_before
    machine_busy = (busy_after - busy_before) / max(1, total_after - total_before)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    # The latency distribution lines ("     50%  1.23ms"), not the thread-stats percentages.
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    timeouts = re.search(r"Socket errors:.*timeout (\d+)", output)
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    cpu_us = (serving.cpu_seconds() - cpu_before) / max(1, requests) * 1e6 if serving else float("nan")
    failed = (int(errors.group(1)) if errors else 0) + (int(timeouts.group(1)) if timeouts else 0)
    return WrkRun(rps, p50, p99, failed, cpu_us, postgres_seconds / max(1, requests) * 1e6, machine_busy)


def post_script(directory: Path, name: str, path: str, bodies: list[dict[str, Any]]) -> Path:
    """A wrk Lua script that POSTs the given bodies round robin."""
    lua_bodies = ",\n".join("[==[" + json.dumps(body) + "]==]" for body in bodies)
    script = directory / f"{name}.lua"
    script.write_text(
        f"local bodies = {{\n{lua_bodies}\n}}\nlocal n = 0\n"
        'wrk.headers["Content-Type"] = "application/json"\n'
        "request = function()\n  n = n + 1\n"
        f'  return wrk.format("POST", "{path}", nil, bodies[(n % #bodies) + 1])\nend\n'
    )
    return script


def floor_write_script(directory: Path) -> Path:
    """The wrk script of the write floor: the ~4 KB state a commit sends, POSTed to /write."""
    return post_script(directory, "floor-write", "/write", [{"message": "bench commit", **STATE_4KB}])


def settle(url: str) -> None:
    """Clean up after earlier rows, so their writes do not slow the next row: vacuum now (rather
    than have autovacuum start in the middle of a measurement) and flush to disk."""

    async def checkpoint() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("VACUUM (ANALYZE)")
            await conn.execute("CHECKPOINT")
        finally:
            await conn.close()

    asyncio.run(checkpoint())
    time.sleep(0.5)


def measure(
    report: Report,
    group: str,
    name: str,
    url: str,
    clients: int,
    args: argparse.Namespace,
    *,
    script: Path | Callable[[], Path] | None = None,
    watch: Server | None = None,
    seconds: float | None = None,
    repeat: int | None = None,
) -> Row:
    """A row: the median of `repeat` runs. A callable `script` is called before each run, for
    rows whose fixtures must be fresh every run."""
    runs = []
    for _ in range(repeat or args.repeat):
        path = script() if callable(script) else script
        settle(args.database_url)
        runs.append(wrk(url, clients=clients, seconds=seconds or args.seconds, script=path, watch=watch))
    return summarise(report, group, name, clients, runs)


def measure_in_turn(
    report: Report, group: str, rows: list[tuple[str, str]], clients: int, args: argparse.Namespace, *, seconds: float
) -> list[Row]:
    """Rows (name, URL) compared with one another: measured round by round, each round starting
    one row later, so that a busy minute on the machine does not land on one of them only."""
    runs: dict[str, list[WrkRun]] = {name: [] for name, _ in rows}
    for round_number in range(args.repeat):
        shift = round_number % len(rows)
        for name, url in rows[shift:] + rows[:shift]:
            settle(args.database_url)
            runs[name].append(wrk(url, clients=clients, seconds=seconds, script=None, watch=None))
    return [summarise(report, group, name, clients, runs[name]) for name, _ in rows]


def rows_in_turn(
    report: Report,
    group: str,
    rows: list[tuple[str, str, Path | Callable[[], Path] | None]],
    clients: int,
    args: argparse.Namespace,
    *,
    seconds: float,
    watch: Server | None = None,
    databases: Sequence[str] = (),
) -> list[Row]:
    """`measure_in_turn` for rows (name, URL, wrk script or a callable making a fresh one, or
    None for a GET) compared with one another. `databases`: those to settle before each run when
    the rows write to others than the run's (each side of an A/B has its own)."""
    runs: dict[str, list[WrkRun]] = {name: [] for name, _, _ in rows}
    for round_number in range(args.repeat):
        shift = round_number % len(rows)
        for name, url, script in rows[shift:] + rows[:shift]:
            path = script() if callable(script) else script
            for database in databases or [args.database_url]:
                settle(database)
            runs[name].append(wrk(url, clients=clients, seconds=seconds, script=path, watch=watch))
    return [summarise(report, group, name, clients, runs[name]) for name, _, _ in rows]


def summarise(report: Report, group: str, name: str, clients: int, runs: list[WrkRun]) -> Row:
    """The median run by throughput, with its own latencies; CPU figures are medians of their own."""
    runs = sorted(runs, key=lambda r: r.rps)
    median = runs[len(runs) // 2]
    cpu_us = statistics.median(r.server_cpu_us for r in runs)
    postgres_us = statistics.median(r.postgres_cpu_us for r in runs)
    row = Row(
        group,
        name,
        clients,
        median.rps,
        median.p50_ms,
        median.p99_ms,
        errors=sum(r.failed for r in runs),
        cpu_us=round(cpu_us, 1),
        machine_busy=round(median.machine_busy, 3),
        postgres_cpu_us=round(postgres_us, 1),
    )
    report.rows.append(row)
    print(
        f"  {name:<40} c={clients:<3} {row.rps:>9.0f} req/s  p50 {row.p50_ms:7.2f} ms  p99 {row.p99_ms:7.2f} ms  "
        f"server CPU {cpu_us:6.0f} µs/req  PostgreSQL {postgres_us:6.0f} µs/req  "
        f"machine {100 * median.machine_busy:3.0f}% busy",
        flush=True,
    )
    return row


def record(report: Report, group: str, name: str, clients: int, result: tuple[float, float, float]) -> Row:
    row = Row(group, name, clients, *result)
    report.rows.append(row)
    print(f"  {name:<40} c={clients:<3} {row.rps:>9.0f} ops/s  p50 {row.p50_ms:7.2f} ms  p99 {row.p99_ms:7.2f} ms")
    return row
