"""The growth rows: HEAD and log for Spaces of 10, 1,000 and 10,000 Checkpoints, commits with 1 KB,
100 KB and 1 MB artifacts (and PostgreSQL's own JSONB insert of them, for reference), forks, and
context assembly and send in-process for Sessions of 10, 1,000 and 100,000 Turns."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
from lines import measure_fork_growth
from measure import measure, measure_in_turn, post_script
from report import Report
from servers import Server

from smriti.chat.context import assemble
from smriti.chat.exchange import ChatService
from smriti.chat.schemas import SendRequest
from smriti.chat.store import ChatStore
from smriti.core.config import Settings
from smriti.db.pool import create_pool
from smriti.providers.registry import ProviderRegistry
from smriti.sessions.claims import SendClaims
from smriti.sessions.turns import TurnStore


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
        store=ChatStore(pool),
        turns=TurnStore(pool),
        providers=ProviderRegistry(Settings()),
        nudge_after_turns=12,
        claims=SendClaims(pool, ttl_s=60),
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


def run_growth(
    report: Report,
    args: argparse.Namespace,
    smriti: Server,
    work: Path,
    url: str,
    fixtures: dict[str, Any],
    long: dict[int, uuid.UUID],
) -> None:
    """The growth rows, on the server that has just measured the hot paths (`long`: the Sessions
    of 10, 1,000 and 100,000 Turns by length)."""
    print("growth (HTTP, 16 clients):", flush=True)
    short = max(2.0, args.seconds / 2)
    spaces = fixtures["log_spaces"].items()
    heads = [(f"growth: HEAD, {size:,} Checkpoints", f"{smriti.url}/v4/repos/{space}/head") for size, space in spaces]
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
