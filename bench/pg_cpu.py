"""PostgreSQL's own CPU time per statement on the hot paths, next to the floor's two statements.

    make bench-pg       (or: .venv/bin/python bench/pg_cpu.py)

`make bench` measures whole requests, where PostgreSQL, the server and wrk share two cores.
This isolates the database's part: each statement runs N times on one connection, through
Smriti's own stores, and the CPU time of that connection's PostgreSQL backend process is read
from the kernel (/proc/<pid>/schedstat, nanoseconds), so Python's time is not counted. It needs
the database on this machine: the embedded one, or a local DATABASE_URL. Rows alternate over
several rounds and the median is printed, so that a busy moment does not land on one row only.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import statistics
import sys
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backend"))

from database import fresh_database  # noqa: E402
from payload import REPLY_JAPANESE, STATE_4KB, STATE_4KB_JAPANESE  # noqa: E402

from smriti.chat.store import ChatStore  # noqa: E402
from smriti.checkpoints.schemas import CommitCreate  # noqa: E402
from smriti.checkpoints.store import CheckpointStore  # noqa: E402
from smriti.db.pool import Pool, create_pool  # noqa: E402
from smriti.sessions.turns import Exchange, TurnStore  # noqa: E402

HISTORY = 60
"""Turns in the Session whose context is read (what the 16-client send row averages)."""


def backend_cpu_ns(pid: int) -> int:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


async def _session(pool: Pool, space: uuid.UUID) -> uuid.UUID:
    session: uuid.UUID = await pool.fetchval(
        "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
        "VALUES (gen_random_uuid(), $1, 's', 0, now(), now()) RETURNING id",
        space,
    )
    return session


@dataclass(frozen=True)
class Fixtures:
    """What the rows' statements work on, written once (`prepare`)."""

    space: uuid.UUID
    commit: CommitCreate
    changing: list[CommitCreate]
    exchange: Exchange
    japanese: list[CommitCreate]
    """The same as `changing`, of a Japanese state."""
    japanese_exchange: Exchange
    history: uuid.UUID
    """A Session of HISTORY Turns whose context is read."""
    writes: uuid.UUID
    """The Session the exchanges are stored in."""


_FLOOR_DOC = {"message": "floor", **STATE_4KB}


async def prepare(pool: Pool) -> Fixtures:
    """The floor's tables, a Space with a 4 KB Checkpoint, and the Sessions the send rows use."""
    await pool.fetchval("CREATE TABLE bench_floor (id int PRIMARY KEY, doc jsonb NOT NULL)")
    await pool.fetchval("INSERT INTO bench_floor VALUES (7, $1)", _FLOOR_DOC)
    await pool.fetchval("CREATE TABLE bench_floor_writes (id bigserial PRIMARY KEY, doc jsonb NOT NULL)")
    space: uuid.UUID = await pool.fetchval(
        "INSERT INTO repos (id, name, created_at, updated_at) "
        "VALUES (gen_random_uuid(), 'pg', now(), now()) RETURNING id"
    )
    checkpoints, turns = CheckpointStore(pool, page_cache_bytes=0), TurnStore(pool)
    commit = msgspec.convert({"repo_id": str(space), "message": "bench commit", **STATE_4KB}, CommitCreate)
    await checkpoints.commit(commit)
    # Commits that change a decision and the artifact from their parent's: neither of the parts a
    # vector is reused by (migration 0013) is carried, so both are parsed again.
    changing = [_revision(space, f"bench commit {n}", STATE_4KB, n) for n in range(2)]
    japanese = [_revision(space, f"日本語のコミット {n}", STATE_4KB_JAPANESE, n) for n in range(2)]
    exchange = Exchange(
        user_content="What should we do next about the storage layer?",
        assistant_content="x" * 300,
        provider="offline",
        model="offline-1",
        checkpoint_id=None,
        history_base_seq=None,
        input_tokens=None,
        output_tokens=None,
        request_id=None,
        # As a send stores them: the model it was sent to, the receipt, where its context ended.
        asked_model="offline-1",
        context_sha256="0" * 64,
        context_through_seq=0,
    )
    japanese_exchange = dataclasses.replace(
        exchange, user_content="ストレージ層について次に何をすべきですか？", assistant_content=REPLY_JAPANESE
    )
    # The context is read from a Session that stays at HISTORY Turns; the writes go to another.
    history, writes = await _session(pool, space), await _session(pool, space)
    for _ in range(HISTORY // 2):
        await turns.write_exchange(history, exchange)
    return Fixtures(space, commit, changing, exchange, japanese, japanese_exchange, history, writes)


def _revision(space: uuid.UUID, message: str, state: dict[str, Any], n: int) -> CommitCreate:
    """`state` with its decisions and artifact changed for revision `n`."""
    changed = {
        **state,
        "decisions": [f"{d} (revision {n})" for d in state["decisions"]],
        "artifacts": [{**a, "content": f"revision {n}: " + a["content"]} for a in state["artifacts"]],
    }
    return msgspec.convert({"repo_id": str(space), "message": message, **changed}, CommitCreate)


def statements(pool: Pool, fixtures: Fixtures) -> dict[str, Callable[[], Awaitable[Any]]]:
    """One callable per row, each running one statement on `pool` (the stores run one per call)."""
    checkpoints, chat, turns = CheckpointStore(pool, page_cache_bytes=0), ChatStore(pool), TurnStore(pool)
    alternate, japanese = itertools.cycle(fixtures.changing), itertools.cycle(fixtures.japanese)
    return {
        "floor: primary-key read of ~4 KB JSONB": lambda: pool.fetchval("SELECT doc FROM bench_floor WHERE id = 7"),
        "floor: durable INSERT of ~4 KB JSONB": lambda: pool.fetchval(
            "INSERT INTO bench_floor_writes (doc) VALUES ($1) RETURNING id", _FLOOR_DOC
        ),
        "HEAD": lambda: checkpoints.head_json(fixtures.space),
        "commit (~4 KB), the parent's state": lambda: checkpoints.commit(fixtures.commit),
        "commit (~4 KB), items and artifact changed": lambda: checkpoints.commit(next(alternate)),
        "commit (~4 KB Japanese), nothing carried": lambda: checkpoints.commit(next(japanese)),
        f"send: read the context ({HISTORY} Turns)": lambda: chat.read_context(
            fixtures.history, checkpoint_id=None, history_base_seq=None
        ),
        "send: store the exchange": lambda: turns.write_exchange(fixtures.writes, fixtures.exchange),
        "send: store the exchange, in Japanese": lambda: turns.write_exchange(
            fixtures.writes, fixtures.japanese_exchange
        ),
    }


async def main(count: int, rounds: int, revision: str) -> None:
    pool = await create_pool(await fresh_database("smriti_pg_cpu", revision=revision), size=1)
    try:
        pid: int = await pool.fetchval("SELECT pg_backend_pid()")
        rows = statements(pool, await prepare(pool))
        samples: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(rounds):
            for name, run in rows.items():
                for _ in range(count // 20):  # warm up: plans cached, pages in memory
                    await run()
                started = backend_cpu_ns(pid)
                for _ in range(count):
                    await run()
                samples[name].append((backend_cpu_ns(pid) - started) / count / 1000)
        print(
            f"schema at {revision}; PostgreSQL backend CPU per statement, µs (median of {rounds} rounds × {count:,}):"
        )
        floor_read = statistics.median(samples["floor: primary-key read of ~4 KB JSONB"])
        for name, values in samples.items():
            median = statistics.median(values)
            print(f"  {name:<44} {median:7.1f}   {median / floor_read:5.2f}× the floor read")
    finally:
        await pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=3000, help="statements per row and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--revision", default="head", help="migrate the database to this revision only")
    args = parser.parse_args()
    asyncio.run(main(args.count, args.rounds, args.revision))
