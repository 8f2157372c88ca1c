from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space, send


async def test_create_get_list_rename_delete(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "Travel plans", description="Lisbon in May")
    assert space["name"] == "Travel plans"
    assert space["head_commit_id"] is None

    fetched = (await client.get(f"/v4/repos/{space['id']}")).json()
    assert fetched == space

    renamed = await client.patch(f"/v4/repos/{space['id']}", json={"name": "Lisbon trip"})
    assert renamed.status_code == 200
    assert renamed.json()["name"] == "Lisbon trip"
    assert renamed.json()["description"] == "Lisbon in May"

    listing = (await client.get("/v4/repos")).json()
    assert listing["total"] == 1
    assert listing["limit"] == 50
    assert listing["offset"] == 0
    assert [s["name"] for s in listing["items"]] == ["Lisbon trip"]

    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204
    assert (await client.get(f"/v4/repos/{space['id']}")).status_code == 404


async def test_space_shows_its_head(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    checkpoint = await commit(client, space["id"], "First state")
    fetched = (await client.get(f"/v4/repos/{space['id']}")).json()
    assert fetched["head_commit_id"] == checkpoint["id"]
    assert fetched["head_commit_hash"] == checkpoint["commit_hash"]
    assert fetched["head_message"] == "First state"
    assert fetched["updated_at"] >= checkpoint["created_at"]


async def test_delete_removes_sessions_turns_and_checkpoints(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    other = await create_space(client, "Other")
    session = await create_session(client, space["id"])
    await send(client, session["id"], "hello")
    first = await commit(client, space["id"], "one")
    await commit(client, space["id"], "two", parent_commit_id=first["id"])
    kept = await commit(client, other["id"], "kept")

    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204

    assert await db.fetchval("SELECT count(*) FROM sessions") == 0
    assert await db.fetchval("SELECT count(*) FROM turns") == 0
    assert await db.fetchval("SELECT array_agg(id) FROM commits") == [__import__("uuid").UUID(kept["id"])]
    assert (await client.get(f"/v4/sessions/{session['id']}")).status_code == 404


async def test_duplicate_name_conflicts(client: httpx.AsyncClient) -> None:
    await create_space(client, "Same")
    response = await client.post("/v4/repos", json={"name": "Same"})
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "name"
    other = await create_space(client, "Other")
    response = await client.patch(f"/v4/repos/{other['id']}", json={"name": "Same"})
    assert response.status_code == 409


async def test_bad_input_names_the_field(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    cases: list[tuple[Any, str]] = [
        ({"name": 5}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "a\u0000b"}, "name"),
        ({"name": "x" * 201}, "name"),
        ({"name": "ok", "id": "00000000-0000-0000-0000-000000000001"}, "id"),
        ({"name": "ok", "created_at": "2020-01-01T00:00:00Z"}, "created_at"),
        ({}, "name"),
    ]
    for body, field in cases:
        response = await client.post("/v4/repos", json=body)
        assert response.status_code == 400, (body, response.text)
        error = response.json()
        assert error["status"] == 400
        assert [e["field"] for e in error["errors"]] == [field], (body, error)
    response = await client.post("/v4/repos", content=b'{"name": ', headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM repos") == 0


async def test_unknown_space_is_404(client: httpx.AsyncClient) -> None:
    missing = "00000000-0000-0000-0000-000000000000"
    for method, path in [
        ("GET", f"/v4/repos/{missing}"),
        ("PATCH", f"/v4/repos/{missing}"),
        ("DELETE", f"/v4/repos/{missing}"),
        ("GET", f"/v4/repos/{missing}/head"),
        ("GET", f"/v4/repos/{missing}/commits"),
        ("GET", f"/v4/repos/{missing}/sessions"),
        ("GET", f"/v4/repos/{missing}/verify"),
        ("POST", f"/v4/repos/{missing}/sessions"),
    ]:
        response = await client.request(method, path, json={} if method in ("PATCH", "POST") else None)
        assert response.status_code == 404, (method, path, response.text)
        assert response.json()["status"] == 404


async def test_page_size_is_capped(client: httpx.AsyncClient) -> None:
    for name in ("a", "b", "c"):
        await create_space(client, name)
    page = (await client.get("/v4/repos?limit=2&offset=1")).json()
    assert page["total"] == 3
    assert len(page["items"]) == 2
    assert (page["limit"], page["offset"]) == (2, 1)
    for query, field in [("limit=0", "limit"), ("limit=201", "limit"), ("offset=-1", "offset")]:
        response = await client.get(f"/v4/repos?{query}")
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == field


async def test_rename_racing_a_delete_is_a_404_not_a_500(client: httpx.AsyncClient) -> None:
    for round_ in range(5):
        space = await create_space(client, f"racing-{round_}")
        responses = await asyncio.gather(
            client.delete(f"/v4/repos/{space['id']}"),
            *(client.patch(f"/v4/repos/{space['id']}", json={"description": f"d{i}"}) for i in range(6)),
        )
        assert responses[0].status_code == 204
        assert {r.status_code for r in responses[1:]} <= {200, 404}, [r.text for r in responses]
