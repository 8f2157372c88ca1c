"""A Checkpoint's search vector reuses the parts it carries unchanged from its parent (migration
0013), and is always the vector its own fields give when parsed from scratch."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_space

STATE: dict[str, Any] = {
    "summary": "Planning the storage layer",
    "decisions": ["Keep Turns keyed by Session and sequence number", "Use PostgreSQL"],
    "assumptions": ["One region is enough"],
    "tasks": [{"text": "Benchmark the hot path", "done": False}],
    "open_questions": ["Do we shard later?"],
    "entities": [{"name": "Ledger", "kind": "component", "description": "keeps the money straight"}],
    "artifacts": [{"name": "plan.md", "content": "step one: measure; step two: cut; step three: measure again"}],
}

_FRESH = """
SELECT c.id, c.message,
       c.search_vector = smriti_checkpoint_vector(c.message, c.summary, c.decisions, c.assumptions, c.tasks,
                                                  c.open_questions, c.entities, c.artifacts) AS fresh,
       c.items_vector IS NOT NULL AND c.artifacts_vector IS NOT NULL AS parts_kept
FROM commits c WHERE c.repo_id = $1
"""


async def _all_fresh(db: asyncpg.Connection, space_id: str) -> dict[str, tuple[bool, bool]]:
    return {row["message"]: (row["fresh"], row["parts_kept"]) for row in await db.fetch(_FRESH, space_id)}


async def test_every_vector_is_what_its_own_fields_give_whatever_it_carried(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = (await create_space(client, "carried"))["id"]
    root = await commit(client, space, "root", **STATE)
    await commit(client, space, "same state", **{**STATE, "summary": "Still planning"})
    await commit(client, space, "a decision more", **{**STATE, "decisions": [*STATE["decisions"], "Cache pages"]})
    changed_artifact = [{"name": "plan.md", "content": "step one only"}]
    await commit(client, space, "an artifact edited", **{**STATE, "artifacts": changed_artifact})
    await commit(client, space, "an entity renamed", **{**STATE, "entities": [{"name": "Journal", "kind": "x"}]})
    await commit(client, space, "a task done", **{**STATE, "tasks": [{"text": "Benchmark the hot path", "done": True}]})
    await commit(client, space, "everything dropped")
    await commit(client, space, "everything back", **STATE)
    # A line from the root: its parent is not the previous commit.
    response = await client.post(f"/v4/repos/{space}/branches", json={"name": "side", "from_ref": root["id"]})
    assert response.status_code == 201, response.text
    side = await commit(client, space, "on the side", branch="side", **{**STATE, "open_questions": ["Shard now?"]})
    head = (await client.get(f"/v4/repos/{space}/head")).json()
    await commit(
        client,
        space,
        "merged",
        **{**STATE, "open_questions": ["Shard now?"]},
        merge_parent_id=side["id"],
        expected_head_commit_id=head["id"],
    )
    vectors = await _all_fresh(db, space)
    assert len(vectors) == 10
    assert all(fresh and kept for fresh, kept in vectors.values()), vectors


async def test_a_parent_without_part_vectors_gives_nothing_to_reuse(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = (await create_space(client, "older"))["id"]
    parent = await commit(client, space, "before 0013", **STATE)
    # As a Checkpoint written before migration 0013 is: no part vectors (this UPDATE touches no
    # column the trigger watches, so it does not fire).
    await db.execute("UPDATE commits SET items_vector = NULL, artifacts_vector = NULL WHERE id = $1", parent["id"])
    await commit(client, space, "after", **STATE)
    vectors = await _all_fresh(db, space)
    assert vectors == {"before 0013": (True, False), "after": (True, True)}


async def test_a_vector_past_the_limit_keeps_no_parts_and_its_child_parses_its_own(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = (await create_space(client, "huge"))["id"]
    parent = await commit(client, space, "parent", **STATE)
    # Distinct two-byte words joined in pairs ("абвг-деёж" gives three lexemes): items whose
    # vector passes PostgreSQL's 1 MB limit. Written straight in, as a request body could not
    # carry them; the trigger fires on the update as on an insert.
    letters = "абвгдежзиклмнопрстуфхцчшщэюя"

    def word(n: int) -> str:
        return "".join(letters[(n // len(letters) ** k) % len(letters)] for k in range(4))

    def text(first: int, count: int) -> str:
        return " ".join(f"{word(2 * n)}-{word(2 * n + 1)}" for n in range(first, first + count))

    # Each item part to its 50,000 characters, the artifact to its 100,000: ~1.15 MB of lexemes.
    items = [text(part * 5000, 5000) for part in range(5)]
    await db.execute(
        "UPDATE commits SET decisions = jsonb_build_array($2::text), assumptions = jsonb_build_array($3::text), "
        "open_questions = jsonb_build_array($4::text), "
        "tasks = jsonb_build_array(jsonb_build_object('text', $5::text)), "
        "entities = jsonb_build_array(jsonb_build_object('name', $6::text)), "
        "artifacts = jsonb_build_array(jsonb_build_object('name', 'words', 'content', $7::text)) WHERE id = $1",
        parent["id"],
        *items,
        text(25_000, 10_000),
    )
    row = await db.fetchrow(
        "SELECT items_vector, artifacts_vector, search_vector = setweight(to_tsvector('english', message), 'A') "
        "|| setweight(to_tsvector('english', summary), 'B') AS cut FROM commits WHERE id = $1",
        parent["id"],
    )
    assert row is not None
    assert (row["items_vector"], row["artifacts_vector"], row["cut"]) == (None, None, True)
    await commit(client, space, "child", **STATE)
    child = await db.fetchrow(_FRESH + " AND c.message = 'child'", space)
    assert child is not None
    assert (child["fresh"], child["parts_kept"]) == (True, True)
