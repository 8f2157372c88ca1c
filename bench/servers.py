"""The servers a benchmark row runs against (started on a free port, stopped after), their CPU
time and memory, and the CPU time of the run's PostgreSQL and of the whole machine."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx
import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


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


SERVERS: dict[str, Server] = {}
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
    SERVERS[handle.url] = handle
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
        SERVERS.pop(handle.url, None)
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)


POSTMASTERS: list[psutil.Process] = []
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
    total = float("nan") if not POSTMASTERS else 0.0
    for postmaster in POSTMASTERS:
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


def cpu_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


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
