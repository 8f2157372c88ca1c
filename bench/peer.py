"""The peer rows: LangGraph's AsyncPostgresSaver (bench/peer_langgraph.py) in-process on the same
PostgreSQL, each run in turn with Smriti's commit in-process and over HTTP, the write floor and
Smriti's HEAD."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from measure import floor_write_script, post_script, record, settle, wrk
from payload import STATE_4KB
from report import Report
from seed import post_all, spaces_to_commit_to
from servers import HERE, ROOT, server, server_command

from smriti.checkpoints.store import CheckpointStore
from smriti.db.pool import create_pool


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
        spaces = asyncio.run(post_all(smriti.url, "/v4/repos", [{"name": f"beside-peer-{i}"} for i in range(16)]))
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
