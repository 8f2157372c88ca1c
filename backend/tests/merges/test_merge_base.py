"""The merge base over the jump links (migration 0007): the first-parent fork point of two
Checkpoints found in O(log depth) steps is the one a plain walk finds, on lines started at
every depth, lines started from lines, and Spaces with more than one root."""

from __future__ import annotations

import random
import uuid
from uuid import UUID

import asyncpg
import httpx
import pytest

from tests.support.api import commit, create_space
from tests.support.jumps import expected_jumps, first_parent_fork


async def _parents(db: asyncpg.Connection, space_id: str) -> dict[UUID, UUID | None]:
    rows = await db.fetch("SELECT id, parent_commit_id FROM commits WHERE repo_id = $1", uuid.UUID(space_id))
    return {row["id"]: row["parent_commit_id"] for row in rows}


async def test_every_fork_point_in_a_branching_history_is_the_plain_walks(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, f"jumps-{uuid.uuid4().hex[:6]}")
    # A line made before the Space's first Checkpoint starts with none: its first is a second root.
    response = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "island"})
    assert response.status_code == 201, response.text
    chance = random.Random(7)  # a fixed shape
    main = [(await commit(client, space["id"], f"main {n}"))["id"] for n in range(70)]
    tips = {"main": main[-1]}
    for n in range(12):
        # Lines started from main at many depths, and from other lines' Checkpoints.
        start = chance.choice(main) if n % 3 else chance.choice(list(tips.values()))
        name = f"line-{n}"
        response = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": name, "from_ref": start})
        assert response.status_code == 201, response.text
        for step in range(chance.randrange(1, 40)):
            # Some name their parent (the line's HEAD, or an older Checkpoint): links looked up, not kept.
            named = {} if step % 4 else {"parent_commit_id": chance.choice([tips.get(name, start), start])}
            tips[name] = (await commit(client, space["id"], f"{name} {step}", branch=name, **named))["id"]
    for step in range(5):
        tips["island"] = (await commit(client, space["id"], f"island {step}", branch="island"))["id"]
    parents = await _parents(db, space["id"])
    links = "SELECT id, jump_commit_id, jump_depth FROM commits WHERE repo_id = $1"
    rows = await db.fetch(links, uuid.UUID(space["id"]))
    assert {r["id"]: (r["jump_commit_id"], r["jump_depth"]) for r in rows} == expected_jumps(parents)
    assert sum(parent is None for parent in parents.values()) == 2
    ids = [*tips.values(), main[0], *(str(node) for node in chance.sample(sorted(parents), 6))]
    for ours in ids:
        for theirs in (other for other in ids if other != ours):
            response = await client.get(f"/v5/repos/{space['id']}/merge", params={"ours": ours, "theirs": theirs})
            assert response.status_code == 200, response.text
            fork = first_parent_fork(parents, UUID(ours), UUID(theirs))
            assert response.json()["base_commit_id"] == (None if fork is None else str(fork)), (ours, theirs)


async def test_verify_names_a_jump_link_changed_behind_smritis_back(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, f"jump-tamper-{uuid.uuid4().hex[:6]}")
    saved = [await commit(client, space["id"], f"c{n}") for n in range(6)]
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is True, report["problems"]
    # A wrong link would send the merge base astray; verify says which Checkpoint holds one.
    await db.execute(
        "UPDATE commits SET jump_commit_id = $1, jump_depth = 1 WHERE id = $2",
        uuid.UUID(saved[1]["id"]),
        uuid.UUID(saved[4]["id"]),
    )
    problems = (await client.get(f"/v4/repos/{space['id']}/verify")).json()["problems"]
    # HEAD's chain of jumps, which its line keeps, runs through it: that copy differs too.
    assert [(p["commit_id"], p["kind"]) for p in problems] == [
        (saved[4]["id"], "jump_mismatch"),
        (saved[5]["id"], "head_links_mismatch"),
    ]
    # A link that does not go back (naming itself) would never end the climb: it is not taken.
    await db.execute(
        "UPDATE commits SET jump_commit_id = id, jump_depth = depth WHERE id = ANY($1)",
        [uuid.UUID(saved[n]["id"]) for n in (3, 5)],
    )
    response = await client.get(
        f"/v5/repos/{space['id']}/merge", params={"ours": saved[5]["id"], "theirs": saved[3]["id"]}
    )
    assert response.status_code == 200, response.text
    assert response.json()["base_commit_id"] == saved[3]["id"]


async def test_a_line_keeps_heads_links_and_verify_names_a_changed_copy(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, f"line-links-{uuid.uuid4().hex[:6]}")
    for n in range(9):
        await commit(client, space["id"], f"c{n}")
    line = await db.fetchrow(
        "SELECT head_jumps, head_jump_depths, head_merges FROM branches WHERE repo_id = $1", uuid.UUID(space["id"])
    )
    assert line is not None
    assert (list(line["head_jump_depths"]), line["head_merges"]) == (
        [7, 0],
        0,
    )  # HEAD at depth 8: jump to 7, from 7 to the root
    await db.execute("UPDATE branches SET head_merges = 5 WHERE repo_id = $1", uuid.UUID(space["id"]))
    problems = (await client.get(f"/v4/repos/{space['id']}/verify")).json()["problems"]
    assert [p["kind"] for p in problems] == ["head_links_mismatch"]
    # A line with a HEAD always keeps its links: the next commit makes its own from them.
    with pytest.raises(asyncpg.CheckViolationError, match="ck_branches_head_links"):
        await db.execute("UPDATE branches SET head_jumps = NULL WHERE repo_id = $1", uuid.UUID(space["id"]))
