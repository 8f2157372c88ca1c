"""Errors are RFC 9457 problem details (docs/api.md, "Conventions"; issue 21, item 16)."""

from __future__ import annotations

import uuid

import asyncpg
import httpx

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import create_space

PROBLEM = "application/problem+json"


def _problem(response: httpx.Response, status: int) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].split(";")[0] == PROBLEM
    body: dict[str, object] = response.json()
    assert body["type"] == "about:blank"
    assert body["status"] == status
    assert str(body["title"]).strip()
    assert str(body["detail"]).strip()
    return body


async def test_every_kind_of_refusal_is_a_problem_detail(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    not_found = _problem(await client.get(f"/v4/repos/{uuid.uuid4()}"), 404)
    assert not_found["title"] == "Not Found"
    invalid = _problem(await client.post("/v4/repos", json={"name": 4}), 400)
    assert invalid["errors"] == [{"field": "name", "message": "Expected `str`, got `int`", "source": "body"}]
    conflict = _problem(await client.post("/v4/repos", json={"name": space["name"]}), 409)
    assert conflict["title"] == "Conflict"
    _problem(await client.put("/v4/repos", json={}), 405)
    _problem(await client.get("/v4/nothing-here"), 404)
    wrong_type = _problem(await client.post("/v4/repos", content=b"{}", headers={"content-type": "text/plain"}), 415)
    assert wrong_type["errors"][0]["source"] == "header"  # type: ignore[index]


async def test_a_bad_uuid_in_the_path_names_the_parameter(client: httpx.AsyncClient) -> None:
    for path, parameter in (
        ("/v4/repos/not-a-uuid", "repo_id"),
        ("/v4/repos/not-a-uuid/head", "repo_id"),
        ("/v4/sessions/123/turns", "session_id"),
        ("/v5/commits/xyz/review", "commit_id"),
    ):
        method = "POST" if path.endswith("/review") else "GET"
        body = _problem(await client.request(method, path, json={} if method == "POST" else None), 400)
        assert body["errors"] == [{"field": parameter, "message": "Invalid UUID", "source": "path"}], path
        assert parameter in str(body["detail"])


async def test_413_says_the_limit(client: httpx.AsyncClient) -> None:
    big = b'{"name": "' + b"x" * 1_100_000 + b'"}'
    body = _problem(await client.post("/v4/repos", content=big, headers={"content-type": "application/json"}), 413)
    assert body["limit_bytes"] == 1_048_576
    assert "1,048,576 bytes" in str(body["detail"])


async def test_the_token_refusal_is_a_problem_detail(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, api_token="t" * 32) as client:
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            body = _problem(await client.get("/v4/repos", headers=headers), 401)
            assert "bearer token" in str(body["detail"])


async def test_a_missing_query_parameter_is_named_as_one(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    missing = _problem(await client.get(f"/v5/repos/{space['id']}/merge", params={"ours": "main"}), 400)
    assert missing["errors"] == [{"field": "theirs", "message": "Missing required query parameter", "source": "query"}]
    assert missing["detail"] == "Invalid request. theirs: Missing required query parameter"


async def test_an_unknown_space_in_the_path_is_named_as_a_path_parameter(client: httpx.AsyncClient) -> None:
    """A 404 for a Space the address names says so: `repo_id`, from the path (it said "body", or
    named nothing, on these routes; issue 44)."""
    nowhere = uuid.uuid4()
    requests = [
        client.get(f"/v4/repos/{nowhere}"),
        client.patch(f"/v4/repos/{nowhere}", json={"description": "x"}),
        client.get(f"/v4/repos/{nowhere}/head"),
        client.get(f"/v4/repos/{nowhere}/commits"),
        client.get(f"/v4/repos/{nowhere}/verify"),
        client.get(f"/v4/repos/{nowhere}/branches"),
        client.get(f"/v4/repos/{nowhere}/sessions"),
        client.post(f"/v4/repos/{nowhere}/sessions", json={}),
        client.get(f"/v5/repos/{nowhere}/export"),
        client.post(
            f"/v5/repos/{nowhere}/import/conversations",
            json=[{"title": "t", "mapping": {}, "current_node": None}],
        ),
    ]
    for pending in requests:
        response = await pending
        body = _problem(response, 404)
        errors = body.get("errors", [])
        assert isinstance(errors, list), (response.request.url, body)
        assert len(errors) == 1, (response.request.url, body)
        assert (errors[0]["field"], errors[0]["source"]) == ("repo_id", "path"), (response.request.url, body)
    for pending in (
        client.get(f"/v4/sessions/{nowhere}"),
        client.get(f"/v4/sessions/{nowhere}/turns"),
        client.patch(f"/v4/sessions/{nowhere}", json={"title": "x"}),
        client.delete(f"/v4/sessions/{nowhere}"),
    ):
        response = await pending
        named = _problem(response, 404).get("errors", [])
        assert isinstance(named, list), response.url
        assert len(named) == 1, response.url
        assert (named[0]["field"], named[0]["source"]) == ("session_id", "path"), response.url
