"""The API docs (`/schema`) work without the internet: the page names no other host, and every
script, style and icon it loads is served by the app itself, with the token set or not."""

from __future__ import annotations

import re
import uuid
from urllib.parse import urlsplit

import asyncpg
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client

BASE_URL = "http://localhost"
_URL = re.compile(r"""https?://[^\s"'<>`)\\]+""")
_LOADED = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
# What each kind of file must be answered as, and at least how big it is (Swagger UI's bundle
# is over a megabyte; an error page or an empty file is not the UI).
_EXPECTED = {
    ".js": ({"text/javascript", "application/javascript"}, 100_000),
    ".css": ({"text/css"}, 50_000),
    ".png": ({"image/png"}, 200),
}


@pytest.mark.parametrize("page_path", ["/schema", "/schema/swagger"])
@pytest.mark.parametrize("token", [None, "tok-" + uuid.uuid4().hex], ids=["open", "token"])
async def test_the_docs_page_loads_nothing_from_another_host(
    settings: Settings, db: asyncpg.Connection, page_path: str, token: str | None
) -> None:
    async with make_client(settings, base_url=BASE_URL, api_token=token) as client:
        # Like the schema, the docs page and its files stay open with a token set (guard.py).
        page = await client.get(page_path)
        assert page.status_code == 200, page.text
        assert page.headers["content-type"].startswith("text/html")
        html = page.text
        assert "SwaggerUIBundle(" in html

        foreign = sorted({url for url in _URL.findall(html) if urlsplit(url).hostname != "localhost"})
        assert foreign == [], foreign

        loaded = _LOADED.findall(html)
        kinds = {url.rsplit(".", 1)[-1] for url in loaded}
        assert {"js", "css", "png"} <= kinds, loaded
        for url in loaded:
            assert url.startswith("/"), url  # this app's own path, never another host
            asset = await client.get(url)
            assert asset.status_code == 200, (url, asset.status_code)
            media_types, least = _EXPECTED["." + url.rsplit(".", 1)[-1]]
            assert asset.headers["content-type"].split(";")[0] in media_types, (url, asset.headers)
            assert len(asset.content) >= least, (url, len(asset.content))
            # Versioned by the package in the URL: cached for good.
            assert "immutable" in asset.headers["cache-control"], (url, asset.headers)

        # Only the page's own files: not the rest of the package, nor anything outside it.
        folder = loaded[0].rsplit("/", 1)[0]
        for other in ("swagger-editor-bundle.js", "index.html", "..%2f__init__.py", "%2e%2e/core.py"):
            assert (await client.get(f"{folder}/{other}")).status_code == 404, other
