"""Smriti's benchmark suite: hot paths against the floor and the peer, measured in one run.

    make bench                                   (10 s per row, median of 3)
    .venv/bin/python bench/run.py --quick        (3 s per row, one run: a smoke test)

- floor: a bare Litestar app on the same server and pool settings, returning a constant (pure
  HTTP) and doing one asyncpg primary-key SELECT of a ~4 KB JSONB row (the floor);
- Smriti over HTTP: HEAD, one Checkpoint, the latest 20 of 10,000 Checkpoints, a ~4 KB commit
  and two sends with the offline provider (unmounted Sessions that grow through the run, and
  fresh mounted ones every run), at 1 and 16 clients (wrk, its own process, loopback);
- peer: LangGraph's AsyncPostgresSaver (bench extra) in-process on the same PostgreSQL: aput,
  aget_tuple and alist(limit=20) on a 10,000-checkpoint thread, 1 and 16 callers, each run in
  turn with a run of Smriti's commit in-process and over HTTP;
- growth: context assembly and send for Sessions of 10, 1,000 and 100,000 Turns; HEAD and log
  for Spaces of 10, 1,000 and 10,000 Checkpoints; commits with 1 KB, 100 KB and 1 MB artifacts;
- scale-out: two server processes against one on HEAD; resident memory of the API;
- server: granian against uvicorn for the floor and for Smriti's HEAD and send.

Every ratio compares numbers from the same run; the table ends with each target and whether it
held. Results are also written as JSON (bench/results/latest.json).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import asyncpg
import httpx
import lines
import msgspec
import psutil
from database import fresh_database

from smriti.chat.claims import SendClaims
from smriti.chat.context import assemble
from smriti.chat.exchange import ChatService
from smriti.chat.schemas import SendRequest
from smriti.chat.store import ChatStore
from smriti.checkpoints.schemas import CommitCreate
from smriti.checkpoints.store import CheckpointStore
from smriti.core.config import Settings
from smriti.db.pool import Pool, create_pool
from smriti.providers.registry import ProviderRegistry

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

STATE_4KB: dict[str, Any] = {
    "summary": "We are designing the storage layer for a versioned reasoning store. " * 6,
    "decisions": [f"Decision {i}: keep turns keyed by session and sequence number" for i in range(12)],
    "assumptions": [f"Assumption {i}: a single region is enough for now" for i in range(8)],
    "tasks": [{"text": f"Task {i}: benchmark the hot path", "done": i % 2 == 0} for i in range(10)],
    "open_questions": [f"Question {i}: do we need branching soon?" for i in range(6)],
    "entities": [{"name": f"Entity{i}", "kind": "component", "description": "part of the system"} for i in range(6)],
    "artifacts": [{"name": "plan.md", "content": "step one; step two; step three. " * 30}],
    "metadata": {"author": {"kind": "agent", "name": "bench"}},
}


@dataclass
class Row:
    group: str
    name: str
    clients: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int = 0
    cpu_us: float | None = None
    """CPU time of the server's processes per request (µs): steadier than req/s on a shared machine."""
    machine_busy: float | None = None
    """Share of the whole machine's CPU in use during the run (server, PostgreSQL and wrk together)."""
    postgres_cpu_us: float | None = None
    """CPU time of the run's PostgreSQL, all its processes, per request (µs); NaN for a remote one."""
    ratio: float | None = None
    ratio_to: str = ""


@dataclass
class Target:
    what: str
    value: float
    aim: str
    held: bool


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    growth: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)
    rss_mb: float = 0.0

    def get(self, name: str, clients: int) -> Row:
        return next(r for r in self.rows if r.name == name and r.clients == clients)

    def speedup(self, name: str, over: str, clients: int) -> float:
        """Throughput of one row over another's, at the same number of clients."""
        return self.get(name, clients).rps / self.get(over, clients).rps

    def target(self, what: str, value: float, aim: str, held: bool) -> None:
        self.targets.append(Target(what, round(value, 3), aim, held))


# ---------------------------------------------------------------------------------------------
# database


async def seed_floor(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE bench_floor (id int PRIMARY KEY, doc jsonb NOT NULL)")
        doc = json.dumps(STATE_4KB)
        await conn.executemany("INSERT INTO bench_floor VALUES ($1, $2::jsonb)", [(i, doc) for i in range(1, 1001)])
        await conn.execute("ANALYZE bench_floor")
        await conn.execute("CREATE TABLE bench_floor_writes (id bigserial PRIMARY KEY, doc jsonb NOT NULL)")
    finally:
        await conn.close()


async def analyze(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


# ---------------------------------------------------------------------------------------------
# servers, wrk and memory


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, process: subprocess.Popen[bytes], url: str) -> None:
        self.process = process
        self.url = url
        self.peak_rss = 0

    def rss(self) -> int:
        """Resident memory of the largest of the server's processes (the one serving), in bytes."""
        try:
            parent = psutil.Process(self.process.pid)
            return max(p.memory_info().rss for p in [parent, *parent.children(recursive=True)])
        except (psutil.Error, ValueError):
            return 0

    def sample_rss(self) -> None:
        self.peak_rss = max(self.peak_rss, self.rss())

    def cpu_seconds(self) -> float:
        """User and system CPU time of the server and its worker processes so far."""
        try:
            parent = psutil.Process(self.process.pid)
            times = [p.cpu_times() for p in [parent, *parent.children(recursive=True)]]
        except psutil.Error:
            return float("nan")
        return sum(t.user + t.system for t in times)


_SERVERS: dict[str, Server] = {}
"""Running servers by base URL, so that a measurement can find whose CPU time to read."""


@contextmanager
def server(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> Iterator[Server]:
    port = _free_port()
    full = [part.replace("{port}", str(port)) for part in command]
    with log.open("ab") as out:
        process = subprocess.Popen(
            full, env={**os.environ, **env}, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    handle = Server(process, f"http://127.0.0.1:{port}")
    _SERVERS[handle.url] = handle
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{full} exited; see {log}")
            try:
                if httpx.get(handle.url + "/health", timeout=1).status_code < 500:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield handle
    finally:
        _SERVERS.pop(handle.url, None)
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)


_POSTMASTERS: list[psutil.Process] = []
"""The PostgreSQL server this run uses, when it runs on this machine (main finds it)."""


async def find_postmaster(url: str) -> psutil.Process | None:
    """The local postmaster serving `url`: the parent of one of its backends. None when remote."""
    conn = await asyncpg.connect(url)
    try:
        backend = psutil.Process(await conn.fetchval("SELECT pg_backend_pid()"))
        parent = backend.parent()
    except psutil.Error:  # no such process here: the server is on another host
        return None
    finally:
        await conn.close()
    return parent if parent is not None and parent.name().startswith("postgres") else None


def postgres_cpu_seconds() -> float:
    """User and system CPU time so far of the run's PostgreSQL: the postmaster, every process it
    runs (backends, WAL writer, checkpointer, autovacuum workers), and those that have ended, whose
    time the kernel adds to the postmaster's children's times when it reaps them. NaN when remote."""
    total = float("nan") if not _POSTMASTERS else 0.0
    for postmaster in _POSTMASTERS:
        try:
            times = postmaster.cpu_times()
            children = postmaster.children()
        except psutil.Error:
            return float("nan")
        total += times.user + times.system + times.children_user + times.children_system
        for child in children:
            try:
                child_times = child.cpu_times()
            except psutil.Error:  # ended meanwhile: its time is now in the postmaster's children's
                continue
            total += child_times.user + child_times.system
    return total


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


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
    serving = next((s for base, s in _SERVERS.items() if url.startswith(base)), None)
    cpu_before = serving.cpu_seconds() if serving else float("nan")
    postgres_before = postgres_cpu_seconds()
    busy_before, total_before = _cpu_ticks()
    thread.start()
    try:
        output = subprocess.run(
            [*command, url], capture_output=True, text=True, check=True, timeout=seconds + 60
        ).stdout
    finally:
        stop.set()
        thread.join()
    busy_after, total_after = _cpu_ticks()
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
) -> list[Row]:
    """`measure_in_turn` for rows (name, URL, wrk script or a callable making a fresh one, or
    None for a GET) compared with one another."""
    runs: dict[str, list[WrkRun]] = {name: [] for name, _, _ in rows}
    for round_number in range(args.repeat):
        shift = round_number % len(rows)
        for name, url, script in rows[shift:] + rows[:shift]:
            path = script() if callable(script) else script
            settle(args.database_url)
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


# ---------------------------------------------------------------------------------------------
# Smriti fixtures


def _seed_client(base: str) -> httpx.AsyncClient:
    """A client for fixtures that never reuses a connection the server may be closing: idle ones
    are dropped after 1 s, well before uvicorn's 5 s keep-alive timeout."""
    return httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=32, keepalive_expiry=1))


async def _post_all(base: str, path: str, bodies: list[dict[str, Any]], concurrency: int = 16) -> list[Any]:
    results: list[Any] = [None] * len(bodies)
    queue = list(enumerate(bodies))
    async with _seed_client(base) as client:

        async def worker() -> None:
            while queue:
                index, body = queue.pop()
                response = await client.post(path, json=body)
                response.raise_for_status()
                results[index] = response.json()

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return results


async def seed_smriti(base: str, *, sessions: int) -> dict[str, Any]:
    spaces = await _post_all(
        base,
        "/v4/repos",
        [{"name": name} for name in ("head", "send", "log-10", "log-1000", "log-10000", "artifacts")]
        + [{"name": f"commit-{i}"} for i in range(16)],
    )
    by_name = {space["name"]: space["id"] for space in spaces}
    head = (await _post_all(base, "/v4/chat/commit", [{"repo_id": by_name["head"], "message": "state", **STATE_4KB}]))[
        0
    ]
    for size in (10, 1000, 10_000):
        # One at a time per Space, so each Checkpoint's parent is the one before (a real line).
        space = by_name[f"log-{size}"]
        async with _seed_client(base) as client:
            for start in range(0, size, 200):
                await asyncio.gather(
                    *(
                        client.post("/v4/chat/commit", json={"repo_id": space, "message": f"c{n}", **STATE_4KB})
                        for n in range(start, min(size, start + 200))
                    )
                )
    mount_body = {"repo_id": by_name["send"], "message": "mount", **STATE_4KB}
    mounted = (await _post_all(base, "/v4/chat/commit", [mount_body]))[0]
    sent = await _post_all(base, f"/v4/repos/{by_name['send']}/sessions", [{"title": f"s{i}"} for i in range(sessions)])
    return {
        "head_space": by_name["head"],
        "head": head,
        "log_spaces": {size: by_name[f"log-{size}"] for size in (10, 1000, 10_000)},
        "commit_spaces": [by_name[f"commit-{i}"] for i in range(16)],
        "artifact_space": by_name["artifacts"],
        "send_space": by_name["send"],
        "mounted": mounted["id"],
        "sessions": [s["id"] for s in sent],
    }


async def write_sessions(url: str, space_id: str, sizes: list[int]) -> list[uuid.UUID]:
    """Sessions of the given lengths, written directly (a million sends would take too long)."""
    ids = [uuid.uuid4() for _ in sizes]
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
            "SELECT s.id, $1, 'bench', s.size, now(), now() FROM unnest($2::uuid[], $3::int[]) AS s(id, size)",
            uuid.UUID(space_id),
            ids,
            sizes,
        )
        await conn.execute(
            "INSERT INTO turns (session_id, sequence_number, role, content) "
            "SELECT s.id, n, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END, "
            "'turn ' || n || ': ' || repeat('words ', 30) "
            "FROM unnest($1::uuid[], $2::int[]) AS s(id, size), generate_series(1, s.size) AS n",
            ids,
            sizes,
        )
        await conn.execute("ANALYZE sessions, turns")
    finally:
        await conn.close()
    return ids


MOUNTED_AFTER = 20
"""Turns each mounted Session of the send row holds before its boundary: stored, never sent."""


def mounted_send_script(directory: Path, url: str, fixtures: dict[str, Any], sessions: int = 2000) -> Path:
    """2,000 fresh Sessions mounted on the send Space's 4 KB Checkpoint after MOUNTED_AFTER Turns,
    and a wrk script that sends to them in turn: each run starts from empty windows (only the
    Turns sent since the mount are in context), whatever ran before."""
    ids = asyncio.run(write_sessions(url, fixtures["send_space"], [MOUNTED_AFTER] * sessions))
    bodies = [
        {
            "session_id": str(session),
            "content": "What should we do next about the storage layer?",
            "checkpoint_id": fixtures["mounted"],
            "history_base_seq": MOUNTED_AFTER,
        }
        for session in ids
    ]
    return post_script(directory, "send-mounted", "/v4/chat/send", bodies)


async def context_growth(
    url: str, sessions: dict[int, uuid.UUID], checkpoint_id: str, iterations: int
) -> list[dict[str, Any]]:
    """Context assembly (one read + build) with 10 Turns after the boundary, whatever the length."""
    pool = await create_pool(url, size=2)
    store = ChatStore(pool)
    results = []
    try:
        for size, session_id in sessions.items():
            base = size - 10
            for _ in range(50):  # warm caches and prepared statements
                await store.read_context(session_id, checkpoint_id=uuid.UUID(checkpoint_id), history_base_seq=base)
            batches = []
            for _ in range(5):  # the median of five batches: one noisy moment does not decide
                started = time.perf_counter()
                for _ in range(iterations):
                    context = await store.read_context(
                        session_id, checkpoint_id=uuid.UUID(checkpoint_id), history_base_seq=base
                    )
                    assemble(context.mounted, context.history, "next message")
                batches.append((time.perf_counter() - started) / iterations * 1e6)
            assert len(context.history) == 10
            results.append({"turns": size, "us_per_op": statistics.median(batches)})
    finally:
        await pool.close()
    for result in results:
        result["ratio"] = result["us_per_op"] / results[0]["us_per_op"]
    return results


async def jsonb_insert_growth(url: str, kilobytes: list[int]) -> list[dict[str, Any]]:
    """PostgreSQL alone: one durable INSERT of the same artifacts as JSONB, for reference. (An
    ordinary table: a temporary one would skip the write-ahead log and its flush.)"""
    conn = await asyncpg.connect(url)
    results = []
    try:
        await conn.execute("CREATE TABLE bench_artifacts (id serial PRIMARY KEY, doc jsonb)")
        for size in kilobytes:
            doc = json.dumps([{"name": "blob.txt", "content": "x" * (size * 1024)}])
            count = max(10, 2000 // size)
            batches = []
            for _ in range(3):
                started = time.perf_counter()
                for _ in range(count):
                    await conn.execute("INSERT INTO bench_artifacts (doc) VALUES ($1::jsonb)", doc)
                batches.append((time.perf_counter() - started) / count * 1e6)
            results.append({"kilobytes": size, "us_per_op": statistics.median(batches)})
    finally:
        await conn.execute("DROP TABLE IF EXISTS bench_artifacts")
        await conn.close()
    return results


async def send_growth(url: str, sessions: dict[int, uuid.UUID], checkpoint_id: str, sends: int) -> list[dict[str, Any]]:
    """The whole send (read, offline provider, write) in-process, mounted 10 Turns from the end.

    Every Session gets the same number of sends, so every window grows the same way.
    """
    pool = await create_pool(url, size=2)
    service = ChatService(
        ChatStore(pool), ProviderRegistry(Settings()), nudge_after_turns=12, claims=SendClaims(pool, ttl_s=60)
    )
    results = []
    try:
        for size, session_id in sessions.items():
            request = SendRequest(
                session_id=session_id,
                content="next?",
                checkpoint_id=uuid.UUID(checkpoint_id),
                history_base_seq=size - 10,
            )
            started = time.perf_counter()
            for _ in range(sends):
                await service.send(request)
            results.append({"turns": size, "us_per_op": (time.perf_counter() - started) / sends * 1e6})
    finally:
        await pool.close()
    for result in results:
        result["ratio"] = result["us_per_op"] / results[0]["us_per_op"]
    return results


# ---------------------------------------------------------------------------------------------


def server_command(kind: str, target: str, *, workers: int = 1, factory: bool = True) -> list[str]:
    python = sys.executable
    if target == "smriti":
        return [python, "-m", "smriti", "serve", "--port", "{port}", "--workers", str(workers), "--server", kind]
    if kind == "uvicorn":
        return [
            python,
            "-m",
            "uvicorn",
            "--factory",
            "--port",
            "{port}",
            "--log-level",
            "warning",
            "--workers",
            str(workers),
            "floor_app:create_floor_app",
        ]
    return [
        python,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        "{port}",
        "--workers",
        str(workers),
        "--no-log",
        "floor_app:create_floor_app",
    ]


def run_floor(report: Report, args: argparse.Namespace, env: dict[str, str], work: Path, kind: str) -> None:
    print(f"floor ({kind}):", flush=True)
    write_lua = floor_write_script(work)
    with server(server_command(kind, "floor"), env, HERE, work / "servers.log") as floor:
        for clients in (1, 16):
            if kind == args.server:
                measure(report, "floor", "floor: constant (HTTP only)", floor.url + "/constant", clients, args)
                measure(report, "floor", "floor: one durable write", floor.url + "/", clients, args, script=write_lua)
            measure(
                report,
                "floor",
                f"floor: one-query{'' if kind == args.server else f' ({kind})'}",
                floor.url + "/row/7",
                clients,
                args,
            )


def run_smriti(
    report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str
) -> dict[str, Any]:
    """Smriti's rows; returns the seeded fixtures (Spaces, Sessions) for the rows that follow."""
    print(f"smriti ({args.server}, 1 worker):", flush=True)
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:
        fixtures = asyncio.run(seed_smriti(smriti.url, sessions=2000))
        # The growth rows' long Sessions, written now so that `turns` is not empty when the send
        # rows start: statements planned after an ANALYZE of an empty table keep scanning all of
        # it until the next ANALYZE (the first 1-client send run cost ~470 µs of PostgreSQL).
        sizes = [10, 1_000, 100_000]
        long = dict(zip(sizes, asyncio.run(write_sessions(url, fixtures["send_space"], sizes)), strict=True))
        asyncio.run(analyze(url))
        report.growth["fixtures"] = [{"sessions": len(fixtures["sessions"])}]
        commit_lua = post_script(
            work,
            "commit",
            "/v4/chat/commit",
            [{"repo_id": space, "message": "bench commit", **STATE_4KB} for space in fixtures["commit_spaces"]],
        )
        send_lua = post_script(
            work,
            "send",
            "/v4/chat/send",
            [
                {"session_id": s, "content": "What should we do next about the storage layer?"}
                for s in fixtures["sessions"]
            ],
        )
        head = f"{smriti.url}/v4/repos/{fixtures['head_space']}/head"
        one = f"{smriti.url}/v4/commits/{fixtures['head']['id']}"
        log20 = f"{smriti.url}/v4/repos/{fixtures['log_spaces'][10_000]}/commits?limit=20"
        lines.seed(smriti.url, fixtures)
        for clients in (1, 16):
            watch = smriti if clients == 16 else None
            measure(report, "smriti", "smriti: GET head", head, clients, args, watch=watch)
            measure(report, "smriti", "smriti: GET commit", one, clients, args, watch=watch)
            measure(report, "smriti", "smriti: GET log 20 of 10,000", log20, clients, args, watch=watch)
            measure(
                report,
                "smriti",
                "smriti: POST commit (~4 KB)",
                smriti.url + "/",
                clients,
                args,
                script=commit_lua,
                watch=watch,
            )
            measure(
                report,
                "smriti",
                "smriti: POST send (offline)",
                smriti.url + "/",
                clients,
                args,
                script=send_lua,
                watch=watch,
            )
            measure(
                report,
                "smriti",
                "smriti: POST send (offline), mounted",
                smriti.url + "/",
                clients,
                args,
                script=lambda: mounted_send_script(work, url, fixtures),
                watch=watch,
            )
            # Lines and forks (bench/lines.py), each beside the row it is compared with.
            measure_line_rows(report, args, smriti, work, url, fixtures, clients)
        report.rss_mb = smriti.peak_rss / 2**20

        print("growth (HTTP, 16 clients):", flush=True)
        short = max(2.0, args.seconds / 2)
        spaces = fixtures["log_spaces"].items()
        heads = [
            (f"growth: HEAD, {size:,} Checkpoints", f"{smriti.url}/v4/repos/{space}/head") for size, space in spaces
        ]
        measure_in_turn(report, "growth", heads, 16, args, seconds=short)
        # The same page size for every Space (the 10-Checkpoint Space has only 10).
        logs = [
            (f"growth: log 10, {size:,} Checkpoints", f"{smriti.url}/v4/repos/{space}/commits?limit=10")
            for size, space in spaces
        ]
        measure_in_turn(report, "growth", logs, 16, args, seconds=short)
        measure_fork_growth(report, args, smriti, work, fixtures, long, seconds=short)
        for kilobytes in (1, 100, 1000):
            body = {
                "repo_id": fixtures["artifact_space"],
                "message": "artifact",
                "artifacts": [{"name": "blob.txt", "content": "x" * (kilobytes * 1024)}],
            }
            script = post_script(work, f"artifact-{kilobytes}", "/v4/chat/commit", [body])
            measure(
                report,
                "growth",
                f"growth: commit, {kilobytes:,} KB artifact",
                smriti.url + "/",
                1,
                args,
                script=script,
                seconds=short,
            )
        report.growth["postgres_jsonb_insert"] = asyncio.run(jsonb_insert_growth(url, [1, 100, 1000]))

        print("growth (in-process):", flush=True)
        report.growth["context"] = asyncio.run(context_growth(url, long, fixtures["mounted"], 300))
        report.growth["send"] = asyncio.run(send_growth(url, long, fixtures["mounted"], 200))
        for kind in ("context", "send"):
            for result in report.growth[kind]:
                print(
                    f"  {kind} assembly, {result['turns']:>7,} Turns: {result['us_per_op']:8.0f} µs/op "
                    f"({result['ratio']:.2f}×)"
                )

    print(f"smriti, 2 worker processes ({args.server}):", flush=True)
    with server(server_command(args.server, "smriti", workers=2), env, ROOT, log) as two:
        measure(
            report,
            "scale",
            "smriti: GET head, 2 processes",
            f"{two.url}/v4/repos/{fixtures['head_space']}/head",
            16,
            args,
        )

    other = "uvicorn" if args.server == "granian" else "granian"
    print(f"smriti ({other}, 1 worker):", flush=True)
    with server(server_command(other, "smriti"), env, ROOT, log) as alt:
        measure(
            report,
            "server",
            f"smriti: GET head ({other})",
            f"{alt.url}/v4/repos/{fixtures['head_space']}/head",
            16,
            args,
        )
        measure(report, "server", f"smriti: POST send (offline) ({other})", alt.url + "/", 16, args, script=send_lua)
    return fixtures


def measure_line_rows(
    report: Report,
    args: argparse.Namespace,
    smriti: Server,
    work: Path,
    url: str,
    fixtures: dict[str, Any],
    clients: int,
) -> None:
    """Each lines-and-forks row measured in turn with the row it is compared with (bench/lines.py):
    on this machine two rows measured minutes apart differ by more than the targets' margins."""
    watch = smriti if clients == 16 else None
    base = smriti.url
    head = f"{base}/v4/repos/{fixtures['head_space']}/head"
    log20 = f"{base}/v4/repos/{fixtures['log_spaces'][10_000]}/commits?limit=20"
    state = {"message": "bench commit", **STATE_4KB}
    commit_lua = post_script(
        work, "commit-beside", "/v4/chat/commit", [{"repo_id": s, **state} for s in fixtures["commit_spaces"]]
    )
    line_commit_lua = post_script(work, "commit-line", "/v4/chat/commit", lines.line_commit_bodies(fixtures, state))

    def forked_send_lua() -> Path:
        ids = asyncio.run(lines.forked_sessions(url, fixtures["send_space"], fixtures["mounted"], 2000))
        return post_script(work, "send-forked", "/v4/chat/send", lines.forked_send_bodies(ids))

    pairs: list[list[tuple[str, str, Path | Callable[[], Path] | None]]] = [
        [
            (f"{lines.BESIDE} POST commit (~4 KB)", base + "/", commit_lua),
            ("smriti: POST commit to a line (~4 KB)", base + "/", line_commit_lua),
        ],
        [(f"{lines.BESIDE} GET head", head, None), ("smriti: GET head of a line", f"{head}?branch={lines.LINE}", None)],
        [
            (f"{lines.BESIDE} GET log 20 of 10,000", log20, None),
            ("smriti: GET line log 20 of 10,000", f"{log20}&branch=main", None),
        ],
        [
            (
                f"{lines.BESIDE} POST send (offline), mounted",
                base + "/",
                lambda: mounted_send_script(work, url, fixtures),
            ),
            ("smriti: POST send (offline), forked", base + "/", forked_send_lua),
        ],
    ]
    for pair in pairs:
        rows_in_turn(report, "lines", pair, clients, args, seconds=args.seconds, watch=watch)


def run_lines_only(
    report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str
) -> None:
    """`--only lines`: the lines-and-forks rows and their targets, without the rest of the suite."""
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:
        fixtures = asyncio.run(seed_smriti(smriti.url, sessions=16))
        sizes = [10, 100_000]
        long = dict(zip(sizes, asyncio.run(write_sessions(url, fixtures["send_space"], sizes)), strict=True))
        asyncio.run(analyze(url))
        lines.seed(smriti.url, fixtures)
        for clients in (1, 16):
            measure_line_rows(report, args, smriti, work, url, fixtures, clients)
        measure_fork_growth(report, args, smriti, work, fixtures, long, seconds=max(2.0, args.seconds / 2))


def measure_fork_growth(
    report: Report,
    args: argparse.Namespace,
    smriti: Server,
    work: Path,
    fixtures: dict[str, Any],
    long: dict[int, uuid.UUID],
    *,
    seconds: float,
) -> None:
    forks: list[tuple[str, str, Path | Callable[[], Path] | None]] = [
        (
            f"growth: fork, {size:,} Turns",
            smriti.url + "/",
            post_script(
                work, f"fork-{size}", f"/v5/sessions/{long[size]}/fork", [{"checkpoint_id": fixtures["mounted"]}]
            ),
        )
        for size in (10, 100_000)
    ]
    rows_in_turn(report, "growth", forks, 16, args, seconds=seconds)


async def spaces_to_commit_to(pool: Pool, count: int, label: str) -> list[CommitCreate]:
    """`count` new empty Spaces, written directly, and a ~4 KB commit body for each."""
    spaces = [uuid.uuid4() for _ in range(count)]
    await pool.executemany(
        "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, $2, '', now(), now())",
        [(space, f"{label}-{space}") for space in spaces],
    )
    return [msgspec.convert({"repo_id": str(space), "message": "c", **STATE_4KB}, CommitCreate) for space in spaces]


async def smriti_commit_in_process(url: str, clients: int, seconds: float) -> tuple[float, float, float]:
    """Smriti's commit without HTTP, like for like with the peer's in-process aput: one Space per caller."""
    from peer_langgraph import throughput  # noqa: PLC0415

    pool = await create_pool(url, size=max(2, clients))
    store = CheckpointStore(pool)
    try:
        bodies = await spaces_to_commit_to(pool, clients, "in-process")

        def make_call(index: int) -> Any:
            async def call() -> None:
                await store.commit(bodies[index])

            return call

        return await throughput(clients, seconds, make_call)
    finally:
        await pool.close()


PeerStep = Callable[[int], dict[str, tuple[float, float, float]]]
"""One measurement beside the peer, for a number of callers: its results by row key."""


def run_peer(
    report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str, head_space: str
) -> None:
    """The peer, with Smriti's commit (in-process and over HTTP), the write floor and Smriti's HEAD
    measured in turn with it, run by run: their ratios to the peer then compare numbers from the
    same minute or two, not ten minutes apart. (The log's ratio to `alist` still uses its row from
    `run_smriti`.)"""
    try:
        from peer_langgraph import measure_peer  # noqa: PLC0415  (an optional extra)
    except ImportError:
        print("peer: langgraph-checkpoint-postgres is not installed (pip install -e 'backend[bench]'); skipped")
        return
    print("peer (LangGraph AsyncPostgresSaver, in-process), in turn with Smriti and the write floor:", flush=True)
    conninfo = url.replace("postgresql+asyncpg://", "postgresql://")
    with (
        server(server_command(args.server, "smriti"), env, ROOT, log) as smriti,
        server(server_command(args.server, "floor"), env, HERE, work / "servers.log") as floor,
    ):
        spaces = asyncio.run(_post_all(smriti.url, "/v4/repos", [{"name": f"beside-peer-{i}"} for i in range(16)]))
        commit_lua = post_script(
            work,
            "commit-beside-peer",
            "/v4/chat/commit",
            [{"repo_id": space["id"], "message": "bench commit", **STATE_4KB} for space in spaces],
        )
        write_lua = floor_write_script(work)
        over_http = {
            "http": (smriti.url + "/", commit_lua),
            "write floor": (floor.url + "/", write_lua),
            "head": (f"{smriti.url}/v4/repos/{head_space}/head", None),
        }
        failed = dict.fromkeys(over_http, 0)  # wrk's failed requests, per row, for one caller count

        def peer(clients: int) -> dict[str, tuple[float, float, float]]:
            return asyncio.run(
                measure_peer(conninfo, STATE_4KB, clients=clients, seconds=args.seconds, history=args.history)
            )

        def in_process(clients: int) -> dict[str, tuple[float, float, float]]:
            return {"in-process": asyncio.run(smriti_commit_in_process(url, clients, args.seconds))}

        def http_step(key: str) -> PeerStep:
            def step(clients: int) -> dict[str, tuple[float, float, float]]:
                target, script = over_http[key]
                run = wrk(target, clients=clients, seconds=args.seconds, script=script, watch=None)
                failed[key] += run.failed
                return {key: (run.rps, run.p50_ms, run.p99_ms)}

            return step

        steps: list[PeerStep] = [peer, in_process, *(http_step(key) for key in over_http)]
        for clients in (1, 16):
            runs: dict[str, list[tuple[float, float, float]]] = {}
            failed.update(dict.fromkeys(over_http, 0))
            for repeat in range(args.repeat):
                # Each round starts one step later, so that no row always runs after the same one.
                shift = repeat % len(steps)
                for step in steps[shift:] + steps[:shift]:
                    settle(url)
                    for key, value in step(clients).items():
                        runs.setdefault(key, []).append(value)
            for key, label in (
                ("aput", "peer: aput (~4 KB)"),
                ("aget_tuple", "peer: aget_tuple latest"),
                ("alist20", "peer: alist 20 of 10,000"),
                ("in-process", "smriti in-process: commit (~4 KB)"),
                ("http", "smriti: POST commit (~4 KB), beside the peer"),
                ("write floor", "floor: one durable write, beside the peer"),
                ("head", "smriti: GET head, beside the peer"),
            ):
                ordered = sorted(runs[key])
                row = record(report, "peer", label, clients, ordered[len(ordered) // 2])
                row.errors = failed.get(key, 0)


def evaluate(report: Report) -> None:
    floor = {c: report.get("floor: one-query", c).rps for c in (1, 16)}
    for row in report.rows:
        if row.group in ("floor", "smriti", "scale", "server") and row.clients in floor:
            row.ratio, row.ratio_to = row.rps / floor[row.clients], "floor one-query"
    for name in ("smriti: GET head", "smriti: GET commit"):
        ratio = report.get(name, 16).rps / floor[16]
        report.target(f"{name[8:]} at 16 clients / floor", ratio, "≥ 0.7", ratio >= 0.7)
    sends = {"send (offline)": "smriti: POST send (offline)", "mounted send": "smriti: POST send (offline), mounted"}
    for label, name in sends.items():
        ratio = report.get(name, 16).rps / floor[16]
        report.target(f"{label} at 16 clients / floor", ratio, "≥ 0.4", ratio >= 0.4)
    # A send reads its context and, after the provider answered, durably writes the exchange: at
    # least one floor read plus one floor write, whatever else it does.
    write = report.get("floor: one durable write", 16).rps
    ratio = 1 / (1 / floor[16] + 1 / write) / floor[16]
    report.target("a bare read then a bare write at 16 clients / floor", ratio, "(ceiling)", True)
    # Where each send's cost goes beyond that ceiling's: the server's CPU, or PostgreSQL's.
    read, written = report.get("floor: one-query", 16), report.get("floor: one durable write", 16)
    for label, name in sends.items():
        send = report.get(name, 16)
        for part, attribute in (("server", "cpu_us"), ("PostgreSQL", "postgres_cpu_us")):
            send_us, read_us, write_us = (getattr(row, attribute) or float("nan") for row in (send, read, written))
            what = f"{label}: {part} CPU / a bare read's + a bare write's, 16 clients"
            report.target(what, send_us / (read_us + write_us), "(reported)", True)
    if any(r.group == "peer" for r in report.rows):
        for clients in (1, 16):
            ratio = report.speedup("smriti: POST commit (~4 KB), beside the peer", "peer: aput (~4 KB)", clients)
            report.target(f"commit over HTTP / LangGraph aput, {clients} caller(s)", ratio, "≥ 1.0", ratio >= 1.0)
            # The most any HTTP write can do here: one durable INSERT behind a bare endpoint.
            ratio = report.speedup("floor: one durable write, beside the peer", "peer: aput (~4 KB)", clients)
            report.target(f"write floor over HTTP / LangGraph aput, {clients} caller(s)", ratio, "(ceiling)", True)
            ratio = report.speedup("smriti in-process: commit (~4 KB)", "peer: aput (~4 KB)", clients)
            report.target(f"commit in-process / LangGraph aput, {clients} caller(s)", ratio, "(like for like)", True)
            ratio = report.speedup("smriti: GET log 20 of 10,000", "peer: alist 20 of 10,000", clients)
            report.target(f"log 20 of 10,000 / LangGraph alist(20), {clients} caller(s)", ratio, "≥ 5", ratio >= 5)
            ratio = report.speedup("smriti: GET head, beside the peer", "peer: aget_tuple latest", clients)
            report.target(f"HEAD over HTTP / LangGraph aget_tuple, {clients} caller(s)", ratio, "(reported)", True)
    for kind in ("context", "send"):
        ratio = report.growth[kind][-1]["ratio"]
        aim = 1.2 if kind == "context" else 1.5
        report.target(f"{kind}: 100,000-Turn Session / 10-Turn one", ratio, f"≤ {aim}", ratio <= aim)
    for what in ("HEAD", "log 10"):
        ratio = report.speedup(f"growth: {what}, 10 Checkpoints", f"growth: {what}, 10,000 Checkpoints", 16)
        report.target(f"{what}: 10,000-Checkpoint Space time / 10-Checkpoint one", ratio, "≤ 1.2", ratio <= 1.2)
    t100 = 1 / report.get("growth: commit, 100 KB artifact", 1).rps
    t1000 = 1 / report.get("growth: commit, 1,000 KB artifact", 1).rps
    report.target("commit time, 1 MB artifact / 100 KB artifact", t1000 / t100, "≤ 10 (linear)", t1000 / t100 <= 10.5)
    inserts = {r["kilobytes"]: r["us_per_op"] for r in report.growth.get("postgres_jsonb_insert", [])}
    if 100 in inserts and 1000 in inserts:
        ratio = inserts[1000] / inserts[100]
        report.target("PostgreSQL alone: 1 MB / 100 KB JSONB insert", ratio, "(reference)", True)
    for clients in (1, 16):
        ratio = report.speedup("smriti: POST commit (~4 KB)", "floor: one durable write", clients)
        report.target(f"commit over HTTP / write floor, {clients} client(s)", ratio, "(reported)", True)
    one, two = report.get("smriti: GET head", 16), report.get("smriti: GET head, 2 processes", 16)
    ratio = two.rps / one.rps
    report.target("GET head: 2 processes / 1 process", ratio, "≥ 1.6", ratio >= 1.6)
    busy = two.machine_busy or 0.0
    report.target("machine CPU busy during the 2-process HEAD run (%)", 100 * busy, "(reported)", True)
    # One process left this share of the machine in use (server, PostgreSQL, wrk together); any
    # number of processes can at most use all of it.
    ceiling = 1 / one.machine_busy if one.machine_busy else float("nan")
    report.target("GET head: most 2 processes can reach here (1 / machine busy)", ceiling, "(ceiling)", True)
    report.target("API process resident memory, 16-client runs (MB)", report.rss_mb, "< 250", report.rss_mb < 250)
    lines.evaluate_lines(report)


def print_report(report: Report) -> None:
    print()
    print(
        f"{'path':<44} {'clients':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'× floor':>8} {'errors':>6} "
        f"{'CPU µs':>7} {'PG µs':>6} {'busy':>5}"
    )
    for row in report.rows:
        ratio = f"{row.ratio:8.2f}" if row.ratio is not None else " " * 8
        cpu = f"{row.cpu_us:7.0f}" if row.cpu_us is not None else " " * 7
        busy = f"{100 * row.machine_busy:4.0f}%" if row.machine_busy is not None else " " * 5
        postgres = f"{row.postgres_cpu_us:6.0f}" if row.postgres_cpu_us is not None else " " * 6
        print(
            f"{row.name:<44} {row.clients:>7} {row.rps:>9.0f} {row.p50_ms:>8.2f} {row.p99_ms:>8.2f} {ratio} "
            f"{row.errors:>6} {cpu} {postgres} {busy}"
        )
    print()
    print(f"{'target':<76} {'value':>8}  {'aim':<14} held")
    for target in report.targets:
        print(f"{target.what:<76} {target.value:>8.2f}  {target.aim:<14} {'yes' if target.held else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", "10")))
    parser.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "3")))
    parser.add_argument("--history", type=int, default=10_000, help="checkpoints in the peer's long thread")
    parser.add_argument("--server", choices=["uvicorn", "granian"], default="uvicorn")
    parser.add_argument("--quick", action="store_true", help="3 s per row, one run, a shorter peer thread")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "latest.json")
    parser.add_argument("--only", choices=["lines"], help="only these rows (and their targets)")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeat, args.history = 3.0, 1, 2_000

    work = Path(tempfile.mkdtemp(prefix="smriti-bench-"))
    url = asyncio.run(fresh_database("smriti_bench"))
    args.database_url = url
    if postmaster := asyncio.run(find_postmaster(url)):
        _POSTMASTERS.append(postmaster)
    asyncio.run(seed_floor(url))
    env = {
        "DATABASE_URL": url,
        "OPENAI_API_KEY": "",
        "ANTHROPIC_API_KEY": "",
        "SMRITI_LOG_LEVEL": "WARNING",
        "SMRITI_MAX_BODY_BYTES": str(4 * 2**20),  # room for the 1 MB artifact row
    }
    log = work / "servers.log"
    report = Report()
    if args.only == "lines":
        run_lines_only(report, args, env, log, work, url)
        lines.evaluate_lines(report)
        print_report(report)
        return
    run_floor(report, args, env, work, args.server)
    run_floor(report, args, env, work, "uvicorn" if args.server == "granian" else "granian")
    fixtures = run_smriti(report, args, env, log, work, url)
    run_peer(report, args, env, log, work, url, fixtures["head_space"])
    evaluate(report)
    print_report(report)
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "server": args.server,
        "seconds": args.seconds,
        "repeat": args.repeat,
        "rows": [asdict(r) for r in report.rows],
        "growth": report.growth,
        "targets": [asdict(t) for t in report.targets],
        "rss_mb": report.rss_mb,
        "median_floor_rps": statistics.median(r.rps for r in report.rows if r.name == "floor: one-query"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    print(f"\nwritten to {args.out}; server logs in {log}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
