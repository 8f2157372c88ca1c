"""Invariant 4: history is immutable and tamper-evident."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.api import commit, create_space, recomputed_hash

AWKWARD_METADATA = {
    # Values JSONB re-spells or reorders: key order, 1.0 vs 1, exponents, unicode, nesting.
    "z": 1,
    "a": 1.0,
    "exp": 1e2,
    "small": 1e-7,
    "neg": -0.5,
    "text": 'naïve ☃ "quoted" \\ back',
    "nested": {"b": [3, 2, {"y": None, "x": True}], "a": {}},
}


async def test_hash_survives_a_database_round_trip(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one", metadata=AWKWARD_METADATA, decisions=["ä", "b"])
    second = await commit(client, space["id"], "two", artifacts=[{"name": "a", "content": "x" * 5000}])
    fetched_first = (await client.get(f"/v4/commits/{first['id']}")).json()
    fetched_second = (await client.get(f"/v4/commits/{second['id']}")).json()
    assert fetched_first["commit_hash"] == first["commit_hash"]
    assert recomputed_hash(fetched_first, None) == first["commit_hash"]
    assert recomputed_hash(fetched_second, first["commit_hash"]) == second["commit_hash"]
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report == {"repo_id": space["id"], "checked": 2, "ok": True, "problems": []}


async def test_verify_reports_tampered_content(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one", decisions=["Use PostgreSQL"])
    second = await commit(client, space["id"], "two")
    await db.execute("UPDATE commits SET decisions = '[\"Use MongoDB\"]'::jsonb WHERE id = $1", uuid.UUID(first["id"]))
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is False
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(first["id"], "hash_mismatch")]
    # The child still matches its stored parent hash: only the changed Checkpoint is reported.
    assert second["id"] not in {p["commit_id"] for p in report["problems"]}


async def test_verify_reports_tampered_metadata_key_order_is_not_tampering(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "one", metadata={"a": 1, "b": 2})
    # Same JSON, written in another key order and number spelling: not a change.
    await db.execute(
        'UPDATE commits SET metadata = \'{"b": 2.0, "a": 1}\'::jsonb WHERE id = $1', uuid.UUID(saved["id"])
    )
    assert (await client.get(f"/v4/repos/{space['id']}/verify")).json()["ok"] is True
    await db.execute(
        'UPDATE commits SET metadata = \'{"b": 2, "a": 1, "c": 0}\'::jsonb WHERE id = $1',
        uuid.UUID(saved["id"]),
    )
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert [p["kind"] for p in report["problems"]] == ["hash_mismatch"]


async def test_verify_reports_tampered_hash_link_and_time(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one")
    second = await commit(client, space["id"], "two")
    third = await commit(client, space["id"], "three")
    # Re-point the third Checkpoint at the first: its hash covered the second's hash.
    await db.execute(
        "UPDATE commits SET parent_commit_id = $1 WHERE id = $2",
        uuid.UUID(first["id"]),
        uuid.UUID(third["id"]),
    )
    await db.execute(
        "UPDATE commits SET created_at = created_at - interval '1 day' WHERE id = $1", uuid.UUID(second["id"])
    )
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert sorted((p["commit_id"], p["kind"]) for p in report["problems"]) == sorted(
        [(second["id"], "hash_mismatch"), (third["id"], "hash_mismatch")]
    )


async def test_verify_reports_a_foreign_parent(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "a")
    other = await create_space(client, "b")
    foreign = await commit(client, other["id"], "elsewhere")
    mine = await commit(client, space["id"], "mine")
    await db.execute(
        "UPDATE commits SET parent_commit_id = $1 WHERE id = $2",
        uuid.UUID(foreign["id"]),
        uuid.UUID(mine["id"]),
    )
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(mine["id"], "foreign_parent")]
    assert (await client.get(f"/v4/repos/{other['id']}/verify")).json()["ok"] is True


async def test_an_empty_space_verifies_clean(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is True
    assert report["checked"] == 0


async def test_verify_reports_a_tampered_copy_of_heads_hash(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "one")
    await db.execute("UPDATE repos SET head_commit_hash = $1 WHERE id = $2", "0" * 64, uuid.UUID(space["id"]))
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(saved["id"], "head_hash_mismatch")]


async def _verify(client: httpx.AsyncClient, space_id: str, **params: Any) -> dict[str, Any]:
    response = await client.get(f"/v4/repos/{space_id}/verify", params=params)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


async def test_verify_sees_a_deleted_tip(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    # Someone deletes HEAD in the database and points HEAD (and its hash) at the parent: every
    # remaining hash is still right, but the Space recorded one Checkpoint more.
    space = await create_space(client)
    first = await commit(client, space["id"], "one")
    second = await commit(client, space["id"], "two")
    async with db.transaction():
        for table, key in (("repos", "id"), ("branches", "repo_id")):
            await db.execute(
                f"UPDATE {table} SET head_commit_id = $1, head_commit_hash = $2 WHERE {key} = $3",
                uuid.UUID(first["id"]),
                first["commit_hash"],
                uuid.UUID(space["id"]),
            )
        await db.execute(  # and the copies of its depth and jump links (the root has none)
            "UPDATE branches SET head_depth = 0, head_jumps = '{}', head_jump_depths = '{}' WHERE repo_id = $1",
            uuid.UUID(space["id"]),
        )
        await db.execute("DELETE FROM commits WHERE id = $1", uuid.UUID(second["id"]))
    report = await _verify(client, space["id"])
    assert report["ok"] is False
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(None, "count_mismatch")]
    log = (await client.get(f"/v4/repos/{space['id']}/commits")).json()
    assert log["total"] != len(log["items"])  # what the count mismatch means for a reader
    # The hash the user kept from that tip shows it too.
    with_anchor = await _verify(client, space["id"], anchor=second["commit_hash"])
    assert "anchor_missing" in {p["kind"] for p in with_anchor["problems"]}


async def test_verify_sees_an_emptied_head(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "one")
    for table, key in (("repos", "id"), ("branches", "repo_id")):
        await db.execute(
            f"UPDATE {table} SET head_commit_id = NULL, head_commit_hash = NULL WHERE {key} = $1",
            uuid.UUID(space["id"]),
        )
    report = await _verify(client, space["id"])
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(None, "head_missing")]


async def test_verify_sees_a_space_head_that_is_not_its_default_lines(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one")
    await commit(client, space["id"], "two")
    await db.execute(
        "UPDATE repos SET head_commit_id = $1, head_commit_hash = $2 WHERE id = $3",
        uuid.UUID(first["id"]),
        first["commit_hash"],
        uuid.UUID(space["id"]),
    )
    report = await _verify(client, space["id"])
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(first["id"], "head_mismatch")]


async def test_verify_sees_a_tampered_copy_of_a_lines_hash(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "one")
    created = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "side", "from_ref": saved["id"]})
    assert created.status_code == 201, created.text
    await db.execute(
        "UPDATE branches SET head_commit_hash = $1 WHERE repo_id = $2 AND name = 'side'",
        "0" * 64,
        uuid.UUID(space["id"]),
    )
    report = await _verify(client, space["id"])
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(saved["id"], "head_hash_mismatch")]
    assert "'side'" in report["problems"][0]["detail"]


async def test_an_anchor_shows_a_history_rewritten_with_consistent_hashes(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one", decisions=["Use PostgreSQL"])
    second = await commit(client, space["id"], "two")
    kept = second["commit_hash"]  # what a careful user noted somewhere else
    assert (await _verify(client, space["id"], anchor=kept))["ok"] is True
    assert (await _verify(client, space["id"], anchor=first["commit_hash"].upper()))["ok"] is True
    # Someone with write access changes the decision and recomputes every hash after it, and HEAD's copy.
    changed = {**first, "decisions": ["Use MongoDB"]}
    first_hash = recomputed_hash(changed, None)
    second_hash = recomputed_hash({**second}, first_hash)
    async with db.transaction():
        await db.execute(
            "UPDATE commits SET decisions = '[\"Use MongoDB\"]'::jsonb, commit_hash = $1 WHERE id = $2",
            first_hash,
            uuid.UUID(first["id"]),
        )
        await db.execute("UPDATE commits SET commit_hash = $1 WHERE id = $2", second_hash, uuid.UUID(second["id"]))
        await db.execute("UPDATE repos SET head_commit_hash = $1 WHERE id = $2", second_hash, uuid.UUID(space["id"]))
        await db.execute(
            "UPDATE branches SET head_commit_hash = $1 WHERE repo_id = $2", second_hash, uuid.UUID(space["id"])
        )
    # Without an anchor, nothing can tell: the chain is consistent again (docs/reliability.md says so).
    assert (await _verify(client, space["id"]))["ok"] is True
    report = await _verify(client, space["id"], anchor=kept)
    assert report["ok"] is False
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(None, "anchor_missing")]
    assert kept in report["problems"][0]["detail"]


@pytest.mark.parametrize("anchor", ["abc", "g" * 64, "0" * 63, "0" * 65])
async def test_an_anchor_must_be_a_full_hash(client: httpx.AsyncClient, db: asyncpg.Connection, anchor: str) -> None:
    space = await create_space(client)
    response = await client.get(f"/v4/repos/{space['id']}/verify", params={"anchor": anchor})
    assert response.status_code == 400
    assert response.json()["errors"][0] == {"field": "anchor", "message": response.json()["detail"], "source": "query"}


async def test_stored_json_tampered_into_deep_nesting_is_a_problem_not_a_500(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one")
    second = await commit(client, space["id"], "two")
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    await db.execute("UPDATE commits SET metadata = $1::text::jsonb WHERE id = $2", deep, uuid.UUID(first["id"]))
    report = await _verify(client, space["id"])
    assert [(p["commit_id"], p["kind"]) for p in report["problems"]] == [(first["id"], "unreadable")]
    assert report["checked"] == 2
    assert second["id"] not in {p["commit_id"] for p in report["problems"]}


async def test_verify_while_commits_land_sees_no_false_tampering(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    # The Space's record and its Checkpoints are read in one snapshot: read apart, a commit landing
    # between the two reads looked like a Checkpoint added (count_mismatch) or a HEAD gone.
    space = await create_space(client)
    await commit(client, space["id"], "first")
    stop = asyncio.Event()

    async def keep_committing() -> None:
        n = 0
        while not stop.is_set():
            await commit(client, space["id"], f"c{n}")
            n += 1

    writers = [asyncio.create_task(keep_committing()) for _ in range(4)]
    try:
        reports = [await _verify(client, space["id"]) for _ in range(40)]
    finally:
        stop.set()
        await asyncio.gather(*writers)
    assert [r["problems"] for r in reports if not r["ok"]] == []
    assert reports[-1]["checked"] > reports[0]["checked"]
