"""The merge base's walk past the fork point (`smriti.merges.base`): the same candidates as a plain
walk in Python on random histories, work that does not grow with the history behind the base, a
history whose times are out of order, and a statement that stays cheap to run (every Checkpoint
read by its key, small enough to stay prepared)."""

from __future__ import annotations

import json
import uuid
from typing import Any
from uuid import UUID

import asyncpg
import httpx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from smriti.merges import base
from tests.support.api import commit, create_space
from tests.support.merge_bases import Node, nearest_common_ancestors


async def _history(db: asyncpg.Connection, space_id: str) -> dict[UUID, Node]:
    rows = await db.fetch(
        "SELECT id, parent_commit_id, merge_parent_id, created_at FROM commits WHERE repo_id = $1",
        uuid.UUID(space_id),
    )
    return {row["id"]: Node(row["parent_commit_id"], row["merge_parent_id"], row["created_at"]) for row in rows}


async def _candidates(client: httpx.AsyncClient, space_id: str, ours: object, theirs: object) -> list[UUID]:
    response = await client.get(f"/v5/repos/{space_id}/merge", params={"ours": str(ours), "theirs": str(theirs)})
    assert response.status_code == 200, response.text
    preview = response.json()
    assert preview["base_commit_id"] == (preview["base_candidates"] or [None])[0]
    return [UUID(candidate) for candidate in preview["base_candidates"]]


async def _line(client: httpx.AsyncClient, space_id: str, name: str, from_ref: str | None = None) -> None:
    body = {"name": name} if from_ref is None else {"name": name, "from_ref": from_ref}
    response = await client.post(f"/v4/repos/{space_id}/branches", json=body)
    assert response.status_code == 201, response.text


# A history is made by steps, each (what, pick, other pick): a commit on a line, a new line from a
# Checkpoint, a merge of a Checkpoint into a line, a commit that names an older parent. Picks are
# taken modulo what exists, so every list of steps is a history.
_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["commit", "line", "merge", "merge", "on_parent"]), st.integers(0, 999), st.integers(0, 999)
    ),
    min_size=4,
    max_size=36,
)


@given(steps=_STEPS, island=st.booleans(), picks=st.lists(st.integers(0, 999), min_size=4, max_size=8))
# Each example builds its history over HTTP, so a failure is reported as found, not shrunk.
@settings(
    max_examples=40,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
async def test_the_candidates_are_a_plain_walks_on_random_histories(
    client: httpx.AsyncClient, db: asyncpg.Connection, steps: list[tuple[str, int, int]], island: bool, picks: list[int]
) -> None:
    space = await create_space(client, f"walk-{uuid.uuid4().hex[:6]}")
    lines = ["main"]
    if island:  # started before the Space's first Checkpoint: its first is a second root
        await _line(client, space["id"], "island")
        lines.append("island")
    saved = [(await commit(client, space["id"], "root"))["id"]]
    for n, (what, pick, other) in enumerate(steps):
        line = lines[pick % len(lines)]
        fields: dict[str, Any] = {}
        if what == "line":
            lines.append(f"line-{n}")
            await _line(client, space["id"], lines[-1], saved[other % len(saved)])
            continue
        if what == "merge":
            fields["merge_parent_id"] = saved[other % len(saved)]
        elif what == "on_parent":
            fields["parent_commit_id"] = saved[other % len(saved)]
        response = await client.post(
            "/v4/chat/commit", json={"repo_id": space["id"], "message": f"{what} {n}", "branch": line, **fields}
        )
        if response.status_code == 201:
            saved.append(response.json()["id"])
        else:  # a merge of the line's own HEAD, or into a line with none: refused, and nothing written
            assert response.status_code == 400, response.text
    history = await _history(db, space["id"])
    chosen = sorted({UUID(saved[pick % len(saved)]) for pick in picks})
    for ours in chosen:
        for theirs in chosen:
            if ours != theirs:
                expected = nearest_common_ancestors(history, ours, theirs)
                assert await _candidates(client, space["id"], ours, theirs) == expected, (ours, theirs)


async def _two_lines_merged_into_each_other(client: httpx.AsyncClient, rounds: int) -> dict[str, Any]:
    """The shape of the issue: main and side, a Checkpoint on side every fourth on main, side
    merged into main and main into side every 24 on main; then 12 more on main and 3 on side."""
    space = await create_space(client, f"both-ways-{rounds}-{uuid.uuid4().hex[:6]}")
    root = await commit(client, space["id"], "root")
    await _line(client, space["id"], "side", root["id"])
    heads = {"main": root["id"], "side": root["id"]}
    last_merge = root["id"]
    for n in range(rounds * 24 + 12):
        heads["main"] = (await commit(client, space["id"], f"main {n}"))["id"]
        if n % 4 == 0:
            heads["side"] = (await commit(client, space["id"], f"side {n}", branch="side"))["id"]
        if n % 24 == 23:
            last_merge = (await commit(client, space["id"], "side into main", merge_parent_id=heads["side"]))["id"]
            heads["main"] = last_merge
            merged = await commit(client, space["id"], "main into side", branch="side", merge_parent_id=last_merge)
            heads["side"] = merged["id"]
    return {"space": space["id"], "last_merge": last_merge, **heads}


async def _blocks_read(db: asyncpg.Connection, ours: str, theirs: str) -> int:
    """Shared buffers the base statement reads (a count of index and heap pages touched: the
    same for the same work, unlike its time on a shared machine)."""
    plan = await db.fetchval(
        f"EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) {base._MERGE_BASE_SQL}", UUID(ours), UUID(theirs)
    )
    blocks: int = json.loads(plan)[0]["Plan"]["Shared Hit Blocks"]
    return blocks


async def test_lines_merged_into_each_other_cost_the_same_however_long_their_history(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    # Their fork point is the first Checkpoint, so a walk bounded by it alone reads all of both
    # lines (it was quadratic too: 15 s at 4,000 Checkpoints); the base is the last merge.
    short, long = [await _two_lines_merged_into_each_other(client, rounds) for rounds in (2, 8)]
    for shape in (short, long):
        assert await _candidates(client, shape["space"], "main", "side") == [UUID(shape["last_merge"])]
        assert await _candidates(client, shape["space"], "side", "main") == [UUID(shape["last_merge"])]
    read = [await _blocks_read(db, shape["main"], shape["side"]) for shape in (short, long)]
    # Four times the history, not twice the reads: the jump links' climbs grow with its
    # logarithm, nothing else (a walk down to the fork point read 14 times as much).
    assert read[1] < 2 * read[0], read


async def test_a_history_whose_times_are_out_of_order_gets_the_plain_walks_base(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, f"out-of-order-{uuid.uuid4().hex[:6]}")
    root = await commit(client, space["id"], "root")
    await _line(client, space["id"], "b", root["id"])
    a1 = await commit(client, space["id"], "a1")
    b1 = await commit(client, space["id"], "b1", branch="b")
    ours = await commit(client, space["id"], "a2")
    theirs = await commit(client, space["id"], "b2", branch="b", merge_parent_id=a1["id"])
    assert await _candidates(client, space["id"], ours["id"], theirs["id"]) == [UUID(a1["id"])]
    # a1 made newer than both its children behind Smriti's back (a clock stepped back would do
    # it): newest first is no guide any more, and the walk must not trust it.
    await db.execute("UPDATE commits SET created_at = now() + interval '1 hour' WHERE id = $1", uuid.UUID(a1["id"]))
    history = await _history(db, space["id"])
    assert nearest_common_ancestors(history, UUID(ours["id"]), UUID(theirs["id"])) == [UUID(a1["id"])]
    assert await _candidates(client, space["id"], ours["id"], theirs["id"]) == [UUID(a1["id"])]
    assert await _candidates(client, space["id"], theirs["id"], ours["id"]) == [UUID(a1["id"])]
    del b1


def _scans(plan: dict[str, Any]) -> list[str]:
    here = [plan["Relation Name"]] if plan["Node Type"] == "Seq Scan" else []
    return here + [scan for child in plan.get("Plans", []) for scan in _scans(child)]


async def test_every_checkpoint_is_read_by_its_key(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    # Planned for any two Checkpoints (the plan kept after five runs), with the statistics of a
    # Space of a few hundred Checkpoints: no step may scan the whole table (a lookup written as a
    # join was planned as a hash over every Checkpoint, once per step: 35 ms a preview).
    await _two_lines_merged_into_each_other(client, 8)
    await db.execute("ANALYZE commits")
    await db.execute("SET plan_cache_mode = force_generic_plan")
    for name, statement in (("walk", base._MERGE_BASE_SQL), ("exhaustive", base._EXHAUSTIVE_SQL)):
        await db.execute(f"PREPARE {name}(uuid, uuid) AS {statement}")
        plan = await db.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE {name}('{uuid.uuid4()}', '{uuid.uuid4()}')")
        assert _scans(json.loads(plan)[0]["Plan"]) == [], name


def test_the_statement_is_small_enough_for_asyncpg_to_keep_prepared() -> None:
    # asyncpg keeps a prepared statement (and PostgreSQL its plan) only up to 15 KiB of text;
    # a longer one would be parsed and planned on every preview (~5-15 ms each here).
    assert len(base._MERGE_BASE_SQL) < 15 * 1024
