"""The built web app is served at / with history-API fallback; API paths never fall back."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from smriti.core.config import Settings
from smriti.server.webapp import DEFAULT_WEB_DIR
from tests.conftest import make_client


async def test_web_app_with_history_fallback(settings: Settings, db: asyncpg.Connection, tmp_path: Path) -> None:
    web = tmp_path / "dist"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>Smriti</title>")
    (web / "assets" / "app-1234.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("outside")
    async with make_client(settings, web_dir=web) as client:
        for path in ("/", "/spaces/123/sessions/456"):
            page = await client.get(path)
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/html")
            assert "<title>Smriti</title>" in page.text
            assert page.headers["cache-control"] == "no-cache"
        asset = await client.get("/assets/app-1234.js")
        assert asset.text == "console.log(1)"
        assert "immutable" in asset.headers["cache-control"]
        escaped = await client.get("/assets/%2e%2e/%2e%2e/secret.txt")
        assert "outside" not in escaped.text
        for api in ("/v4/nothing", "/v5/nothing", "/health/x"):
            missing = await client.get(api)
            assert missing.status_code == 404
            assert missing.json()["status"] == 404
        assert (await client.get("/v4/repos")).status_code == 200
        # Not a path at all: a NUL (a 500 before), a name longer than the file system takes.
        for odd in ("/%00", "/spaces/%00x", "/assets/a%00.js", "/" + "a" * 5000, "/assets/" + "b/" * 3000):
            page = await client.get(odd)
            assert page.status_code == 200, (odd[:40], page.status_code)
            assert "<title>Smriti</title>" in page.text


async def test_without_a_build_the_root_says_so(settings: Settings, db: asyncpg.Connection, tmp_path: Path) -> None:
    async with make_client(settings, web_dir=tmp_path / "missing") as client:
        response = await client.get("/")
        assert response.status_code == 200
        assert "/schema" in response.text


def test_the_default_web_dir_is_the_checkouts_build() -> None:
    # `make run` builds frontend/dist and serves it from there: the path must follow the module
    # wherever it lives in the package (a move one folder down once served "not built").
    repository = Path(__file__).resolve().parents[3]
    assert (repository / "frontend" / "package.json").is_file()
    assert repository / "frontend" / "dist" == DEFAULT_WEB_DIR
