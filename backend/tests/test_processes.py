"""Real `smriti serve` processes: sequence numbers across processes, and data across restarts."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


def _post(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json=body)


async def test_concurrent_sends_through_two_processes_are_gapless(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused")}
    with live_server(env, tmp_path) as first, live_server(env, tmp_path) as second:
        async with httpx.AsyncClient(timeout=60) as client:
            space = (await client.post(f"{first.url}/v4/repos", json={"name": "race"})).json()
            sessions = [
                (await client.post(f"{first.url}/v4/repos/{space['id']}/sessions", json={})).json() for _ in range(3)
            ]
            one, two, three = (s["id"] for s in sessions)
            servers = [first.url, second.url]
            # 64 sends to one Session, plus two more Sessions interleaved with 16 each.
            jobs = [(one, f"one-{i}") for i in range(64)]
            jobs += [(two, f"two-{i}") for i in range(16)] + [(three, f"three-{i}") for i in range(16)]
            responses = await asyncio.gather(
                *(
                    client.post(f"{servers[i % 2]}/v4/chat/send", json={"session_id": session, "content": content})
                    for i, (session, content) in enumerate(jobs)
                )
            )
    assert [r.status_code for r in responses] == [201] * len(jobs), {r.text for r in responses if r.status_code != 201}
    for session_id, count in ((one, 64), (two, 16), (three, 16)):
        rows = await db.fetch(
            "SELECT sequence_number, role, content FROM turns WHERE session_id = $1 ORDER BY sequence_number",
            __import__("uuid").UUID(session_id),
        )
        assert [r["sequence_number"] for r in rows] == list(range(1, 2 * count + 1))
        for user, assistant in zip(rows[0::2], rows[1::2], strict=True):
            assert (user["role"], assistant["role"]) == ("user", "assistant")
            quoted = re.search(r"Your message: «(.*)»", assistant["content"])
            assert quoted is not None
            assert quoted.group(1) == user["content"]
        last_seq = await db.fetchval("SELECT last_seq FROM sessions WHERE id = $1", __import__("uuid").UUID(session_id))
        assert last_seq == 2 * count


async def test_data_survives_a_restart_of_app_and_embedded_database(tmp_path: Path) -> None:
    data_dir = tmp_path / "smriti-data"
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir)}
    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            space = (await client.post("/v4/repos", json={"name": "durable"})).json()
            session = (await client.post(f"/v4/repos/{space['id']}/sessions", json={"title": "s"})).json()
            sent = (
                await client.post("/v4/chat/send", json={"session_id": session["id"], "content": "remember"})
            ).json()
            saved = (await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "kept"})).json()
        assert server.stop(signal.SIGTERM) == 0
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    assert not pid_file.exists(), "the embedded PostgreSQL should stop with the app"

    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            assert (await client.get(f"/v4/repos/{space['id']}/head")).json() == saved
            turns = (await client.get(f"/v4/sessions/{session['id']}/turns")).json()["items"]
            assert turns == [sent["user_turn"], sent["assistant_turn"]]
            assert (await client.get(f"/v4/repos/{space['id']}/verify")).json()["ok"] is True


async def test_body_limit_holds_for_chunked_and_announced_bodies(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_MAX_BODY_BYTES": "65536"}

    async def chunks() -> Any:
        yield b'{"name": "'
        for _ in range(20):
            yield b"x" * 10_000
        yield b'"}'

    with live_server(env, tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            small = await client.post("/v4/repos", json={"name": "fits"})
            assert small.status_code == 201
            response = await client.post("/v4/repos", content=chunks(), headers={"content-type": "application/json"})
            assert "content-length" not in response.request.headers
            assert response.status_code == 413
            assert response.json()["status_code"] == 413
            # Announced too large: refused before the body is read, and the client still reads why.
            announced = await client.post("/v4/repos", json={"name": "y" * 400_000})
            assert announced.status_code == 413
            assert announced.json()["status_code"] == 413
    assert await db.fetchval("SELECT count(*) FROM repos") == 1
