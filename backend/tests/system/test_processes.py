"""Real `smriti serve` processes: sequence numbers across processes, and data across restarts."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import psutil
import pytest

from tests.support.live_server import LiveServer, free_port, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


def _post(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json=body)


async def test_concurrent_sends_through_two_processes_are_gapless(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused")}
    with live_server(env, tmp_path) as first, live_server(env, tmp_path) as second:
        async with httpx.AsyncClient(timeout=60) as client:
            space = (await client.post(f"{first.url}/v4/repos", json={"name": "race"})).json()
            sessions = [
                (await client.post(f"{first.url}/v4/repos/{space['id']}/sessions", json={})).json() for _ in range(3)
            ]
            one, two, three = (s["id"] for s in sessions)
            servers = [first.url, second.url]
            # 64 sends to one Session, plus two more Sessions interleaved with 16 each.
            jobs = [(one, f"one-{i}") for i in range(64)]
            jobs += [(two, f"two-{i}") for i in range(16)] + [(three, f"three-{i}") for i in range(16)]
            responses = await asyncio.gather(
                *(
                    client.post(f"{servers[i % 2]}/v4/chat/send", json={"session_id": session, "content": content})
                    for i, (session, content) in enumerate(jobs)
                )
            )
    assert [r.status_code for r in responses] == [201] * len(jobs), {r.text for r in responses if r.status_code != 201}
    for session_id, count in ((one, 64), (two, 16), (three, 16)):
        rows = await db.fetch(
            "SELECT sequence_number, role, content FROM turns WHERE session_id = $1 ORDER BY sequence_number",
            __import__("uuid").UUID(session_id),
        )
        assert [r["sequence_number"] for r in rows] == list(range(1, 2 * count + 1))
        for user, assistant in zip(rows[0::2], rows[1::2], strict=True):
            assert (user["role"], assistant["role"]) == ("user", "assistant")
            quoted = re.search(r"Your message: «(.*)»", assistant["content"])
            assert quoted is not None
            assert quoted.group(1) == user["content"]
        last_seq = await db.fetchval("SELECT last_seq FROM sessions WHERE id = $1", __import__("uuid").UUID(session_id))
        assert last_seq == 2 * count


async def test_data_survives_a_restart_of_app_and_embedded_database(tmp_path: Path) -> None:
    data_dir = tmp_path / "smriti-data"
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir)}
    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            space = (await client.post("/v4/repos", json={"name": "durable"})).json()
            session = (await client.post(f"/v4/repos/{space['id']}/sessions", json={"title": "s"})).json()
            sent = (
                await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "remember"})
            ).json()
            saved = (await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "kept"})).json()
        assert server.stop(signal.SIGTERM) == 0
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    assert not pid_file.exists(), "the embedded PostgreSQL should stop with the app"

    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            assert (await client.get(f"/v4/repos/{space['id']}/head")).json() == saved
            turns = (await client.get(f"/v4/sessions/{session['id']}/turns")).json()["items"]
            assert turns == [sent["user_turn"], sent["assistant_turn"]]
            assert (await client.get(f"/v4/repos/{space['id']}/verify")).json()["ok"] is True


async def test_body_limit_holds_for_chunked_and_announced_bodies(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_MAX_BODY_BYTES": "65536"}

    async def chunks() -> Any:
        yield b'{"name": "'
        for _ in range(20):
            yield b"x" * 10_000
        yield b'"}'

    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            small = await client.post("/v4/repos", json={"name": "fits"})
            assert small.status_code == 201
            response = await client.post("/v4/repos", content=chunks(), headers={"content-type": "application/json"})
            assert "content-length" not in response.request.headers
            assert response.status_code == 413
            assert response.json()["status"] == 413
            # Announced too large: refused before the body is read, and the client still reads why.
            announced = await client.post("/v4/repos", json={"name": "y" * 400_000})
            assert announced.status_code == 413
            assert announced.json()["status"] == 413
    assert await db.fetchval("SELECT count(*) FROM repos") == 1


def _workers(server: LiveServer) -> list[psutil.Process]:
    """The uvicorn worker processes of `smriti serve` (not multiprocessing's resource tracker)."""
    children = psutil.Process(server.process.pid).children()
    return [child for child in children if any("spawn_main" in part for part in child.cmdline())]


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def _read_response(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n", 1)[0]


def _listening_sockets(pid: int, port: int) -> set[str]:
    """Inodes of the sockets process `pid` holds that listen on TCP `port`."""
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # 0A: LISTEN
                listening.add(fields[9])
    held = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            held.add(os.readlink(fd).removeprefix("socket:[").removesuffix("]"))
    return listening & held


async def test_uvicorn_workers_share_a_burst_of_connections_and_stop_together(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    """Each worker listens on a socket of its own (SO_REUSEPORT), so the kernel spreads
    connections over them; with one shared socket, whichever worker woke first could take a
    whole burst (measured with wrk: in 4 of 6 runs, one of two workers served everything)."""
    env = {**NO_KEYS, "DATABASE_URL": database_url}
    with live_server(env, tmp_path, workers=2, server="uvicorn") as server:
        workers = _workers(server)
        assert len(workers) == 2
        port = int(server.url.rsplit(":", 1)[1])
        for _ in range(100):  # /health answered by one worker; the other may still be starting
            sockets = [_listening_sockets(worker.pid, port) for worker in workers]
            if all(sockets):
                break
            await asyncio.sleep(0.1)
        assert all(len(held) == 1 for held in sockets), sockets
        assert sockets[0] != sockets[1]
        before = [_cpu_seconds(worker) for worker in workers]
        connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(64)]
        try:
            for _ in range(40):
                for connection in connections:
                    connection.sendall(b"GET /v4/providers HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert {_read_response(connection) for connection in connections} == {b"HTTP/1.1 200 OK"}
        finally:
            for connection in connections:
                connection.close()
        used = [_cpu_seconds(worker) - start for worker, start in zip(workers, before, strict=True)]
        assert min(used) > 0.15 * sum(used), used
        assert server.stop(signal.SIGTERM) == 0
    _, left = psutil.wait_procs(workers, timeout=10)
    assert left == []


async def test_a_worker_that_dies_stops_the_service(database_url: str, tmp_path: Path) -> None:
    """Not left running one worker short: the others stop and `smriti serve` exits with 1, so
    whatever supervises it restarts it whole."""
    env = {**NO_KEYS, "DATABASE_URL": database_url}
    with live_server(env, tmp_path, workers=2, server="uvicorn") as server:
        dying, other = _workers(server)
        dying.kill()
        assert server.process.wait(30) == 1
        assert "stopped on its own" in server.log()
        _, left = psutil.wait_procs([other], timeout=10)
        assert left == []


def test_serve_refuses_an_address_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "smriti", "serve", "--port", str(port), "--workers", "2"],
            env={**os.environ, **NO_KEYS, "SMRITI_DATA_DIR": str(tmp_path / "unused")},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert result.returncode == 1
    assert f"127.0.0.1:{port} is already in use" in result.stderr
    assert not (tmp_path / "unused").exists()  # refused before starting a database


def test_serve_says_ready_only_once_health_answers(tmp_path: Path, database_url: str) -> None:
    """A first-time user is told where to go when the page would load, not seconds before (issue 44)."""
    port = free_port()
    env = {**os.environ, **NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused")}
    process = subprocess.Popen(
        [sys.executable, "-m", "smriti", "serve", "--port", str(port)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stderr is not None
        said: list[str] = []
        for line in process.stderr:
            said.append(line)
            if "ready at" in line:
                break
        else:
            raise AssertionError(f"never said ready:\n{''.join(said)}")
        assert f"ready at http://127.0.0.1:{port}/" in said[-1]
        assert "/health" in said[-1]
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)  # reads the rest of stderr and closes it


def _postmaster(data_dir: Path) -> psutil.Process | None:
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    if not pid_file.exists():
        return None
    return psutil.Process(int(pid_file.read_text().split()[0]))


def _stopped(postmaster: psutil.Process, data_dir: Path) -> bool:
    with contextlib.suppress(psutil.TimeoutExpired):
        postmaster.wait(20)
    return not postmaster.is_running() and _postmaster(data_dir) is None


@pytest.mark.parametrize(
    ("server", "workers", "stop"),
    [
        ("uvicorn", 1, signal.SIGTERM),  # uvicorn re-raised SIGTERM, so the wheel's atexit never ran
        ("uvicorn", 1, signal.SIGINT),
        ("uvicorn", 2, signal.SIGTERM),
        ("granian", 1, signal.SIGTERM),
    ],
)
def test_the_embedded_postgres_stops_with_serve(tmp_path: Path, server: str, workers: int, stop: int) -> None:
    data_dir = tmp_path / "data"
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir)}
    with live_server(env, tmp_path, workers=workers, server=server) as running:
        postmaster = _postmaster(data_dir)
        assert postmaster is not None
        assert running.stop(stop) == 0
    assert _stopped(postmaster, data_dir), "postgres kept running after a clean stop"


def test_a_dead_user_of_the_embedded_postgres_no_longer_keeps_it_running(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir)}
    with live_server(env, tmp_path, server="uvicorn") as running:
        assert running.stop(signal.SIGTERM) == 0
    # A process that died without letting go (SIGKILL, a crash) stays on the wheel's list of users.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (data_dir / "pgdata" / ".handle_pids.json").write_text(f"[{dead.pid}]")
    with live_server(env, tmp_path, server="uvicorn") as running:
        postmaster = _postmaster(data_dir)
        assert postmaster is not None
        os.killpg(running.process.pid, signal.SIGINT)  # Ctrl+C in the terminal: the whole group
        assert running.process.wait(30) == 0
    assert _stopped(postmaster, data_dir), "a dead process on the list kept postgres running"


def test_a_worker_that_dies_stops_the_embedded_postgres_too(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir)}
    with live_server(env, tmp_path, workers=2, server="uvicorn") as running:
        postmaster = _postmaster(data_dir)
        assert postmaster is not None
        _workers(running)[0].kill()
        assert running.process.wait(30) == 1
    assert _stopped(postmaster, data_dir)
