"""Exports and the clients that download them (issue 42, item 2): a download nobody reads holds no
database connection, a client that stops reading is cut off, and exports at once are bounded.

Over a real socket (the app under uvicorn in the test's loop): a client that does not read is a
socket whose receive buffer is full, which httpx's ASGI transport cannot be.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
import httpx
import pytest

from smriti.bundles import export
from smriti.core import streaming
from smriti.core.config import Settings
from tests.support.events import serving


async def _large_space(api: httpx.AsyncClient) -> str:
    """A Space of about 5 MB: more than the sockets' buffers, so a non-reader stalls the send."""
    space: str = (await api.post("/v4/repos", json={"name": "large"})).json()["id"]
    for n in range(8):
        content = base64.b64encode(os.urandom(450_000)).decode()
        made = await api.post(
            "/v4/chat/commit",
            json={"repo_id": space, "message": f"m{n}", "artifacts": [{"name": f"a{n}", "content": content}]},
        )
        assert made.status_code == 201, made.text
    return space


@contextmanager
def _non_readers(url: str, space: str, count: int) -> Iterator[list[socket.socket]]:
    """`count` downloads of the export that read nothing after asking."""
    host, port = httpx.URL(url).host, httpx.URL(url).port
    assert port is not None
    sockets = []
    try:
        for _ in range(count):
            sock = socket.create_connection((host, port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(f"GET /v5/repos/{space}/export HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            sockets.append(sock)
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


async def test_exports_nobody_reads_hold_no_database_connection(
    settings: Settings, db: asyncpg.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten stalled downloads held every pooled connection: commits, sends and HEAD answered 503
    and /health said the database was down. Now the bundle is read ahead into a file."""
    monkeypatch.setattr(export, "MAX_EXPORTS", 10)
    async with (
        serving(settings, db_pool_size=3, db_acquire_timeout_s=2.0) as served,
        httpx.AsyncClient(base_url=served.url, timeout=30) as api,
    ):
        space = await _large_space(api)
        session = (await api.post(f"/v4/repos/{space}/sessions", json={})).json()["id"]
        with _non_readers(served.url, space, 10):
            await asyncio.sleep(2)
            started = time.monotonic()
            assert (await api.get("/health")).json()["database"] == "ok"
            assert (await api.post("/v4/chat/commit", json={"repo_id": space, "message": "still"})).status_code == 201
            sent = await api.post("/v4/chat/send", json={"session_id": session, "content": "hi", "provider": "offline"})
            assert sent.status_code == 201, sent.text
            assert (await api.get(f"/v4/repos/{space}/head")).status_code == 200
            assert time.monotonic() - started < 2


async def test_a_client_that_stops_reading_is_cut_off_and_its_export_ends(
    settings: Settings, db: asyncpg.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streaming, "IDLE_SEND_S", 1.0)
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as api:
        space = await _large_space(api)
        whole = len((await api.get(f"/v5/repos/{space}/export")).content)
        with _non_readers(served.url, space, 1) as (stalled,):
            await asyncio.sleep(3)  # reads nothing for longer than the limit
            stalled.settimeout(10)
            received = 0
            while chunk := await asyncio.to_thread(stalled.recv, 65536):
                received += len(chunk)
        assert 0 < received < whole  # what was in flight, then the connection was closed
        await asyncio.sleep(0.1)
        assert export._exporting[0] == 0


async def test_exports_past_the_limit_are_refused_until_one_ends(
    settings: Settings, db: asyncpg.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "MAX_EXPORTS", 2)
    async with serving(settings) as served, httpx.AsyncClient(base_url=served.url, timeout=30) as api:
        space = await _large_space(api)
        with _non_readers(served.url, space, 2):
            await asyncio.sleep(1)
            refused = await api.get(f"/v5/repos/{space}/export")
            assert refused.status_code == 503
            assert "exports" in refused.json()["detail"]
            assert refused.headers["retry-after"]
        await asyncio.sleep(0.5)
        assert (await api.get(f"/v5/repos/{space}/export")).status_code == 200
