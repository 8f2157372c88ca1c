from __future__ import annotations

import asyncio
import itertools
import time
import uuid
from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space

FULL_STATE: dict[str, Any] = {
    "summary": "Planning the storage layer.",
    "decisions": ["Use PostgreSQL", "Key turns by (session_id, sequence_number)"],
    "assumptions": ["One region is enough"],
    "tasks": [{"text": "Write the migration", "done": True}, {"text": "Benchmark HEAD"}],
    "open_questions": ["Do we need branching?"],
    "entities": [
        {"name": "PostgreSQL", "kind": "database"},
        {"name": "Litestar", "description": "web framework"},
    ],
    "artifacts": [{"name": "schema.sql", "content": "CREATE TABLE t ();", "media_type": "text/x-sql"}],
    "metadata": {"author": {"kind": "agent", "name": "planner"}, "score": 0.75, "n": 3},
}


async def test_commit_then_head_log_and_fetch_by_every_ref(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "Storage plan", **FULL_STATE)
    assert saved["parent_commit_id"] is None
    assert len(saved["commit_hash"]) == 64
    assert saved["tasks"][1] == {"text": "Benchmark HEAD", "done": False}
    assert saved["entities"][0] == {"name": "PostgreSQL", "kind": "database", "description": None}
    assert saved["artifacts"][0]["media_type"] == "text/x-sql"
    assert saved["metadata"] == FULL_STATE["metadata"]

    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head == saved
    for ref in (
        saved["id"],
        saved["commit_hash"],
        saved["commit_hash"][:7],
        saved["commit_hash"][:12].upper(),
    ):
        response = await client.get(f"/v4/commits/{ref}")
        assert response.status_code == 200, ref
        assert response.json() == saved


async def test_ids_are_time_ordered(client: httpx.AsyncClient) -> None:
    """Ids of Spaces, Sessions (made or imported) and Checkpoints are UUIDv7, made when the
    request arrives, so new rows append to the id indexes (and a new Session's Turns to the end of
    the Turns' key)."""
    before = time.time_ns() // 1_000_000
    space = await create_space(client)
    session = await create_session(client, space["id"])
    imported = await client.post(
        "/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello", "repo_id": space["id"]}
    )
    saved = [space, session, *[await commit(client, space["id"], f"c{n}") for n in range(3)]]
    after = time.time_ns() // 1_000_000
    ids = [uuid.UUID(item["id"]) for item in saved] + [uuid.UUID(imported.json()["session_id"])]
    assert [value.version for value in ids] == [7, 7, 7, 7, 7, 7]
    # Made by the server while these requests ran (one clock: this process's, as the server's).
    assert all(before <= value.int >> 80 <= after for value in ids)


async def test_parent_defaults_to_head_and_log_is_newest_first(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    first = await commit(client, space["id"], "one")
    second = await commit(client, space["id"], "two")
    third = await commit(client, space["id"], "three")
    assert second["parent_commit_id"] == first["id"]
    assert third["parent_commit_id"] == second["id"]
    log = (await client.get(f"/v4/repos/{space['id']}/commits")).json()
    assert [c["message"] for c in log["items"]] == ["three", "two", "one"]
    assert log["total"] == 3
    page = (await client.get(f"/v4/repos/{space['id']}/commits?limit=1&offset=1")).json()
    assert [c["message"] for c in page["items"]] == ["two"]


async def test_fork_from_an_older_checkpoint_moves_head(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    root = await commit(client, space["id"], "root")
    await commit(client, space["id"], "line A")
    fork = await commit(client, space["id"], "line B", parent_commit_id=root["id"])
    assert fork["parent_commit_id"] == root["id"]
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head["id"] == fork["id"]
    log = (await client.get(f"/v4/repos/{space['id']}/commits")).json()["items"]
    assert sorted(c["message"] for c in log) == ["line A", "line B", "root"]


async def test_parent_from_another_space_or_missing(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "a")
    other = await create_space(client, "b")
    foreign = await commit(client, other["id"], "foreign")
    response = await client.post(
        "/v4/chat/commit", json={"repo_id": space["id"], "message": "x", "parent_commit_id": foreign["id"]}
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "parent_commit_id"
    response = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "x", "parent_commit_id": str(uuid.uuid4())},
    )
    assert response.status_code == 404
    response = await client.post("/v4/chat/commit", json={"repo_id": str(uuid.uuid4()), "message": "x"})
    assert response.status_code == 404
    assert await db.fetchval("SELECT count(*) FROM commits") == 1


async def test_compare_and_swap(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    # null means "I expect the Space to have no HEAD yet".
    first = await commit(client, space["id"], "one", expected_head_commit_id=None)
    stale = await client.post(
        "/v4/chat/commit", json={"repo_id": space["id"], "message": "lost", "expected_head_commit_id": None}
    )
    assert stale.status_code == 409
    assert stale.json()["errors"][0]["field"] == "expected_head_commit_id"
    second = await commit(client, space["id"], "two", expected_head_commit_id=first["id"])
    stale = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "lost", "expected_head_commit_id": first["id"]},
    )
    assert stale.status_code == 409
    assert await db.fetchval("SELECT count(*) FROM commits") == 2
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head["id"] == second["id"]


async def test_concurrent_commits_with_the_same_expected_head(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    responses = await asyncio.gather(
        *(
            client.post(
                "/v4/chat/commit",
                json={"repo_id": space["id"], "message": f"racer {i}", "expected_head_commit_id": base["id"]},
            )
            for i in range(20)
        )
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [409] * 19
    winner = next(r.json() for r in responses if r.status_code == 201)
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head["id"] == winner["id"]
    assert winner["parent_commit_id"] == base["id"]
    assert await db.fetchval("SELECT count(*) FROM commits") == 2
    orphans = await db.fetchval(
        "SELECT count(*) FROM commits c WHERE c.parent_commit_id IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM commits p WHERE p.id = c.parent_commit_id)"
    )
    assert orphans == 0


async def test_concurrent_commits_without_cas_form_one_line(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    responses = await asyncio.gather(
        *(client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": f"c{i}"}) for i in range(20))
    )
    assert all(r.status_code == 201 for r in responses)
    log = (await client.get(f"/v4/repos/{space['id']}/commits?limit=50")).json()["items"]
    assert len(log) == 20
    # Newest first, each the parent's child: nothing lost, nothing forked by accident.
    for child, parent in itertools.pairwise(log):
        assert child["parent_commit_id"] == parent["id"]
    assert log[-1]["parent_commit_id"] is None


async def test_client_cannot_supply_server_owned_fields(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    for field, value in [
        ("id", str(uuid.uuid4())),
        ("commit_hash", "0" * 64),
        ("created_at", "2020-01-01T00:00:00Z"),
    ]:
        response = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "x", field: value})
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == field
    assert await db.fetchval("SELECT count(*) FROM commits") == 0


async def test_bad_checkpoint_fields(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"message": ""}, "message"),
        ({"message": "ok", "decisions": ["fine", "  "]}, "decisions[1]"),
        ({"message": "ok", "tasks": [{"text": "a", "done": "yes"}]}, "tasks[0].done"),
        ({"message": "ok", "tasks": [{"text": "a", "priority": 1}]}, "tasks[0].priority"),
        ({"message": "ok", "artifacts": [{"name": "a"}]}, "artifacts[0].content"),
        ({"message": "ok", "entities": [{"kind": "x"}]}, "entities[0].name"),
        ({"message": "ok", "metadata": {"big": 2**60}}, "metadata.big"),
        ({"message": "ok", "metadata": {"text": "a\u0000b"}}, "metadata.text"),
        ({"message": "ok", "metadata": []}, "metadata"),
        ({"message": "ok", "summary": "a\u0000"}, "summary"),
        ({"message": " \t\n"}, "message"),
        ({"message": "a\u0000b"}, "message"),
        ({"message": "ok", "open_questions": ["why?", "b\u0000"]}, "open_questions[1]"),
        ({"message": "ok", "tasks": [{"text": "a"}, {"text": "\u00a0"}]}, "tasks[1].text"),
        ({"message": "ok", "entities": [{"name": "e", "kind": "k\u0000"}]}, "entities[0].kind"),
        ({"message": "ok", "entities": [{"name": "e", "description": "\u0000"}]}, "entities[0].description"),
        ({"message": "ok", "artifacts": [{"name": "a", "content": "c", "media_type": ""}]}, "artifacts[0].media_type"),
        ({"message": "ok", "artifacts": [{"name": "a", "content": "x\u0000"}]}, "artifacts[0].content"),
    ]
    for body, field in cases:
        response = await client.post("/v4/chat/commit", json={"repo_id": space["id"], **body})
        assert response.status_code == 400, (body, response.text)
        assert response.json()["errors"][0]["field"] == field, (body, response.json())
        assert field not in response.json()["errors"][0]["message"], "the field is named once, as `field`"
    # Blank text is fine where a value is optional.
    other = await create_space(client, "other")
    fine = {"message": "ok", "summary": "  ", "artifacts": [{"name": "a", "content": ""}]}
    assert (await client.post("/v4/chat/commit", json={"repo_id": other["id"], **fine})).status_code == 201
    deep: Any = "leaf"
    for _ in range(40):
        deep = {"x": deep}
    response = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "m", "metadata": deep})
    assert response.status_code == 400
    assert await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", uuid.UUID(space["id"])) == 0


async def test_unknown_refs(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "one")
    missing_hash = "f" * 64 if not saved["commit_hash"].startswith("f") else "e" * 64
    for ref in (str(uuid.uuid4()), missing_hash, "0123456"):
        response = await client.get(f"/v4/commits/{ref}")
        assert response.status_code == 404, ref
    # A ref that cannot name any Checkpoint is a bad request, naming the parameter.
    for ref in ("abc", "zzzzzzz"):
        response = await client.get(f"/v4/commits/{ref}")
        assert response.status_code == 400, ref
        assert response.json()["errors"][0]["field"] == "ref"
    assert (await client.get(f"/v4/repos/{space['id']}/head")).status_code == 200


async def test_ambiguous_prefix_is_400(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    # Two stored hashes sharing 7 digits are astronomically rare; plant them directly.
    for suffix in ("1", "2"):
        await db.execute(
            "INSERT INTO commits (id, repo_id, commit_hash, message, summary, decisions, assumptions, tasks, "
            "open_questions, entities, artifacts, metadata, created_at, jump_commit_id, jump_depth, "
            "first_parent_merges) "
            "VALUES ($1, $2, $3, 'm', '', '[]', '[]', '[]', '[]', '[]', '[]', '{}', now(), $1, 0, 0)",
            uuid.uuid4(),
            uuid.UUID(space["id"]),
            "abcdef0" + suffix * 57,
        )
    response = await client.get("/v4/commits/abcdef0")
    assert response.status_code == 400
    assert "more than one" in response.json()["detail"]
    assert (await client.get("/v4/commits/abcdef01")).status_code == 200


async def test_log_pages_follow_every_commit_and_delete(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "one")
    first = (await client.get(f"/v4/repos/{space['id']}/commits?limit=5")).json()
    again = (await client.get(f"/v4/repos/{space['id']}/commits?limit=5")).json()
    assert first == again
    await commit(client, space["id"], "two")
    after = (await client.get(f"/v4/repos/{space['id']}/commits?limit=5")).json()
    assert [c["message"] for c in after["items"]] == ["two", "one"]
    assert after["total"] == 2
    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204
    assert (await client.get(f"/v4/repos/{space['id']}/commits?limit=5")).status_code == 404
