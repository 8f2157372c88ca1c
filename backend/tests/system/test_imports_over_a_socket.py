"""An import whose Content-Length is past SMRITI_MAX_IMPORT_BYTES is answered 413 at once, through a
real HTTP server (issue 42, item 15).

Both imports read their body as it arrives, past the request limit; they counted bytes as they
came, so a client announcing 300 MB was read up to the limit (256 MiB by default) before the 413.
Here the client announces more than the limit and sends nothing: the answer must come without
the body. Both servers `smriti serve` can run are tried.
"""

from __future__ import annotations

import socket
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow

LIMIT = 4096


def _announce(url: str, path: str, content_type: str, length: int) -> bytes:
    """Send a request's head announcing `length` bytes and none of them; what comes back in 10 s."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {length}\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            try:
                piece = sock.recv(4096)
            except TimeoutError:
                break  # the server is waiting for the body
            if not piece:
                break
            answer += piece
    return answer


@pytest.mark.parametrize("server", ["uvicorn", "granian"])
async def test_an_import_announced_past_the_limit_is_refused_before_its_body(
    server: str, database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": database_url,
        "OPENAI_API_KEY": "",
        "ANTHROPIC_API_KEY": "",
        "SMRITI_MAX_IMPORT_BYTES": str(LIMIT),
    }
    with live_server(env, tmp_path, server=server) as running:
        async with httpx.AsyncClient(base_url=running.url) as client:
            space_id = (await client.post("/v4/repos", json={"name": "Over"})).json()["id"]
        for path, content_type in (
            ("/v5/repos/import", "application/x-ndjson"),
            (f"/v5/repos/{space_id}/import/conversations", "application/json"),
        ):
            for length in (LIMIT + 1, 300 * 2**20):
                answer = _announce(running.url, path, content_type, length)
                assert answer.startswith(b"HTTP/1.1 413"), (path, length, answer[:200])
        log = running.log()
    assert "Traceback" not in log, log
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0
