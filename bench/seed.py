"""The database set-up of the rows: the floor's table, and Smriti's fixtures (Spaces, Checkpoints,
Sessions), seeded over HTTP or, where that would take too long, written directly."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import msgspec
from measure import post_script
from payload import STATE_4KB

from smriti.checkpoints.schemas import CommitCreate
from smriti.db.pool import Pool


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


def _seed_client(base: str) -> httpx.AsyncClient:
    """A client for fixtures that never reuses a connection the server may be closing: idle ones
    are dropped after 1 s, well before uvicorn's 5 s keep-alive timeout."""
    return httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=32, keepalive_expiry=1))


async def post_all(base: str, path: str, bodies: list[dict[str, Any]], concurrency: int = 16) -> list[Any]:
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
    spaces = await post_all(
        base,
        "/v4/repos",
        [{"name": name} for name in ("head", "send", "log-10", "log-1000", "log-10000", "artifacts")]
        + [{"name": f"commit-{i}"} for i in range(16)],
    )
    by_name = {space["name"]: space["id"] for space in spaces}
    head = (await post_all(base, "/v4/chat/commit", [{"repo_id": by_name["head"], "message": "state", **STATE_4KB}]))[0]
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
    mounted = (await post_all(base, "/v4/chat/commit", [mount_body]))[0]
    sent = await post_all(base, f"/v4/repos/{by_name['send']}/sessions", [{"title": f"s{i}"} for i in range(sessions)])
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


async def spaces_to_commit_to(pool: Pool, count: int, label: str) -> list[CommitCreate]:
    """`count` new empty Spaces, written directly, and a ~4 KB commit body for each."""
    spaces = [uuid.uuid4() for _ in range(count)]
    await pool.executemany(
        "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, $2, '', now(), now())",
        [(space, f"{label}-{space}") for space in spaces],
    )
    return [msgspec.convert({"repo_id": str(space), "message": "c", **STATE_4KB}, CommitCreate) for space in spaces]
