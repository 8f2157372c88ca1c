"""Rules every request follows (SYSTEM.md §11): Host names, JSON bodies, strict types, no 500.

Each test here failed before its rule existed: a text/plain POST was parsed as JSON, any Host
was answered on loopback, `SMRITI_ALLOWED_HOSTS` compared `host:port`, duplicate keys were
merged silently, wrong JSON types were converted, and deep nesting gave 500.
"""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import httpx
import pytest
from litestar.enums import ParamType
from litestar.exceptions import ValidationException

from smriti.bundles.controller import BundleController
from smriti.core.config import Settings
from smriti.core.errors import FieldError
from smriti.server.errors import _validation_errors
from smriti.server.request_rules import request_rules
from smriti.spaces.controller import SpaceController
from smriti.transcripts.controller import import_conversations
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space

LOOPBACK = "http://127.0.0.1:8000"


def _error(response: httpx.Response, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert field in {e["field"] for e in body["errors"]}, body
    return body


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/json"],
)
async def test_a_body_that_is_not_declared_json_is_refused_and_nothing_is_written(
    client: httpx.AsyncClient, db: asyncpg.Connection, content_type: str | None
) -> None:
    # What a web page on another site can send without a preflight: it must not create anything.
    headers = {"content-type": content_type} if content_type else {}
    response = await client.post("/v4/repos", content=b'{"name": "cross-site"}', headers=headers)
    body = _error(response, 415, "Content-Type")
    assert "application/json" in body["detail"]
    assert await db.fetchval("SELECT count(*) FROM repos") == 0
    space = await create_space(client)
    patch = await client.patch(f"/v4/repos/{space['id']}", content=b'{"name": "renamed"}', headers=headers)
    _error(patch, 415, "Content-Type")
    assert await db.fetchval("SELECT name FROM repos") == "Space"


async def test_mcp_answers_a_body_of_another_type_in_its_own_shape(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    response = await client.post("/mcp", content=b'{"jsonrpc": "2.0"}', headers={"content-type": "text/plain"})
    # The MCP SDK's transport security refuses it (400) before anything is read, in its own words.
    assert response.status_code == 400
    assert "Content-Type" in response.text
    assert "A POST body must be JSON" not in response.text


@pytest.mark.parametrize(
    "content_type", ["application/json", "Application/JSON; charset=utf-8", "application/vnd.smriti+json"]
)
async def test_json_media_types_are_accepted(
    client: httpx.AsyncClient, db: asyncpg.Connection, content_type: str
) -> None:
    response = await client.post("/v4/repos", content=b'{"name": "ok"}', headers={"content-type": content_type})
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("base_url", [LOOPBACK, "http://172.17.0.2:8000", "http://[::ffff:127.0.0.1]:8000"])
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", "localhost.evil.example"])
async def test_without_allowed_hosts_a_domain_name_is_refused_whatever_the_address(
    settings: Settings, db: asyncpg.Connection, host: str, base_url: str
) -> None:
    # DNS rebinding: the attacker's name now resolves to this machine (its loopback, its LAN or
    # container address), and the browser sends that name as Host.
    async with make_client(settings, base_url=base_url) as client:
        for method, path in (("GET", "/health"), ("GET", "/v4/repos"), ("POST", "/v4/repos")):
            response = await client.request(method, path, json={"name": "x"}, headers={"Host": host})
            body = _error(response, 400, "Host")
            assert "SMRITI_ALLOWED_HOSTS" in body["detail"]
        assert await db.fetchval("SELECT count(*) FROM repos") == 0


LAN = "http://192.168.1.10:8000"
LOOPBACK_NAMES = (
    "localhost",
    "localhost:8000",
    "localhost.",
    "127.0.0.1:8000",
    "127.0.0.2",
    "[::1]:8000",
    "app.localhost",
)


@pytest.mark.parametrize(
    ("base_url", "host"),
    [(LOOPBACK, host) for host in LOOPBACK_NAMES]
    + [("http://[::1]:8000", "[::1]:8000"), ("http://[::ffff:127.0.0.1]:8000", "[::ffff:127.0.0.1]")]
    + [(LAN, host) for host in (*LOOPBACK_NAMES, "192.168.1.10:8000", "10.0.0.7", "[2001:db8::1]:8000")],
)
async def test_without_allowed_hosts_loopback_names_and_on_other_addresses_ip_addresses_are_answered(
    settings: Settings, db: asyncpg.Connection, base_url: str, host: str
) -> None:
    async with make_client(settings, base_url=base_url) as client:
        assert (await client.get("/health", headers={"Host": host})).status_code == 200


@pytest.mark.parametrize("base_url", [LOOPBACK, "http://[::1]:8000", "http://[::ffff:127.0.0.1]:8000"])
@pytest.mark.parametrize("host", ["192.168.1.10:8000", "10.0.0.7", "[2001:db8::1]:8000", "0.0.0.0", None])
async def test_on_loopback_without_allowed_hosts_only_loopback_names_are_answered(
    settings: Settings, db: asyncpg.Connection, base_url: str, host: str | None
) -> None:
    """SYSTEM.md §11: a server reached on loopback answers loopback Host names only. Another IP
    address, or no Host at all (HTTP/1.0), comes from no browser: only from a forged request."""
    async with make_client(settings, base_url=base_url) as client:
        for method, path in (("GET", "/health"), ("POST", "/v4/repos")):
            request = client.build_request(method, path, json={"name": "x"})
            if host is None:
                del request.headers["Host"]
            else:
                request.headers["Host"] = host
            body = _error(await client.send(request), 400, "Host")
            assert "loopback" in body["detail"]
            assert "SMRITI_ALLOWED_HOSTS" in body["detail"]
        assert await db.fetchval("SELECT count(*) FROM repos") == 0
    # SMRITI_ALLOWED_HOSTS decides alone once it is set.
    async with make_client(settings, base_url=base_url, allowed_hosts=("*",)) as client:
        request = client.build_request("GET", "/health")
        if host is None:
            del request.headers["Host"]
        else:
            request.headers["Host"] = host
        assert (await client.send(request)).status_code == 200


async def test_allowed_hosts_are_host_names_matched_without_the_port(
    settings: Settings, db: asyncpg.Connection
) -> None:
    allowed = ("127.0.0.1", "localhost", "*.example.com", "::1")
    async with make_client(settings, base_url=LOOPBACK, allowed_hosts=allowed) as client:
        hosts = ("127.0.0.1:8000", "localhost:8000", "LOCALHOST", "api.example.com:443", "a.b.example.com", "[::1]:80")
        for host in hosts:
            assert (await client.get("/health", headers={"Host": host})).status_code == 200, host
        for host in ("example.com.evil.test", "evil.test", "[::2]", "example.com", "192.168.1.10"):
            refused = await client.get("/health", headers={"Host": host})
            body = _error(refused, 400, "Host")
            assert "SMRITI_ALLOWED_HOSTS" in body["detail"]


async def test_duplicate_keys_are_refused(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    bodies = [
        ("/v4/repos", b'{"name": "a", "name": "b"}'),
        ("/v4/chat/commit", f'{{"repo_id": "{space["id"]}", "message": "m", "metadata": {{"k": 1, "k": 2}}}}'.encode()),
        (
            "/v4/chat/commit",
            f'{{"repo_id": "{space["id"]}", "message": "m", "tasks": [{{"text": "a", "text": "b"}}]}}'.encode(),
        ),
    ]
    for path, body in bodies:
        response = await client.post(path, content=body, headers={"content-type": "application/json"})
        detail = _error(response, 400, "body")["detail"]
        assert "twice" in detail, detail
    assert await db.fetchval("SELECT count(*) FROM commits") == 0
    assert await db.fetchval("SELECT count(*) FROM repos") == 1
    # The same key in two different objects is fine.
    ok = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "m", "tasks": [{"text": "a"}, {"text": "b"}]},
    )
    assert ok.status_code == 201, ok.text


@pytest.mark.parametrize(
    ("field", "value"),
    [("history_base_seq", "4"), ("history_base_seq", 4.0), ("history_base_seq", True), ("content", 5)],
)
async def test_wrong_json_types_are_refused_not_converted(
    client: httpx.AsyncClient, db: asyncpg.Connection, field: str, value: Any
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    checkpoint = await commit(client, space["id"])
    body = {"session_id": session["id"], "content": "hi", "checkpoint_id": checkpoint["id"], "history_base_seq": 0}
    response = await client.post("/v4/chat/send", json={**body, field: value})
    _error(response, 400, field)
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


async def test_a_task_done_as_text_is_refused(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    response = await client.post(
        "/v4/chat/commit", json={"repo_id": space["id"], "message": "m", "tasks": [{"text": "t", "done": "true"}]}
    )
    body = _error(response, 400, "tasks[0].done")
    assert "bool" in body["errors"][0]["message"]
    assert await db.fetchval("SELECT count(*) FROM commits") == 0


@pytest.mark.parametrize("value", ["1e3", "5e1", "5.0", "+5", " 5", "0x10", "5_0", "-1", "99999999999"])
async def test_integer_query_parameters_are_digits_only(
    client: httpx.AsyncClient, db: asyncpg.Connection, value: str
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    for path in ("/v4/repos", f"/v4/sessions/{session['id']}/turns"):
        for name in ("limit", "offset"):
            response = await client.get(path, params={name: value})
            body = _error(response, 400, name)
            assert body["errors"][0]["source"] == "query", body
    assert (await client.get("/v4/repos", params={"limit": "5"})).json()["limit"] == 5


def test_query_parameter_errors_name_their_source_plainly() -> None:
    # Litestar reports where a parameter was as an enum member; its str() was "ParamType.QUERY".
    refusal = ValidationException(extra=[{"message": "Expected `int`", "key": "after", "source": ParamType.QUERY}])
    assert _validation_errors(refusal) == [FieldError("after", "Expected `int`", "query")]


@pytest.mark.parametrize("depth", [900, 1000, 5000, 100_000])
async def test_deeply_nested_bodies_are_a_400_on_every_json_endpoint(
    client: httpx.AsyncClient, db: asyncpg.Connection, depth: int
) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    nested = "[" * depth + "]" * depth
    bodies = {
        "/v4/repos": f'{{"name": "x", "description": {nested}}}',
        "/v4/chat/commit": f'{{"repo_id": "{space["id"]}", "message": "m", "metadata": {{"a": {nested}}}}}',
        "/v4/chat/send": f'{{"session_id": "{session["id"]}", "content": {nested}}}',
        "/v4/chat/context": f'{{"session_id": "{session["id"]}", "provider": {nested}}}',
        "/v5/checkpoints/draft": f'{{"session_id": "{session["id"]}", "model": {nested}}}',
        "/v1/transcripts": f'{{"transcript": {nested}}}',
        f"/v4/repos/{space['id']}/sessions": f'{{"title": {nested}}}',
    }
    for path, body in bodies.items():
        response = await client.post(path, content=body.encode(), headers={"content-type": "application/json"})
        assert response.status_code == 400, (path, response.status_code, response.text[:300])
    deep_metadata = '{"a":' * depth + "1" + "}" * depth
    response = await client.post(
        "/v4/chat/commit",
        content=f'{{"repo_id": "{space["id"]}", "message": "m", "metadata": {deep_metadata}}}'.encode(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400, response.text[:300]
    assert response.json()["errors"][0]["field"].startswith("body" if depth >= 1000 else "metadata")
    assert await db.fetchval("SELECT count(*) FROM commits") == 0


async def test_a_request_without_a_body_says_it_needs_one(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    response = await client.post("/v4/repos", content=b"", headers={"content-type": "application/json"})
    body = _error(response, 400, "body")
    assert body["detail"] == "This request needs a JSON body (Content-Type: application/json)."
    assert "'data'" not in response.text


@pytest.mark.parametrize("blank", ["\u200b", "\ufeff", " \u200b\u00a0\ufeff ", "\u2060\u200d"])
async def test_invisible_only_text_is_empty(client: httpx.AsyncClient, db: asyncpg.Connection, blank: str) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    _error(await client.post("/v4/chat/send", json={"session_id": session["id"], "content": blank}), 400, "content")
    _error(await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": blank}), 400, "message")
    _error(
        await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "m", "decisions": [blank]}),
        400,
        "decisions[0]",
    )
    _error(await client.post("/v4/repos", json={"name": blank}), 400, "name")
    assert await db.fetchval("SELECT count(*) FROM turns") == 0
    assert await db.fetchval("SELECT count(*) FROM commits") == 0
    # Visible text with an invisible character in it is text.
    sent = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "\u200bhi"})
    assert sent.status_code == 201, sent.text


async def test_a_lone_surrogate_in_a_body_is_a_clear_400(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    response = await client.post(
        "/v4/repos", content=b'{"name": "a\\ud800b"}', headers={"content-type": "application/json"}
    )
    assert "surrogate" in _error(response, 400, "body")["detail"]


async def test_a_32_digit_hash_prefix_is_a_hash_not_an_id(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    checkpoint = await commit(client, space["id"])
    for length in (7, 31, 32, 33, 64):
        response = await client.get(f"/v4/commits/{checkpoint['commit_hash'][:length]}")
        assert response.status_code == 200, (length, response.text)
        assert response.json()["id"] == checkpoint["id"]
    assert (await client.get(f"/v4/commits/{checkpoint['id']}")).status_code == 200
    assert (await client.get(f"/v4/commits/{uuid.UUID(checkpoint['id']).hex}")).status_code == 404


def _routed_post(handler: object, content_type: str) -> dict[str, Any]:
    """The scope of a POST as Litestar has routed it, at a path no route has ever had."""
    return {
        "type": "http",
        "method": "POST",
        "path": "/moved/somewhere/else",
        "raw_path": b"/moved/somewhere/else",
        "headers": [(b"host", b"localhost"), (b"content-type", content_type.encode())],
        "server": ("127.0.0.1", 8000),
        "route_handler": handler,
    }


@pytest.mark.parametrize(
    ("handler", "content_type", "reaches_the_handler"),
    [
        (BundleController.import_bundle, "application/x-ndjson", True),
        (BundleController.import_bundle, "text/plain", False),
        (import_conversations, "application/zip", True),
        (import_conversations, "application/x-zip-compressed", True),
        (import_conversations, "application/x-ndjson", True),
        (import_conversations, "multipart/form-data; boundary=x", False),
        (SpaceController.create_space, "application/x-ndjson", False),
        (SpaceController.create_space, "application/json", True),
    ],
)
async def test_the_body_types_a_route_reads_are_declared_on_its_handler(
    handler: object, content_type: str, reaches_the_handler: bool
) -> None:
    """Issue 44, item 22: which bodies besides JSON a route reads was a list of paths in the
    middleware, which a renamed route would fall out of; now each handler says so itself."""
    reached: list[bool] = []
    sent: list[dict[str, Any]] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    middleware: Any = request_rules([])(route)  # a scope as Litestar hands it over, typed loosely here
    await middleware(_routed_post(handler, content_type), receive, send)
    assert bool(reached) is reaches_the_handler
    if not reaches_the_handler:
        assert sent[0]["status"] == 415
