"""What a commit writes to PostgreSQL's WAL, and its CPU time, with random or time-ordered ids.

    make bench-wal      (or: .venv/bin/python bench/commit_wal.py)

After each PostgreSQL checkpoint, the first change to any page writes the whole page (8 KB) to
the WAL, a "full-page image". A Checkpoint's id goes into three indexes (the primary key, the
parent link and the per-Space key); with random ids (UUID version 4, what Smriti used before)
each commit lands on a random page of each, so in a large table nearly every commit touches
pages not yet changed since the last checkpoint. Time-ordered ids (UUID version 7, `smriti.core.ids`)
append at the right-hand edge. This fills two databases alike (Spaces × Checkpoints), then,
alternating between them, runs a checkpoint and commits through Smriti's own store on one
connection, measuring the WAL written (bytes and full-page images, per commit) and the CPU time
of that connection's PostgreSQL backend (/proc/<pid>/schedstat, so the database must run on
this machine: the embedded one or a local DATABASE_URL). Median of the rounds.

The WAL figures are the whole server's during a round, so nothing else may run on it meanwhile;
autovacuum is switched off on the two databases' tables for that reason. CHECKPOINT needs a
superuser or the pg_checkpoint role, and the full-page count PostgreSQL 15 or later.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backend"))

from database import fresh_database  # noqa: E402
from pg_cpu import backend_cpu_ns  # noqa: E402
from seed import spaces_to_commit_to  # noqa: E402

from smriti.checkpoints.schemas import CommitCreate  # noqa: E402
from smriti.checkpoints.store import CheckpointStore  # noqa: E402
from smriti.core.ids import uuid7  # noqa: E402
from smriti.db.pool import Pool, create_pool  # noqa: E402

IDS: dict[str, Callable[[], uuid.UUID]] = {"random (uuid4, before)": uuid.uuid4, "time-ordered (uuid7, now)": uuid7}


class Filled:
    def __init__(self, pool: Pool, store: CheckpointStore, bodies: list[CommitCreate]) -> None:
        self.pool, self.store, self.bodies = pool, store, bodies
        self.sent = 0

    async def commit(self) -> None:
        self.sent += 1
        await self.store.commit(self.bodies[self.sent % len(self.bodies)])


async def fill(name: str, new_id: Callable[[], uuid.UUID], spaces: int, checkpoints: int) -> Filled:
    url = await fresh_database(name)
    # Filled 8 at a time; measured on one connection (the backend whose CPU time is read).
    pool = await create_pool(url, size=8)
    # The WAL figures are the server's: no vacuum of these tables may write during a round.
    for table in ("repos", "commits"):
        await pool.fetchval(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    bodies = await spaces_to_commit_to(pool, spaces, "wal")
    filled = Filled(pool, CheckpointStore(pool, page_cache_bytes=0, new_id=new_id), bodies)

    async def filler() -> None:
        while filled.sent < checkpoints:
            await filled.commit()

    started = time.monotonic()
    await asyncio.gather(*(filler() for _ in range(8)))
    await pool.close()
    filled.pool = await create_pool(url, size=1)
    filled.store = CheckpointStore(filled.pool, page_cache_bytes=0, new_id=new_id)
    await filled.pool.fetchval("VACUUM (ANALYZE)")
    print(f"  {name}: {checkpoints:,} Checkpoints in {spaces:,} Spaces, filled in {time.monotonic() - started:.0f} s")
    return filled


async def full_page_images(pool: Pool) -> int:
    """Full-page images written so far. A backend reports its WAL counts at most once a second,
    so this one is asked to report first (PostgreSQL 15 or later)."""
    await pool.fetchval("SELECT pg_stat_force_next_flush()")
    images: int = await pool.fetchval("SELECT wal_fpi FROM pg_stat_wal")
    return images


async def main(spaces: int, checkpoints: int, count: int, rounds: int) -> None:
    print("filling:", flush=True)
    databases = {
        label: await fill(f"smriti_wal_{index}", new_id, spaces, checkpoints)
        for index, (label, new_id) in enumerate(IDS.items())
    }
    samples: dict[str, list[tuple[float, float, float]]] = {label: [] for label in databases}
    try:
        for round_number in range(rounds):
            order = list(databases.items())
            for label, filled in order if round_number % 2 == 0 else order[::-1]:
                pool = filled.pool
                pid: int = await pool.fetchval("SELECT pg_backend_pid()")
                await pool.fetchval("CHECKPOINT")
                lsn: str = await pool.fetchval("SELECT pg_current_wal_lsn()::text")
                images: int = await full_page_images(pool)
                cpu = backend_cpu_ns(pid)
                for _ in range(count):
                    await filled.commit()
                cpu_us = (backend_cpu_ns(pid) - cpu) / count / 1000
                wal_bytes: float = await pool.fetchval(
                    "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::text::pg_lsn)::float8", lsn
                )
                images = await full_page_images(pool) - images
                samples[label].append((wal_bytes / count, images / count, cpu_us))
                print(
                    f"  round {round_number + 1}, {label}: {wal_bytes / count:,.0f} WAL bytes, "
                    f"{images / count:.2f} full pages, {cpu_us:.1f} µs per commit",
                    flush=True,
                )
        print(
            f"\n{count:,} commits right after a checkpoint, {spaces:,} Spaces holding {checkpoints:,} Checkpoints "
            f"(median of {rounds} rounds):"
        )
        print(f"  {'ids':<28} {'WAL bytes':>10} {'full pages':>11} {'backend CPU µs':>15}")
        for label, values in samples.items():
            wal, pages, cpu_us = (statistics.median(v[k] for v in values) for k in range(3))
            print(f"  {label:<28} {wal:>10,.0f} {pages:>11.2f} {cpu_us:>15.1f}")
    finally:
        for filled in databases.values():
            await filled.pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spaces", type=int, default=1_000)
    parser.add_argument("--checkpoints", type=int, default=200_000, help="Checkpoints in each database before")
    parser.add_argument("--count", type=int, default=5_000, help="commits per round")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.spaces, args.checkpoints, args.count, args.rounds))
