from __future__ import annotations

import asyncpg
import httpx

from tests.support.api import commit, create_space

BEFORE = {
    "summary": "Old summary",
    "decisions": ["Use PostgreSQL", "Deploy on Fridays", "Deploy on Fridays"],
    "assumptions": ["One region"],
    "tasks": [{"text": "Write migration", "done": False}, {"text": "Drop old table"}],
    "open_questions": ["Replicas?"],
    "entities": [{"name": "PostgreSQL", "kind": "db"}, {"name": "Redis"}],
    "artifacts": [
        {"name": "schema.sql", "content": "CREATE TABLE a ();"},
        {"name": "old.md", "content": "bye"},
        {"name": "same.txt", "content": "same"},
    ],
    "metadata": {"v": 1},
}
AFTER = {
    "summary": "New summary",
    "decisions": ["Use PostgreSQL", "Deploy on Fridays", "Deploy on Mondays"],
    "assumptions": ["One region"],
    "tasks": [{"text": "Write migration", "done": True}, {"text": "Add index"}],
    "open_questions": [],
    "entities": [{"name": "PostgreSQL", "kind": "database"}, {"name": "Kafka"}],
    "artifacts": [
        {"name": "schema.sql", "content": "CREATE TABLE a (id int);", "media_type": "text/x-sql"},
        {"name": "new.md", "content": "hello"},
        {"name": "same.txt", "content": "same"},
    ],
    "metadata": {"v": 2},
}


async def test_diff_reports_every_kind_of_change(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    before = await commit(client, space["id"], "v1", **BEFORE)
    await commit(client, space["id"], "in between")
    after = await commit(client, space["id"], "v2", **AFTER)  # not a child of `before`
    response = await client.get(f"/v5/commits/{before['commit_hash'][:10]}/diff/{after['id']}")
    assert response.status_code == 200, response.text
    diff = response.json()
    assert diff["from_commit_id"] == before["id"]
    assert diff["to_commit_id"] == after["id"]
    assert diff["identical"] is False
    assert diff["message"] == {"changed": True, "before": "v1", "after": "v2"}
    assert diff["summary"]["changed"] is True
    assert diff["decisions"] == {"added": ["Deploy on Mondays"], "removed": ["Deploy on Fridays"]}
    assert diff["assumptions"] == {"added": [], "removed": []}
    assert diff["open_questions"] == {"added": [], "removed": ["Replicas?"]}
    assert diff["tasks"] == {
        "added": [{"text": "Add index", "done": False}],
        "removed": [{"text": "Drop old table", "done": False}],
        "changed": [{"text": "Write migration", "before_done": False, "after_done": True}],
    }
    assert diff["entities"]["added"] == [{"name": "Kafka", "kind": None, "description": None}]
    assert diff["entities"]["removed"] == [{"name": "Redis", "kind": None, "description": None}]
    assert [c["name"] for c in diff["entities"]["changed"]] == ["PostgreSQL"]
    assert diff["entities"]["changed"][0]["after"]["kind"] == "database"
    assert diff["artifacts"]["added"] == [{"name": "new.md", "media_type": "text/plain", "size": 5}]
    assert diff["artifacts"]["removed"] == [{"name": "old.md", "media_type": "text/plain", "size": 3}]
    assert diff["artifacts"]["changed"] == [
        {"name": "schema.sql", "before_size": 18, "after_size": 24, "media_type_changed": True}
    ]
    assert diff["metadata_changed"] is True


async def test_diff_with_itself_is_empty(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    saved = await commit(client, space["id"], "v1", **BEFORE)
    diff = (await client.get(f"/v5/commits/{saved['id']}/diff/{saved['commit_hash']}")).json()
    assert diff["identical"] is True
    assert diff["decisions"] == {"added": [], "removed": []}
    assert diff["tasks"] == {"added": [], "removed": [], "changed": []}
    assert diff["artifacts"] == {"added": [], "removed": [], "changed": []}
    assert diff["message"]["changed"] is False


async def test_diff_across_spaces_and_unknown_refs(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    one = await commit(client, (await create_space(client, "one"))["id"], "a")
    two = await commit(client, (await create_space(client, "two"))["id"], "b")
    response = await client.get(f"/v5/commits/{one['id']}/diff/{two['id']}")
    assert response.status_code == 400
    assert "two different Spaces" in response.json()["detail"]
    missing = await client.get(f"/v5/commits/{one['id']}/diff/{'0' * 64}")
    assert missing.status_code == 404
