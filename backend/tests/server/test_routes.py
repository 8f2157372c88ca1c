"""Every route of the built app is guarded by the API token, except the few meant to be open.

This walks the app's own route table, so a route added anywhere (a domain's `routes.py`, a new
router in `smriti.server.app`) is covered without this test naming it.
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from pathlib import Path
from typing import Any, cast

import asyncpg
import httpx
from litestar.routes import ASGIRoute, HTTPRoute

from smriti.core.config import Settings
from smriti.server.app import create_app
from tests.conftest import running

TOKEN = "tok-" + uuid.uuid4().hex
# Open on purpose: liveness (status words only), the API's description, the web app's files.
OPEN = re.compile(r"^/(health|schema(/.*)?|\{path:path\})?$")
_PARAM = re.compile(r"\{(\w+):(\w+)\}")
_VALUES = {"uuid": str(uuid.uuid4()), "str": "x", "path": "x", "int": "1"}


def _concrete(path: str) -> str:
    return _PARAM.sub(lambda m: _VALUES[m.group(2)], path)


async def test_every_route_is_guarded_by_the_token(settings: Settings, db: asyncpg.Connection, tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Smriti</title>")
    app = create_app(dataclasses.replace(settings, api_token=TOKEN, web_dir=web))
    transport = httpx.ASGITransport(app=cast("Any", app))
    checked: list[tuple[str, str]] = []
    async with running(app), httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        for route in app.routes:
            if OPEN.match(route.path):
                continue
            assert isinstance(route, HTTPRoute | ASGIRoute), route.path  # a new kind of route: guard it, then list it
            methods = sorted(route.methods - {"OPTIONS", "HEAD"}) if isinstance(route, HTTPRoute) else ["GET", "POST"]
            for method in methods:
                path = _concrete(route.path)
                for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
                    response = await client.request(method, path, headers=headers, json={})
                    assert response.status_code == 401, (method, route.path, headers, response.text)
                    assert response.json()["status"] == 401
                    assert response.headers["www-authenticate"].startswith("Bearer")
                checked.append((method, route.path))
        # The walk really covered the API: every version and the MCP endpoint.
        prefixes = {path.split("/")[1] for _, path in checked}
        assert {"v1", "v4", "v5", "mcp"} <= prefixes
        assert len(checked) >= 30, checked
        authorised = {"Authorization": f"Bearer {TOKEN}"}
        assert (await client.get("/v4/repos", headers=authorised)).status_code == 200
        # An unknown path under a router is the API's JSON 404, never the web app's page.
        for unknown in ("/v4/no-such-thing", "/v5/x", "/v1/x"):
            missing = await client.get(unknown, headers=authorised)
            assert missing.headers["content-type"].startswith("application/problem+json"), unknown
        assert (await client.get("/health")).json() == {"status": "ok", "database": "ok"}
        assert (await client.get("/schema/openapi.json")).status_code == 200
        assert "<title>Smriti</title>" in (await client.get("/spaces/x")).text
