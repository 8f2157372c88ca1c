from __future__ import annotations

import re
from typing import Any

import httpx
from litestar import Litestar, Router
from litestar.di import Provide
from sqlalchemy.ext.asyncio import AsyncSession

from smriti.bundles.controller import BundleController
from smriti.checkpoints.controller import CheckpointController
from smriti.server.health import health
from smriti.server.openapi import refine_openapi
from smriti.transcripts.controller import import_conversations
from tests.support.api import commit, create_session, create_space

EXPECTED_OPERATIONS = {
    ("post", "/v4/repos"): "createSpace",
    ("get", "/v4/repos"): "listSpaces",
    ("get", "/v4/repos/{repo_id}"): "getSpace",
    ("patch", "/v4/repos/{repo_id}"): "updateSpace",
    ("delete", "/v4/repos/{repo_id}"): "deleteSpace",
    ("get", "/v4/repos/{repo_id}/head"): "getHead",
    ("get", "/v4/repos/{repo_id}/commits"): "listCheckpoints",
    ("get", "/v4/commits/{ref}"): "getCheckpoint",
    ("post", "/v4/chat/commit"): "commitCheckpoint",
    ("get", "/v4/repos/{repo_id}/verify"): "verifySpace",
    ("post", "/v4/repos/{repo_id}/sessions"): "createSession",
    ("get", "/v4/repos/{repo_id}/sessions"): "listSessions",
    ("get", "/v4/sessions/{session_id}"): "getSession",
    ("get", "/v4/sessions/{session_id}/turns"): "listTurns",
    ("post", "/v4/chat/send"): "sendMessage",
    ("post", "/v4/chat/context"): "previewContext",
    ("get", "/v4/providers"): "listProviders",
    ("get", "/health"): "health",
    ("post", "/v5/checkpoints/draft"): "draftCheckpoint",
    ("post", "/v5/commits/{commit_id}/review"): "reviewCheckpoint",
    ("get", "/v5/commits/{from_ref}/diff/{to_ref}"): "diffCheckpoints",
    ("post", "/v1/transcripts"): "ingestTranscript",
}


async def test_schema_has_stable_operation_ids(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    found = {
        (method, path): operation["operationId"]
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }
    for key, operation_id in EXPECTED_OPERATIONS.items():
        assert found.get(key) == operation_id, key


async def test_every_schema_keeps_its_own_name(client: httpx.AsyncClient) -> None:
    """Two shapes of one name in different modules are renamed `module_schemas_Name` by Litestar,
    and the web app's types (`Schemas["Name"]`) lose them: each shape needs a name of its own."""
    schema = (await client.get("/schema/openapi.json")).json()
    prefixed = [name for name in schema["components"]["schemas"] if "_schemas_" in name]
    assert prefixed == []


async def test_path_parameters_and_line_names_carry_the_limits_the_server_holds(client: httpx.AsyncClient) -> None:
    """The document says what the handlers enforce (issue 44): a ref is at most 64 characters, a
    Turn's number a positive int4, a line's name 100 characters (as stored)."""
    schema = (await client.get("/schema/openapi.json")).json()

    def parameter(path: str, method: str, name: str) -> dict[str, object]:
        [found] = [p for p in schema["paths"][path][method]["parameters"] if p["name"] == name]
        return found["schema"]  # type: ignore[no-any-return]

    for path, method, name in [
        ("/v4/commits/{ref}", "get", "ref"),
        ("/v5/commits/{from_ref}/diff/{to_ref}", "get", "to_ref"),
        ("/v5/commits/{ref}/restore", "post", "ref"),
    ]:
        assert parameter(path, method, name)["maxLength"] == 64, path
    turn = parameter("/v4/sessions/{session_id}/turns/{sequence_number}/context", "get", "sequence_number")
    assert (turn["type"], turn["minimum"], turn["maximum"]) == ("integer", 1, 2_147_483_647)
    assert parameter("/v4/repos/{repo_id}/branches/{name}", "get", "name")["maxLength"] == 100
    for shape in ("LineCreate", "LineUpdate"):
        assert schema["components"]["schemas"][shape]["properties"]["name"]["maxLength"] == 100, shape


def _bounded_integers(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every schema in the document that states a `maximum`, with where it is."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        if "maximum" in node:
            found.append((where, node))
        for key, value in node.items():
            found += _bounded_integers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _bounded_integers(value, f"{where}/{index}")
    return found


async def test_every_bounded_number_states_its_minimum(client: httpx.AsyncClient) -> None:
    """Litestar dropped a falsy bound (`ge=0`) from an optional field, so `history_base_seq` said
    only its maximum (issue 44 item 12): no number in the document may have a ceiling and no floor."""
    schema = (await client.get("/schema/openapi.json")).json()
    bounded = _bounded_integers(schema)
    assert bounded
    assert [where for where, node in bounded if "minimum" not in node and "exclusiveMinimum" not in node] == []
    for shape in ("ContextRequest", "SendRequest", "DraftRequest"):
        assert schema["components"]["schemas"][shape]["properties"]["history_base_seq"]["minimum"] == 0, shape


async def test_history_base_seq_is_held_to_the_minimum_the_document_states(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    checkpoint = await commit(client, space["id"])
    mount = {"session_id": session["id"], "checkpoint_id": checkpoint["id"]}
    below = await client.post("/v4/chat/context", json={**mount, "history_base_seq": -1})
    assert below.status_code == 400, below.text
    assert below.json()["errors"][0]["field"] == "history_base_seq"
    at_floor = await client.post("/v4/chat/context", json={**mount, "history_base_seq": 0})
    assert at_floor.status_code == 200, at_floor.text


async def test_anchor_is_documented_as_the_hash_the_handler_accepts(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    [anchor] = [p for p in schema["paths"]["/v4/repos/{repo_id}/verify"]["get"]["parameters"] if p["name"] == "anchor"]
    pattern = re.compile(anchor["schema"]["items"]["pattern"])
    space = await create_space(client)
    checkpoint = await commit(client, space["id"])
    written = f" {checkpoint['commit_hash'].upper()} "
    for value, status in [(written, 200), (checkpoint["commit_hash"][:63], 400), ("g" * 64, 400)]:
        assert bool(pattern.search(value)) == (status == 200), value
        answer = await client.get(f"/v4/repos/{space['id']}/verify", params={"anchor": value})
        assert answer.status_code == status, (value, answer.text)
    assert (await client.get(f"/v4/repos/{space['id']}/verify", params={"anchor": written})).json()["ok"]


async def test_error_responses_use_the_one_error_shape(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    error = schema["components"]["schemas"]["ErrorResponse"]
    assert set(error["required"]) == {"type", "title", "status", "detail"}
    assert set(error["properties"]) == {"type", "title", "status", "detail", "errors", "provider", "limit_bytes"}
    for path, item in schema["paths"].items():
        if not path.startswith(("/v1", "/v4", "/v5")):
            continue
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    ref = response["content"]["application/problem+json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorResponse"), (method, path, status)
    send = schema["paths"]["/v4/chat/send"]["post"]["responses"]
    assert {"400", "404", "409", "429", "502", "504"} <= set(send)


async def test_health_reports_the_database(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


async def test_unknown_route_and_method_use_the_error_shape(client: httpx.AsyncClient) -> None:
    missing = await client.get("/v4/nothing-here")
    assert missing.status_code == 404
    assert missing.json()["status"] == 404
    wrong = await client.put("/v4/repos", json={})
    assert wrong.status_code == 405
    assert wrong.json()["status"] == 405


async def test_body_limit(client: httpx.AsyncClient) -> None:
    big = b'{"name": "' + b"x" * 1_100_000 + b'"}'
    response = await client.post("/v4/repos", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["status"] == 413
    # Without Content-Length (chunked): see test_processes.py, the test client cannot stream bodies.


async def test_every_success_response_is_described(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    session = schema["paths"]["/v4/sessions/{session_id}"]["get"]["responses"]["200"]
    assert session["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Session"}
    assert "turn_count" in schema["components"]["schemas"]["Session"]["properties"]
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if status.startswith("2") and status != "204" and path.startswith(("/v1", "/v4", "/v5")):
                    # A bundle is ndjson (docs/bundles.md); every other success is JSON.
                    media = "application/x-ndjson" if path.endswith("/export") else "application/json"
                    described = response["content"][media]["schema"]
                    assert described, (method, path, status)


async def test_third_party_generators_read_the_document_plainly(client: httpx.AsyncClient) -> None:
    """Issue 21, item 17: what Redocly and openapi-typescript tripped on."""
    schema = (await client.get("/schema/openapi.json")).json()
    names = set(schema["components"]["schemas"])
    assert {"CheckpointPage", "SessionPage", "SpacePage", "TurnPage", "LinePage"} <= names
    assert not [name for name in names if "." in name or "_" in name]
    assert "smriti." not in (await client.get("/schema/openapi.json")).text
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "SMRITI_API_TOKEN, when the server sets one: `Authorization: Bearer <token>`.",
    }
    assert schema["security"] == [{"bearerAuth": []}, {}]
    assert schema["paths"]["/health"]["get"]["security"] == [{}]
    assert schema["info"]["license"]["identifier"] == "MIT"
    for path in ("/health", "/v4/providers"):
        assert [s for s in schema["paths"][path]["get"]["responses"] if s.startswith("4")], path

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            assert len(node.get("oneOf", [None, None])) != 1, where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(schema, "#")
    create = schema["components"]["schemas"]["SpaceCreate"]["properties"]["description"]
    assert "default" not in create  # openapi-typescript would make it required
    assert 'Default: "".' in create["description"]


def _operations(schema: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each operation by its id, with its path: found by what it is, not where it is."""
    return {
        operation["operationId"]: (path, operation)
        for path, item in schema["paths"].items()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


def _what_handlers_document_beyond_their_signatures(schema: dict[str, Any]) -> None:
    """Issue 44, item 22: what five routes document that Litestar cannot derive, which was patched
    into the document by path and is now declared on each handler."""
    operations = _operations(schema)
    _, get_checkpoint = operations["getCheckpoint"]
    (if_none_match,) = [p for p in get_checkpoint["parameters"] if p["name"] == "If-None-Match"]
    assert if_none_match["in"] == "header"
    assert if_none_match["required"] is False
    assert "304" in get_checkpoint["responses"]
    assert "content" not in get_checkpoint["responses"]["304"]
    _, export = operations["exportSpace"]
    assert export["responses"]["200"]["description"] == "The Space as a bundle, streamed."
    assert "smriti-space" in export["responses"]["200"]["content"]["application/x-ndjson"]["schema"]["description"]
    _, imported = operations["importSpace"]
    assert imported["requestBody"]["required"] is True
    assert list(imported["requestBody"]["content"]) == ["application/x-ndjson"]
    assert "application/x-ndjson" in imported["responses"]["415"]["description"]
    _, conversations = operations["importConversations"]
    assert conversations["requestBody"]["required"] is True
    body = conversations["requestBody"]["content"]
    assert list(body) == ["application/json", "application/zip", "application/x-ndjson"]
    assert body["application/zip"]["schema"]["format"] == "binary"
    assert body["application/json"]["schema"]["type"] == "array"
    _, health = operations["health"]
    assert health["security"] == [{}]


async def test_what_handlers_document_beyond_their_signatures_is_in_the_document(client: httpx.AsyncClient) -> None:
    _what_handlers_document_beyond_their_signatures((await client.get("/schema/openapi.json")).json())


def test_a_route_moved_elsewhere_keeps_its_docs() -> None:
    """The same handlers under another prefix: the docs follow the handlers, not their paths. Only
    the document is built here, so the dependencies are placeholders no request reaches."""
    dependencies = {
        name: Provide(lambda: None, sync_to_thread=False)
        for name in ("pool", "checkpoints", "bundles", "transcripts", "page", "caller")
    }
    moved = Router("/moved", route_handlers=[BundleController, CheckpointController, import_conversations, health])
    app = Litestar(
        route_handlers=[moved],
        dependencies=dependencies,
        signature_namespace={"AsyncSession": AsyncSession},  # the Spaces service provider's, resolved at start-up
    )
    refine_openapi(app)
    schema = app.openapi_schema.to_schema()
    assert {path for path, _ in _operations(schema).values()} >= {"/moved/repos/import", "/moved/health"}
    _what_handlers_document_beyond_their_signatures(schema)
