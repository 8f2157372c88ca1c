"""HEAD through a real HTTP server, not only in process (SYSTEM.md §11; issue 21, item 15).

In process (httpx's ASGI transport) a HEAD answered as the path's GET looked right, but uvicorn
reads the request's scope to know no body follows: with the scope saying GET it waited for the
GET's `Content-Length` bytes and failed every HEAD ("Response content shorter than
Content-Length"). Both servers `smriti serve` can run are tried.
"""

from __future__ import annotations

from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
async def test_head_answers_like_get_without_a_body(
    server: str, database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {"DATABASE_URL": database_url, "OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""}
    with live_server(env, tmp_path, server=server) as running:
        async with httpx.AsyncClient(base_url=running.url) as client:
            space = (await client.post("/v4/repos", json={"name": "Head"})).json()
            for path in ("/health", "/v4/repos", f"/v4/repos/{space['id']}", "/schema", "/schema/openapi.json"):
                got = await client.get(path)
                for _ in range(2):  # the connection survives the first HEAD
                    head = await client.head(path)
                    assert head.status_code == got.status_code == 200, (path, head.status_code)
                    assert head.content == b""
                    assert head.headers["content-length"] == got.headers["content-length"], path
            assert (await client.head(f"/v4/repos/{space['id']}/nothing")).status_code == 404
        log = running.log()
    assert "Traceback" not in log, log
