"""Protections: the bearer token, CORS, allowed hosts, and secrets that never leak."""

from __future__ import annotations

import uuid
from pathlib import Path

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import ANTHROPIC_TEST_KEY, OPENAI_TEST_KEY, make_client
from tests.support.api import create_session, create_space
from tests.support.fake_providers import FakeProviderServer

TOKEN = "tok-" + uuid.uuid4().hex


async def test_token_guards_every_api_route(settings: Settings, db: asyncpg.Connection, tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Smriti</title>")
    async with make_client(settings, api_token=TOKEN, web_dir=web) as client:
        some_id = str(uuid.uuid4())
        routes = [
            ("GET", "/v4/repos"),
            ("POST", "/v4/repos"),
            ("GET", f"/v4/repos/{some_id}/head"),
            ("GET", f"/v4/commits/{some_id}"),
            ("POST", "/v4/chat/commit"),
            ("POST", "/v4/chat/send"),
            ("POST", "/v4/chat/context"),
            ("GET", "/v4/providers"),
            ("POST", "/v5/checkpoints/draft"),
            ("GET", f"/v5/commits/{some_id}/diff/{some_id}"),
            ("POST", "/v1/transcripts"),
            ("POST", "/mcp"),
            ("GET", "/mcp"),
        ]
        for method, path in routes:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
                response = await client.request(method, path, headers=headers, json={})
                assert response.status_code == 401, (method, path, headers, response.text)
                assert response.json()["status"] == 401
                assert response.headers["www-authenticate"].startswith("Bearer")
        authorised = {"Authorization": f"Bearer {TOKEN}"}
        created = await client.post("/v4/repos", json={"name": "guarded"}, headers=authorised)
        assert created.status_code == 201
        assert (await client.get("/v4/repos", headers=authorised)).json()["total"] == 1
        # Open: liveness (status words only), the API description, the web app shell.
        assert (await client.get("/health")).json() == {"status": "ok", "database": "ok"}
        assert (await client.get("/schema/openapi.json")).status_code == 200
        assert "<title>Smriti</title>" in (await client.get("/spaces/x")).text


async def test_cors_is_same_origin_unless_configured(settings: Settings, db: asyncpg.Connection) -> None:
    preflight = {"Origin": "http://evil.test", "Access-Control-Request-Method": "POST"}
    async with make_client(settings) as client:
        response = await client.get("/v4/repos", headers={"Origin": "http://evil.test"})
        assert "access-control-allow-origin" not in response.headers
        options = await client.options("/v4/repos", headers=preflight)
        assert "access-control-allow-origin" not in options.headers
    async with make_client(settings, cors_origins=("http://app.test",)) as client:
        allowed = await client.get("/v4/repos", headers={"Origin": "http://app.test"})
        assert allowed.headers["access-control-allow-origin"] == "http://app.test"
        denied = await client.get("/v4/repos", headers={"Origin": "http://evil.test"})
        assert denied.headers.get("access-control-allow-origin") != "http://evil.test"
        # The hot routes send pre-encoded JSON past Litestar's Response; CORS still applies.
        space = (await client.post("/v4/repos", json={"name": "cors"})).json()
        commit = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "m"})
        assert commit.status_code == 201
        assert commit.headers["content-type"] == "application/json"
        head = await client.get(f"/v4/repos/{space['id']}/head", headers={"Origin": "http://app.test"})
        assert head.headers["access-control-allow-origin"] == "http://app.test"
        assert head.json()["id"] == commit.json()["id"]


async def test_allowed_hosts(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, allowed_hosts=("localhost",)) as client:
        assert (await client.get("/v4/repos")).status_code == 200
        other = await client.get("/v4/repos", headers={"Host": "evil.test"})
        assert other.status_code == 400


async def test_provider_settings_cannot_come_from_a_request(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    for field, value in (("base_url", "http://attacker.test/v1"), ("api_key", "sk-mine"), ("timeout", 999)):
        body = {"session_id": session["id"], "content": "hi", field: value}
        response = await client.post("/v4/chat/send", json=body)
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == field


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_secrets_never_reach_a_response_or_a_log_line(
    provider: str,
    settings: Settings,
    fake_providers: FakeProviderServer,
    db: asyncpg.Connection,
    capfd: pytest.CaptureFixture[str],
) -> None:
    secrets = (OPENAI_TEST_KEY, ANTHROPIC_TEST_KEY, TOKEN)
    seen: list[str] = []
    authorised = {"Authorization": f"Bearer {TOKEN}"}
    async with make_client(settings, api_token=TOKEN, log_level="DEBUG") as client:
        space = (await client.post("/v4/repos", json={"name": f"s-{provider}"}, headers=authorised)).json()
        session = (await client.post(f"/v4/repos/{space['id']}/sessions", json={}, headers=authorised)).json()
        fake_providers.state.mode = "echo_key"
        for path, body in (
            ("/v4/chat/send", {"session_id": session["id"], "content": "hi", "provider": provider}),
            ("/v5/checkpoints/draft", {"session_id": session["id"], "provider": provider}),
        ):
            response = await client.post(path, json=body, headers=authorised)
            seen.append(response.text + str(response.headers))
        # The upstream really did echo the key: the redaction is what keeps it out.
        assert "Incorrect API key provided" in seen[0]
        assert "[redacted]" in seen[0]
        fake_providers.state.mode = "ok"
        for method, path in (("GET", "/v4/providers"), ("GET", "/health"), ("GET", "/schema/openapi.json")):
            response = await client.request(method, path, headers=authorised)
            seen.append(response.text + str(response.headers))
        seen.append((await client.get("/v4/repos", headers={"Authorization": "Bearer nope"})).text)
    logged = capfd.readouterr()
    for secret in secrets:
        for text in seen:
            assert secret not in text
        assert secret not in logged.out
        assert secret not in logged.err
