"""Instructions per request on Smriti's hot paths, counted by valgrind (callgrind).

    make bench-instructions                       (every row)
    .venv/bin/python bench/instructions.py send   (one row)

Requests per second on a shared 2-core machine move by ±10% between identical runs, which hides
the 5–15% a single optimisation buys. Instructions do not move: callgrind counts the same total
for the same code and input whatever else the machine is doing. So this drives the application
in-process (its ASGI callable, no HTTP server, no load generator), 16 requests at a time against
the real PostgreSQL, and counts the instructions of the Python process only while the measured
requests run (`callgrind_control` switches counting on and off around them). PostgreSQL's own
work is not counted; `make bench` measures the whole.

Use it to compare two versions of the code: same row, same N, before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROWS = ("head", "checkpoint", "log", "commit", "send", "mounted_send")
CONCURRENCY = 16
HISTORY = 60
"""Turns already in each Session before the measured sends (the 16-client send row averages
about this many over its run)."""


# With --token, every request carries the API token, so the token guard's cost is counted too.
_TOKEN = os.environ.get("SMRITI_API_TOKEN", "")
_AUTHORIZATION: list[tuple[bytes, bytes]] = [(b"authorization", f"Bearer {_TOKEN}".encode())] if _TOKEN else []


def _scope(method: str, path: str, query: bytes, body: bytes) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *_AUTHORIZATION,
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
        "state": {},
    }


async def _sessions_with_history(
    post: Callable[[str, dict[str, Any]], Awaitable[Any]], pool: Any, space: str
) -> list[str]:
    """64 Sessions in `space`, each with `HISTORY` Turns already stored."""
    ids = [(await post(f"/v4/repos/{space}/sessions", {"title": "s"}))["id"] for _ in range(64)]
    lengths = [(uuid.UUID(s), HISTORY) for s in ids]
    await pool.executemany("UPDATE sessions SET last_seq = $2 WHERE id = $1", lengths)
    await pool.executemany(
        "INSERT INTO turns (session_id, sequence_number, role, content) "
        "SELECT $1, n, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END, "
        "'turn ' || n || ': ' || repeat('words ', 20) FROM generate_series(1, $2) AS n",
        lengths,
    )
    return ids


async def _child(row: str, requests: int) -> None:
    import httpx  # noqa: PLC0415  (the parent process needs none of these)
    from payload import STATE_4KB  # noqa: PLC0415

    from smriti.server.app import create_app  # noqa: PLC0415

    app = create_app()
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    lifespan_scope = {"type": "lifespan", "asgi": {"version": "3.0"}}
    lifespan = asyncio.create_task(app(lifespan_scope, inbox.get, outbox.put))  # type: ignore[arg-type]
    await inbox.put({"type": "lifespan.startup"})
    started = await outbox.get()
    assert started["type"] == "lifespan.startup.complete", started

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1", headers=dict(_AUTHORIZATION)
    ) as client:

        async def post(path: str, body: dict[str, Any]) -> Any:
            response = await client.post(path, json=body)
            response.raise_for_status()
            return response.json()

        spaces = [(await post("/v4/repos", {"name": f"instructions-{uuid.uuid4()}"}))["id"] for _ in range(16)]
        for n in range(20):
            head = await post("/v4/chat/commit", {"repo_id": spaces[0], "message": f"c{n}", **STATE_4KB})
        pool = app.state.services.pool
        sessions = await _sessions_with_history(post, pool, spaces[1])
        mounted_sessions = await _sessions_with_history(post, pool, spaces[0])  # the Space of the Checkpoint they mount

    async def call(method: str, path: str, body: bytes = b"", query: bytes = b"") -> None:
        sent: list[dict[str, Any]] = []
        delivered = False

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # no disconnect: the request ends by its response
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(_scope(method, path, query, body), receive, send)  # type: ignore[arg-type]
        if sent[0]["status"] >= 300:
            raise RuntimeError(f"{method} {path}: {sent[0]['status']} {sent[1].get('body', b'')[:300]!r}")

    commit_bodies = [json.dumps({"repo_id": s, "message": "bench", **STATE_4KB}).encode() for s in spaces]
    send_bodies = [json.dumps({"session_id": s, "content": "What should we do next?"}).encode() for s in sessions]
    # Mounted on the 4 KB Checkpoint 10 Turns before the end of its history: 10 Turns and the
    # Checkpoint in context at first, as in `make bench`'s mounted send row.
    mounted_bodies = [
        json.dumps(
            {
                "session_id": s,
                "content": "What should we do next?",
                "checkpoint_id": head["id"],
                "history_base_seq": HISTORY - 10,
            }
        ).encode()
        for s in mounted_sessions
    ]
    calls: dict[str, Callable[[int], Awaitable[None]]] = {
        "head": lambda i: call("GET", f"/v4/repos/{spaces[0]}/head"),
        "checkpoint": lambda i: call("GET", f"/v4/commits/{head['id']}"),
        "log": lambda i: call("GET", f"/v4/repos/{spaces[0]}/commits", query=b"limit=20"),
        "commit": lambda i: call("POST", "/v4/chat/commit", commit_bodies[i % len(commit_bodies)]),
        "send": lambda i: call("POST", "/v4/chat/send", send_bodies[i % len(send_bodies)]),
        "mounted_send": lambda i: call("POST", "/v4/chat/send", mounted_bodies[i % len(mounted_bodies)]),
    }
    make = calls[row]

    async def run(count: int) -> None:
        async def worker(first: int) -> None:
            for i in range(first, count, CONCURRENCY):
                await make(i)

        await asyncio.gather(*(worker(k) for k in range(CONCURRENCY)))

    await run(requests)  # warm: prepared statements, caches, first-call imports
    _count_instructions(on=True)
    await run(requests)
    _count_instructions(on=False)

    await inbox.put({"type": "lifespan.shutdown"})
    await outbox.get()
    await lifespan


def _count_instructions(*, on: bool) -> None:
    """Switch callgrind's counting for this process; blocking on purpose, so that nothing else
    runs between the switch and the measured requests. Without valgrind it does nothing."""
    control = shutil.which("callgrind_control")
    if control is not None:
        state = "on" if on else "off"
        subprocess.run([control, f"--instr={state}", str(os.getpid())], capture_output=True, check=False)


def count(row: str, requests: int, env: dict[str, str]) -> float:
    """Thousands of instructions per request for one row, in a fresh process under callgrind."""
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(
            [
                shutil.which("valgrind") or "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={work}/callgrind.out",
                sys.executable,
                str(Path(__file__)),
                row,
                "--requests",
                str(requests),
                "--child",
            ],
            env={**os.environ, **env, "PYTHONMALLOC": "malloc"},  # valgrind sees every allocation
            capture_output=True,
            text=True,
            check=False,
        )
    collected = re.search(r"Collected : ([\d,]+)", result.stderr)
    if result.returncode != 0 or collected is None:
        raise RuntimeError(f"{row}: the child failed\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}")
    return int(collected.group(1).replace(",", "")) / requests / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", nargs="*", help=f"any of {', '.join(ROWS)} (default: all)")
    parser.add_argument("--requests", type=int, default=200, help="measured requests per row")
    parser.add_argument("--token", action="store_true", help="every request carries an API token (the guard's cost)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.rows = args.rows or list(ROWS)
    if unknown := set(args.rows) - set(ROWS):
        parser.error(f"unknown rows: {', '.join(sorted(unknown))}")
    sys.path.insert(0, str(HERE))
    if args.child:
        import uvloop  # noqa: PLC0415

        uvloop.run(_child(args.rows[0], args.requests))
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")

    from database import fresh_database  # noqa: PLC0415

    url = asyncio.run(fresh_database("smriti_instructions"))
    env = {"DATABASE_URL": url, "OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "SMRITI_LOG_LEVEL": "WARNING"}
    if args.token:
        env["SMRITI_API_TOKEN"] = "bench-" + "t" * 32
    print(f"{'row':<12} {'k instructions / request':>26}   ({args.requests} requests, {CONCURRENCY} at a time)")
    for row in args.rows:
        print(f"{row:<12} {count(row, args.requests, env):>26.1f}", flush=True)


if __name__ == "__main__":
    main()
