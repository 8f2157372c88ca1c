"""How long deleting a Space takes, by its size and by how many other Spaces there are.

    make bench-delete       (or: .venv/bin/python bench/space_delete.py)

Deleting a Space is one statement that cascades to its Checkpoints, Sessions and Turns, and
PostgreSQL checks every deleted Checkpoint against the Spaces' HEAD pointers. That check must
find Spaces by key: when it scanned the Space table, the time grew with Checkpoints × Spaces and
a large Space could not be deleted within the statement timeout. Here the time should follow the
Space's own size and hardly move with the number of other Spaces.

Seeds by SQL (chained Checkpoints, one HEAD per Space, Sessions of 1,000 Turns) into a fresh
database, then runs the statement Smriti's delete runs, committed, so that the deferred checks
are counted; the median of 3. `--revision 0001` measures the schema before migration 0002.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import asyncpg
from database import fresh_database

SEED = """
WITH numbered AS (
    SELECT g, gen_random_uuid() AS id FROM generate_series(1, $2) g
), space AS (
    -- HEAD is the last Checkpoint; the key is checked when the statement's transaction ends.
    INSERT INTO repos (id, name, head_commit_id, created_at, updated_at)
    SELECT gen_random_uuid(), $1, (SELECT id FROM numbered ORDER BY g DESC LIMIT 1), now(), now()
    RETURNING id
), inserted AS (
    -- The jump links are not the real ones (only the deletion is timed): each names itself.
    INSERT INTO commits (id, repo_id, parent_commit_id, commit_hash, message, summary, decisions,
                         assumptions, tasks, open_questions, entities, artifacts, metadata, created_at,
                         jump_commit_id, jump_depth, first_parent_merges)
    SELECT n.id, space.id, lag(n.id) OVER (ORDER BY n.g), md5(n.id::text) || md5($1 || n.g), 'm', 's',
           '[]', '[]', '[]', '[]', '[]', '[]', '{}', now() + n.g * interval '1 ms', n.id, 0, 0
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


OTHERS = """
WITH numbered AS (
    SELECT g, gen_random_uuid() AS space, gen_random_uuid() AS head FROM generate_series(1, $1) g
), spaces AS (
    INSERT INTO repos (id, name, head_commit_id, created_at, updated_at)
    SELECT space, 'other ' || g, head, now(), now() FROM numbered
)
INSERT INTO commits (id, repo_id, commit_hash, message, summary, decisions, assumptions, tasks,
                     open_questions, entities, artifacts, metadata, created_at, jump_commit_id, jump_depth,
                     first_parent_merges)
SELECT head, space, md5(head::text) || md5(space::text), 'm', 's', '[]', '[]', '[]', '[]', '[]', '[]',
       '{}', now(), head, 0, 0
FROM numbered
"""


async def measure(conn: asyncpg.Connection, checkpoints: int, others: int) -> float:
    await conn.execute("TRUNCATE repos, commits, sessions, turns CASCADE")
    await conn.execute(OTHERS, others)
    space = await conn.fetchval(SEED, "doomed", checkpoints)
    await conn.execute(SESSIONS, space, checkpoints // 100)  # 10 Turns per Checkpoint
    await conn.execute("ANALYZE")
    started = time.perf_counter()
    async with conn.transaction():
        await conn.execute("DELETE FROM repos WHERE id = $1", space)
    return time.perf_counter() - started


async def main(revision: str) -> None:
    conn = await asyncpg.connect(await fresh_database("smriti_space_delete", revision=revision))
    try:
        print(f"schema at {revision}; seconds to delete a Space, median of 3")
        print(f"{'Checkpoints':>11} {'Turns':>9} {'other Spaces':>13} {'delete, s':>10}")
        for checkpoints in (1_000, 10_000):
            for others in (10, 10_000):
                seconds = statistics.median([await measure(conn, checkpoints, others) for _ in range(3)])
                print(f"{checkpoints:>11,} {checkpoints * 10:>9,} {others:>13,} {seconds:>10.3f}", flush=True)
    finally:
        await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--revision", default="head", help="migrate the database to this revision only")
    asyncio.run(main(parser.parse_args().revision))
