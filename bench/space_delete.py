"""How long deleting a Space takes, by its size and by how many other Spaces there are.

    make bench-delete       (or: .venv/bin/python bench/space_delete.py)

Deleting a Space is one statement that cascades to its Checkpoints, Sessions and Turns, and
PostgreSQL checks every deleted Checkpoint against the Spaces' HEAD pointers. That check must
find Spaces by key: when it scanned the Space table, the time grew with Checkpoints × Spaces and
a large Space could not be deleted within the statement timeout. Here the time should follow the
Space's own size and hardly move with the number of other Spaces.

Seeds by SQL (chained Checkpoints, one HEAD per Space, Sessions of 1,000 Turns) into a fresh
database migrated to head, then runs the statement Smriti's delete runs, committed, so the
deferred checks are counted.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import asyncpg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backend"))

from smriti.db.admin import recreate_database  # noqa: E402
from smriti.db.embedded import start_embedded_postgres  # noqa: E402

SEED = """
WITH numbered AS (
    SELECT g, gen_random_uuid() AS id FROM generate_series(1, $2) g
), space AS (
    -- HEAD is the last Checkpoint; the key is checked when the statement's transaction ends.
    INSERT INTO repos (id, name, head_commit_id, created_at, updated_at)
    SELECT gen_random_uuid(), $1, (SELECT id FROM numbered ORDER BY g DESC LIMIT 1), now(), now()
    RETURNING id
), inserted AS (
    INSERT INTO commits (id, repo_id, parent_commit_id, commit_hash, message, summary, decisions,
                         assumptions, tasks, open_questions, entities, artifacts, metadata, created_at)
    SELECT n.id, space.id, lag(n.id) OVER (ORDER BY n.g), md5(n.id::text) || md5($1 || n.g), 'm', 's',
           '[]', '[]', '[]', '[]', '[]', '[]', '{}', now() + n.g * interval '1 ms'
    FROM numbered n, space
)
SELECT id FROM space
"""

SESSIONS = """
WITH s AS (
    INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at)
    SELECT gen_random_uuid(), $1, 's', 1000, now(), now() FROM generate_series(1, $2) RETURNING id
)
INSERT INTO turns (session_id, sequence_number, role, content, created_at)
SELECT s.id, g, CASE WHEN g % 2 = 1 THEN 'user' ELSE 'assistant' END, repeat('x', 400), now()
FROM s, generate_series(1, 1000) g
"""


async def measure(conn: asyncpg.Connection, checkpoints: int, others: int) -> float:
    await conn.execute("TRUNCATE repos, commits, sessions, turns CASCADE")
    for n in range(others):
        await conn.fetchval(SEED, f"other {n}", 1)
    space = await conn.fetchval(SEED, "doomed", checkpoints)
    await conn.execute(SESSIONS, space, checkpoints // 100)  # 10 Turns per Checkpoint
    await conn.execute("ANALYZE")
    started = time.perf_counter()
    async with conn.transaction():
        await conn.execute("DELETE FROM repos WHERE id = $1", space)
    return time.perf_counter() - started


async def main() -> None:
    server = os.environ.get("DATABASE_URL") or start_embedded_postgres(HERE / "results" / "pg")
    conn = await asyncpg.connect(await recreate_database(server, "smriti_space_delete"))
    try:
        print(f"{'Checkpoints':>11} {'Turns':>9} {'other Spaces':>13} {'delete, s':>10}")
        for checkpoints in (1_000, 10_000):
            for others in (10, 10_000):
                seconds = await measure(conn, checkpoints, others)
                print(f"{checkpoints:>11,} {checkpoints * 10:>9,} {others:>13,} {seconds:>10.3f}", flush=True)
    finally:
        await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
