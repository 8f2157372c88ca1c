"""Smriti's benchmark: Smriti's hot paths against a floor measured in the same run.

    make bench                      (or: .venv/bin/python bench/run.py --seconds 10)

Every HTTP figure comes from `wrk` in its own process against a server process on 127.0.0.1;
each row is compared with the floor (a bare Litestar endpoint doing one asyncpg primary-key
SELECT of a ~4 KB JSONB row) at the same concurrency. Absolute numbers drift between runs and
machines; the ratios are what to read. Results are printed as a table and written as JSON.
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
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx

from smriti.chat.context import assemble
from smriti.chat.store import ChatStore
from smriti.db.embedded import start_embedded_postgres
from smriti.db.pool import create_pool

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

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
    name: str
    clients: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    ratio: float | None = None


# ---------------------------------------------------------------------------------------------
# database


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def fresh_database(server_url: str, name: str) -> str:
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return _with_database(server_url, name)


async def seed_floor(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE bench_floor (id int PRIMARY KEY, doc jsonb NOT NULL)")
        doc = json.dumps(STATE_4KB)
        await conn.executemany("INSERT INTO bench_floor VALUES ($1, $2::jsonb)", [(i, doc) for i in range(1, 1001)])
        await conn.execute("ANALYZE bench_floor")
    finally:
        await conn.close()


# ---------------------------------------------------------------------------------------------
# servers and wrk


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> Iterator[str]:
    port = _free_port()
    full = [part.replace("{port}", str(port)) for part in command]
    with log.open("ab") as out:
        process = subprocess.Popen(full, env={**os.environ, **env}, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{full} exited; see {log}")
            try:
                if httpx.get(url + "/", timeout=1).status_code < 500:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    match = re.match(r"([\d.]+)(us|ms|s)", text)
    if not match:
        return float("nan")
    return float(match.group(1)) * _UNITS[match.group(2)]


def wrk(url: str, *, clients: int, seconds: int, script: Path | None = None) -> tuple[float, float, float, int]:
    command = ["wrk", "-t1", f"-c{clients}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"50%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"99%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    errors_match = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors:.*timeout (\d+)", output)
    errors = int(errors_match.group(1)) if errors_match else 0
    errors += int(socket_errors.group(1)) if socket_errors else 0
    return rps, p50, p99, errors


def post_script(directory: Path, name: str, path: str, bodies: list[dict[str, Any]]) -> Path:
    """A wrk Lua script that POSTs the given bodies round robin."""
    lua_bodies = ",\n".join("[==[" + json.dumps(body) + "]==]" for body in bodies)
    script = directory / f"{name}.lua"
    script.write_text(
        f"""
local bodies = {{
{lua_bodies}
}}
local n = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  return wrk.format("POST", "{path}", nil, bodies[(n % #bodies) + 1])
end
"""
    )
    return script


def measure(name: str, url: str, clients: int, seconds: int, repeat: int, script: Path | None = None) -> Row:  # noqa: PLR0917
    runs = [wrk(url, clients=clients, seconds=seconds, script=script) for _ in range(repeat)]
    # Median by throughput: the run in the middle, with its own latencies.
    runs.sort(key=lambda r: r[0])
    rps, p50, p99, _ = runs[len(runs) // 2]
    errors = sum(r[3] for r in runs)
    print(f"  {name:<34} c={clients:<3} {rps:>9.0f} req/s  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms", flush=True)
    return Row(name, clients, rps, p50, p99, errors)


# ---------------------------------------------------------------------------------------------
# Smriti fixtures


def seed_smriti(base: str, sessions: int) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30) as client:

        def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            response = client.post(path, json=body)
            response.raise_for_status()
            result: dict[str, Any] = response.json()
            return result

        head_space = post("/v4/repos", {"name": "bench-head"})
        head = post("/v4/chat/commit", {"repo_id": head_space["id"], "message": "bench state", **STATE_4KB})
        commit_spaces = [post("/v4/repos", {"name": f"bench-commit-{i}"})["id"] for i in range(16)]
        send_space = post("/v4/repos", {"name": "bench-send"})
        mounted = post("/v4/chat/commit", {"repo_id": send_space["id"], "message": "mounted", **STATE_4KB})
        session_ids = [
            post(f"/v4/repos/{send_space['id']}/sessions", {"title": f"s{i}"})["id"] for i in range(sessions)
        ]
    return {
        "head_space": head_space["id"],
        "head": head,
        "commit_spaces": commit_spaces,
        "mounted": mounted["id"],
        "sessions": session_ids,
    }


async def context_growth(url: str, space_id: str, checkpoint_id: str, iterations: int) -> list[dict[str, Any]]:
    """Context assembly (read + build) for Sessions of growing length, same 10 Turns after the boundary."""
    conn = await asyncpg.connect(url)
    sizes = [20, 1_000, 100_000]
    sessions: dict[int, uuid.UUID] = {}
    try:
        for size in sizes:
            session_id = uuid.uuid4()
            sessions[size] = session_id
            await conn.execute(
                "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
                "VALUES ($1, $2, 'growth', $3, now(), now())",
                session_id,
                uuid.UUID(space_id),
                size,
            )
            await conn.execute(
                "INSERT INTO turns (session_id, sequence_number, role, content) "
                "SELECT $1, n, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END, "
                "'turn ' || n || ': ' || repeat('words ', 30) FROM generate_series(1, $2) AS n",
                session_id,
                size,
            )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()

    pool = await create_pool(url, size=2)
    store = ChatStore(pool)
    results = []
    try:
        for size in sizes:
            base = size - 10
            for _ in range(50):  # warm caches and prepared statements
                context = await store.read_context(
                    sessions[size], checkpoint_id=uuid.UUID(checkpoint_id), history_base_seq=base
                )
            started = time.perf_counter()
            for _ in range(iterations):
                context = await store.read_context(
                    sessions[size], checkpoint_id=uuid.UUID(checkpoint_id), history_base_seq=base
                )
                assemble(context.checkpoint, context.history, "next message")
            elapsed = time.perf_counter() - started
            assert len(context.history) == 10
            results.append({"turns": size, "after_boundary": 10, "us_per_op": elapsed / iterations * 1e6})
    finally:
        await pool.close()
    smallest = results[0]["us_per_op"]
    for result in results:
        result["ratio_to_smallest"] = result["us_per_op"] / smallest
    return results


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", "10")))
    parser.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "1")))
    parser.add_argument("--server", choices=["granian", "uvicorn"], default="granian")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "latest.json")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="smriti-bench-"))
    server_url = os.environ.get("DATABASE_URL")
    if not server_url:
        server_url = start_embedded_postgres(HERE / "results" / "pg")
    url = asyncio.run(fresh_database(server_url, "smriti_bench"))
    asyncio.run(seed_floor(url))
    env = {"DATABASE_URL": url, "OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "SMRITI_LOG_LEVEL": "WARNING"}
    python = sys.executable
    log = work / "servers.log"
    rows: list[Row] = []
    clients_list = (1, 16)

    print(f"floor ({args.server}, 1 worker):", flush=True)
    floor_command = [
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
        "1",
        "--no-log",
        "floor_app:create_floor_app",
    ]
    if args.server == "uvicorn":
        floor_command = [
            python,
            "-m",
            "uvicorn",
            "--factory",
            "--port",
            "{port}",
            "--log-level",
            "warning",
            "floor_app:create_floor_app",
        ]
    with server(floor_command, env, HERE, log) as floor:
        for clients in clients_list:
            rows.append(measure("floor: constant (HTTP only)", floor + "/constant", clients, args.seconds, args.repeat))
            rows.append(measure("floor: one-query", floor + "/row/7", clients, args.seconds, args.repeat))

    print(f"smriti ({args.server}, 1 worker):", flush=True)
    smriti_command = [
        python,
        "-m",
        "smriti",
        "serve",
        "--port",
        "{port}",
        "--workers",
        "1",
        "--server",
        args.server,
    ]
    with server(smriti_command, env, ROOT, log) as smriti:
        fixtures = seed_smriti(smriti, sessions=2000)
        commit_bodies = [{"repo_id": s, "message": "bench commit", **STATE_4KB} for s in fixtures["commit_spaces"]]
        send_bodies = [
            {"session_id": s, "content": "What should we do next about the storage layer?"}
            for s in fixtures["sessions"]
        ]
        commit_lua = post_script(work, "commit", "/v4/chat/commit", commit_bodies)
        send_lua = post_script(work, "send", "/v4/chat/send", send_bodies)
        head_url = f"{smriti}/v4/repos/{fixtures['head_space']}/head"
        for clients in clients_list:
            rows.append(measure("smriti: GET head", head_url, clients, args.seconds, args.repeat))
            rows.append(
                measure(
                    "smriti: POST commit (~4 KB)",
                    smriti + "/",
                    clients,
                    args.seconds,
                    args.repeat,
                    commit_lua,
                )
            )
            rows.append(
                measure("smriti: POST send (offline)", smriti + "/", clients, args.seconds, args.repeat, send_lua)
            )
        growth = asyncio.run(context_growth(url, fixtures["head_space"], fixtures["head"]["id"], iterations=300))

    floor_rps = {r.clients: r.rps for r in rows if r.name == "floor: one-query"}
    for row in rows:
        row.ratio = row.rps / floor_rps[row.clients]

    print()
    print(f"{'path':<34} {'clients':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'× floor':>8} {'errors':>6}")
    for row in rows:
        print(
            f"{row.name:<34} {row.clients:>7} {row.rps:>9.0f} {row.p50_ms:>8.2f} {row.p99_ms:>8.2f} "
            f"{row.ratio:>8.2f} {row.errors:>6}"
        )
    print()
    print("context assembly (read + build), 10 Turns after the boundary:")
    for result in growth:
        print(
            f"  {result['turns']:>7} Turns: {result['us_per_op']:8.0f} µs/op  "
            f"({result['ratio_to_smallest']:.2f}× the {growth[0]['turns']}-Turn Session)"
        )

    report = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "server": args.server,
        "seconds": args.seconds,
        "repeat": args.repeat,
        "http": [asdict(r) for r in rows],
        "context_growth": growth,
        "medians": {"floor_one_query_rps": statistics.median(floor_rps.values())},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
