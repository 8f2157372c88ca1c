"""Group commit: concurrent commits to different Spaces share one statement, and lose nothing by it.

These drive `CheckpointStore` directly on a real pool, so that the tests can decide which commits
meet in one statement: with `max_statements=1`, a first commit occupies the only statement and
every commit started while it runs goes into the next one together.
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator, Callable

import asyncpg
import msgspec
import pytest

from smriti.checkpoints.store import CheckpointStore
from smriti.checkpoints.writes import CommitWriter
from smriti.core.errors import BadRequest, Conflict, NotFound
from smriti.core.ids import uuid7
from smriti.db.pool import Pool, PoolTimeout, create_pool
from tests.support.api import recomputed_hash
from tests.support.checkpoints import commit_body, insert_spaces

AWKWARD_METADATA = {"z": 1, "a": 1.0, "exp": 1e2, "text": 'naïve ☃ "quoted"', "nested": {"b": [3, {"y": None}]}}


@pytest.fixture
async def pool(database_url: str, db: asyncpg.Connection) -> AsyncIterator[Pool]:
    pool = await create_pool(database_url, size=4)
    try:
        yield pool
    finally:
        await pool.close()


def _one_statement_store(pool: Pool, new_id: Callable[[], uuid.UUID] = uuid7) -> CheckpointStore:
    return CheckpointStore(pool, new_id=new_id, writer=CommitWriter(pool, max_statements=1))


async def test_concurrent_commits_to_many_spaces_share_statements_and_keep_every_line(
    pool: Pool, db: asyncpg.Connection
) -> None:
    store = CheckpointStore(pool)
    spaces = await insert_spaces(db, 12)
    bodies = [
        commit_body(space, f"c{n}", decisions=[f"d{n}"], metadata=AWKWARD_METADATA)
        for n in range(8)
        for space in spaces
    ]
    saved = [msgspec.json.decode(body) for body in await asyncio.gather(*(store.commit(b) for b in bodies))]

    assert store.writer.groups_written > 0
    by_id = {item["id"]: item for item in saved}
    for space in spaces:
        mine = [item for item in saved if item["repo_id"] == str(space)]
        stored = await db.fetch(
            "SELECT id, parent_commit_id, commit_hash FROM commits WHERE repo_id = $1 ORDER BY created_at", space
        )
        # One line, in the order the commits were written: each one's parent is the one before.
        assert [row["parent_commit_id"] for row in stored] == [None, *(row["id"] for row in stored[:-1])]
        assert sorted(str(row["id"]) for row in stored) == sorted(item["id"] for item in mine)
        head = await db.fetchrow(
            "SELECT head_commit_id, head_commit_hash, "
            "(SELECT sum(b.commit_count) FROM branches b WHERE b.repo_id = repos.id)::int AS commit_count "
            "FROM repos WHERE id = $1",
            space,
        )
        assert head is not None
        assert (head["head_commit_id"], head["head_commit_hash"], head["commit_count"]) == (
            stored[-1]["id"],
            stored[-1]["commit_hash"],
            8,
        )
        for row in stored:  # the answers match the rows, and the hashes recompute in Python
            item = by_id[str(row["id"])]
            assert item["commit_hash"] == row["commit_hash"]
            parent = by_id[item["parent_commit_id"]]["commit_hash"] if item["parent_commit_id"] else None
            assert recomputed_hash(item, parent) == item["commit_hash"]
        report = await store.verify(space)
        assert report.problems == []
        assert report.checked == 8


async def test_refused_commits_leave_the_rest_of_their_statement_alone(pool: Pool, db: asyncpg.Connection) -> None:
    store = _one_statement_store(pool)
    stale, missing_parent, foreign_parent, plain, with_parent, with_head, blocker = await insert_spaces(db, 7)
    bases = {
        space: msgspec.json.decode(await store.commit(commit_body(space, "base")))
        for space in (stale, missing_parent, foreign_parent, plain, with_parent, with_head)
    }
    attempts = [
        commit_body(blocker, "takes the only statement"),
        commit_body(stale, "late", expected_head_commit_id=str(uuid.uuid4())),
        commit_body(missing_parent, "orphan", parent_commit_id=str(uuid.uuid4())),
        commit_body(foreign_parent, "stranger", parent_commit_id=bases[plain]["id"]),
        commit_body(uuid.uuid4(), "nowhere"),
        commit_body(plain, "fine"),
        commit_body(with_parent, "fine", parent_commit_id=bases[with_parent]["id"]),
        commit_body(with_head, "fine", expected_head_commit_id=bases[with_head]["id"]),
    ]
    results = await asyncio.gather(*(store.commit(a) for a in attempts), return_exceptions=True)

    assert store.writer.groups_written == 1  # everything after the blocker went in one statement
    for result, kind, field in (
        (results[1], Conflict, "expected_head_commit_id"),
        (results[2], NotFound, "parent_commit_id"),
        (results[3], BadRequest, "parent_commit_id"),
        (results[4], NotFound, "repo_id"),
    ):
        assert isinstance(result, kind)
        assert [error.field for error in result.errors] == [field]
    for result in (results[0], *results[5:]):
        assert isinstance(result, bytes), result
    for space, count in ((stale, 1), (missing_parent, 1), (foreign_parent, 1), (plain, 2), (with_parent, 2)):
        head = await db.fetchrow(
            "SELECT head_commit_id, "
            "(SELECT sum(b.commit_count) FROM branches b WHERE b.repo_id = repos.id)::int AS commit_count "
            "FROM repos WHERE id = $1",
            space,
        )
        assert head is not None
        assert head["commit_count"] == count, space
        assert await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", space) == count
        if count == 1:
            assert str(head["head_commit_id"]) == bases[space]["id"]
    written = msgspec.json.decode(results[7])  # type: ignore[arg-type]
    assert written["parent_commit_id"] == bases[with_head]["id"]


async def test_a_statement_that_fails_as_a_whole_is_retried_commit_by_commit(
    pool: Pool, db: asyncpg.Connection
) -> None:
    """A duplicate id fails the shared statement (nothing of it is written); alone, only the
    commit it belongs to fails."""
    made: list[uuid.UUID] = []

    def new_id() -> uuid.UUID:
        made.append(made[0] if len(made) == 2 else uuid7())  # the third commit reuses the first's id
        return made[-1]

    store = _one_statement_store(pool, new_id)
    spaces = await insert_spaces(db, 5)
    results = await asyncio.gather(*(store.commit(commit_body(s, "c")) for s in spaces), return_exceptions=True)

    assert store.writer.groups_written == 0
    assert isinstance(results[2], asyncpg.UniqueViolationError)
    for index, space in enumerate(spaces):
        expected = 0 if index == 2 else 1
        assert await db.fetchval("SELECT sum(commit_count)::int FROM branches WHERE repo_id = $1", space) == expected
        assert await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", space) == expected
        if index != 2:
            assert msgspec.json.decode(results[index])["id"] == str(made[index])  # type: ignore[arg-type]


async def test_a_commit_given_up_before_it_is_sent_is_not_written(pool: Pool, db: asyncpg.Connection) -> None:
    store = _one_statement_store(pool)
    first, given_up, kept = await insert_spaces(db, 3)
    running = asyncio.create_task(store.commit(commit_body(first, "runs")))
    waiting = asyncio.create_task(store.commit(commit_body(given_up, "waits, then the caller leaves")))
    staying = asyncio.create_task(store.commit(commit_body(kept, "waits")))
    await asyncio.sleep(0)  # all three have been handed to the writer; only the first is sent
    waiting.cancel()
    await running
    await staying
    assert waiting.cancelled()
    counts = {
        space: await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", space)
        for space in (first, given_up, kept)
    }
    assert counts == {first: 1, given_up: 0, kept: 1}


async def test_commits_to_one_space_never_share_a_statement(pool: Pool, db: asyncpg.Connection) -> None:
    store = _one_statement_store(pool)
    (space,) = await insert_spaces(db, 1)
    await asyncio.gather(*(store.commit(commit_body(space, f"c{n}")) for n in range(10)))
    assert store.writer.groups_written == 0
    stored = await db.fetch("SELECT id, parent_commit_id FROM commits WHERE repo_id = $1 ORDER BY created_at", space)
    assert len(stored) == 10
    for parent, child in itertools.pairwise(stored):
        assert child["parent_commit_id"] == parent["id"]


async def _waiting_backend(db: asyncpg.Connection, text: str) -> int:
    """The pid of the backend queued behind a lock whose statement contains `text`."""
    for _ in range(200):
        pid = await db.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() "
            "AND pid <> pg_backend_pid() AND position($1 in query) > 0",
            text,
        )
        if pid is not None:
            return int(pid)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no statement with {text!r} waited on a lock")


async def test_a_busy_space_is_written_alone_and_holds_up_no_other(
    database_url: str, pool: Pool, db: asyncpg.Connection
) -> None:
    store = _one_statement_store(pool)
    blocker, busy, free_a, free_b = await insert_spaces(db, 4)
    holder = await asyncpg.connect(database_url)
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT 1 FROM repos WHERE id = $1 FOR UPDATE", busy)  # another process's commit
        first = asyncio.create_task(store.commit(commit_body(blocker, "first")))
        others = [asyncio.create_task(store.commit(commit_body(s, "grouped"))) for s in (busy, free_a, free_b)]
        done, _ = await asyncio.wait([first, *others[1:]], timeout=10)
        assert len(done) == 3  # written while the busy Space stays locked
        assert not others[0].done()
        assert store.writer.groups_written == 1
        await _waiting_backend(db, "WITH space AS (")  # the busy one now waits alone, as a single commit
    finally:
        await holder.execute("ROLLBACK")
        await holder.close()
    saved = msgspec.json.decode(await others[0])
    assert saved["repo_id"] == str(busy)
    assert await db.fetchval("SELECT count(*) FROM commits") == 4


async def test_a_commit_that_waits_too_long_for_its_turn_is_refused_unwritten(
    database_url: str, db: asyncpg.Connection
) -> None:
    short = await create_pool(database_url, size=4, acquire_timeout=0.5)
    store = CheckpointStore(short, writer=CommitWriter(short, max_statements=1))
    stuck, queued = await insert_spaces(db, 2)
    holder = await asyncpg.connect(database_url)
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT 1 FROM repos WHERE id = $1 FOR UPDATE", stuck)
        first = asyncio.create_task(store.commit(commit_body(stuck, "waits for the lock")))
        await _waiting_backend(db, "WITH space AS (")
        with pytest.raises(PoolTimeout):
            await store.commit(commit_body(queued, "waits for a statement"))
    finally:
        await holder.execute("ROLLBACK")
        await holder.close()
    await first
    await asyncio.sleep(0.1)
    assert await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", queued) == 0
    await short.close()


async def test_a_group_whose_outcome_is_unknown_is_not_retried(
    database_url: str, pool: Pool, db: asyncpg.Connection
) -> None:
    """A lost connection may come after PostgreSQL committed: every commit of the statement gets
    the error and none is written again (here nothing was committed, so nothing may be found)."""
    store = _one_statement_store(pool)
    spaces = await insert_spaces(db, 4)
    holder = await asyncpg.connect(database_url)
    try:
        await holder.execute("BEGIN")
        await holder.execute("LOCK TABLE commits IN SHARE MODE")  # every insert into commits waits
        tasks = [asyncio.create_task(store.commit(commit_body(s, "c"))) for s in spaces]
        await db.execute("SELECT pg_terminate_backend($1)", await _waiting_backend(db, "WITH space AS ("))
        await db.execute("SELECT pg_terminate_backend($1)", await _waiting_backend(db, "unnest("))
        # A retry would queue behind the table lock again, and this would time out.
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    finally:
        await holder.execute("ROLLBACK")
        await holder.close()
    assert all(isinstance(r, Exception) for r in results), results
    assert not any(isinstance(r, Conflict | NotFound | BadRequest) for r in results)
    assert store.writer.groups_written == 0
    await asyncio.sleep(0.2)
    assert await db.fetchval("SELECT count(*) FROM commits") == 0


async def test_two_writers_on_the_same_spaces_lose_nothing_and_never_fork(
    database_url: str, pool: Pool, db: asyncpg.Connection
) -> None:
    """Two server processes each group their own commits; their groups meet on the same Spaces'
    rows. Whatever skips or waits, every Space must end as one line holding every commit."""
    other = await create_pool(database_url, size=4)
    try:
        stores = [
            CheckpointStore(pool, writer=CommitWriter(pool, max_group=8)),
            CheckpointStore(other, writer=CommitWriter(other, max_group=8)),
        ]
        spaces = await insert_spaces(db, 6)
        rounds = 12
        bodies = [(n % 2, commit_body(space, f"c{n}")) for n in range(rounds) for space in spaces]
        results = await asyncio.gather(*(stores[side].commit(body) for side, body in bodies))
    finally:
        await other.close()

    assert all(store.writer.groups_written > 0 for store in stores)
    saved = [msgspec.json.decode(result) for result in results]
    for space in spaces:
        stored = await db.fetch(
            "SELECT id, parent_commit_id FROM commits WHERE repo_id = $1 ORDER BY created_at", space
        )
        assert len(stored) == rounds
        assert [row["parent_commit_id"] for row in stored] == [None, *(row["id"] for row in stored[:-1])]
        assert {str(row["id"]) for row in stored} == {item["id"] for item in saved if item["repo_id"] == str(space)}
        head = await db.fetchrow(
            "SELECT head_commit_id, "
            "(SELECT sum(b.commit_count) FROM branches b WHERE b.repo_id = repos.id)::int AS commit_count "
            "FROM repos WHERE id = $1",
            space,
        )
        assert head is not None
        assert (head["head_commit_id"], head["commit_count"]) == (stored[-1]["id"], rounds)
        assert (await stores[0].verify(space)).problems == []


async def test_commits_to_the_lines_of_one_space_share_statements_and_keep_every_line(
    pool: Pool, db: asyncpg.Connection
) -> None:
    # Three lines of one Space, the default one reached by two keys (its name and none): group
    # statements carry several lines at once, never two commits to one line.
    store = CheckpointStore(pool)
    [space] = await insert_spaces(db, 1)
    await store.commit(commit_body(space, "base"))
    for name in ("left", "right"):
        await db.execute(
            "INSERT INTO branches (id, repo_id, name, name_key, is_default, head_commit_id, head_commit_hash, "
            "head_depth, head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at) "
            "SELECT gen_random_uuid(), id, $2::text, $2::text, false, head_commit_id, head_commit_hash, 0, '{}', "
            "'{}', 0, 0, now(), now() FROM repos WHERE id = $1",  # at the root: no jumps, no merges
            space,
            name,
        )
    keys = [None, "main", "MAIN", "left", "right"]
    bodies = [commit_body(space, f"c{n}", **({"branch": key} if key else {})) for n in range(10) for key in keys]
    await asyncio.gather(*(store.commit(b) for b in bodies))
    assert store.writer.groups_written > 0
    lines = await db.fetch("SELECT name, head_commit_id, commit_count FROM branches WHERE repo_id = $1", space)
    counts = {line["name"]: line["commit_count"] for line in lines}
    assert counts == {"main": 1 + 30, "left": 10, "right": 10}
    for line in lines:  # each line unbroken: its first-parent walk holds every commit made on it
        walk = await db.fetchval(
            "WITH RECURSIVE w AS (SELECT id, parent_commit_id FROM commits WHERE id = $1 UNION ALL "
            "SELECT c.id, c.parent_commit_id FROM commits c JOIN w ON c.id = w.parent_commit_id) "
            "SELECT count(*) FROM w",
            line["head_commit_id"],
        )
        assert walk == (31 if line["name"] == "main" else 11)
    assert (await store.verify(space)).problems == []
