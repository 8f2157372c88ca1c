"""`smriti watch` against real server processes: each event as it comes, readable or as JSON,
resumable with --after, and rejoined after the server restarts with nothing lost or repeated."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest

from smriti.access.caller import Agent
from smriti.db.pool import Pool
from smriti.events.record import record
from tests.events.support import events_pool, number_all, write_events
from tests.support.cli import smriti
from tests.support.live_server import free_port, live_server

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("db")]
pool = events_pool


class Watching:
    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def take(self, count: int, timeout: float = 15) -> list[str]:
        try:
            return [self.lines.get(timeout=timeout) for _ in range(count)]
        except queue.Empty:
            self.process.terminate()
            assert self.process.stderr is not None
            raise AssertionError(f"smriti watch printed too little; stderr: {self.process.stderr.read()}") from None

    def quiet(self, seconds: float) -> bool:
        try:
            extra = self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected output: {extra}")


@contextmanager
def watching(url: str, *args: str) -> Iterator[Watching]:
    env = {k: v for k, v in os.environ.items() if k not in {"SMRITI_URL", "SMRITI_API_TOKEN"}}
    with subprocess.Popen(
        [sys.executable, "-m", "smriti", "watch", *args, "--url", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as process:
        try:
            yield Watching(process)
        finally:
            process.terminate()
            process.wait(10)


def _env(database_url: str, tmp_path: Path) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused"), "SMRITI_API_TOKEN": ""}


def _space(url: str) -> uuid.UUID:
    made = httpx.post(f"{url}/v4/repos", json={"name": f"watched-{uuid.uuid4().hex[:6]}"})
    assert made.status_code == 201, made.text
    return uuid.UUID(made.json()["id"])


async def _numbered(pool: Pool, space: uuid.UUID) -> int:
    """The id of the Space's own `space.created`, once the server's hub has numbered it."""
    async with asyncio.timeout(5):
        # The database, polled: it signals nothing.
        while (found := await pool.fetchval("SELECT max(id) FROM events WHERE repo_id = $1", space)) is None:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
    return int(found)


async def test_watch_prints_each_event_and_rejoins_a_restarted_server_losing_nothing(
    database_url: str, tmp_path: Path, pool: Pool
) -> None:
    port = free_port()
    env = _env(database_url, tmp_path)
    with live_server(env, tmp_path, port=port, server="uvicorn") as server:
        space = _space(server.url)
        base = await _numbered(pool, space)
        # From the Space's own first event on: the watch may connect after the first of ours.
        with watching(server.url, str(space), "--json", "--after", str(base)) as watch:
            await write_events(pool, space, 2, number=False)
            first = [json.loads(line) for line in watch.take(2)]
            server.stop()
            await write_events(pool, space, 3)  # while no server runs
            with live_server(env, tmp_path, port=port, server="uvicorn"):
                await write_events(pool, space, 1, number=False)
                rest = [json.loads(line) for line in watch.take(4, timeout=30)]
                assert watch.quiet(1)
    ids = [event["id"] for event in first + rest]
    assert ids == list(range(ids[0], ids[0] + 6))
    assert [event["data"]["n"] for event in first + rest] == [0, 1, 0, 1, 2, 0]
    assert {event["repo_id"] for event in first + rest} == {str(space)}


async def test_watch_shows_who_did_what_and_resumes_after_an_id(database_url: str, tmp_path: Path, pool: Pool) -> None:
    with live_server(_env(database_url, tmp_path), tmp_path) as server:
        space = _space(server.url)
        planner = Agent(id=uuid.uuid4(), name="planner", spaces=None, write=True)
        async with pool.acquire() as conn, conn.transaction():
            await record(conn, space, "line.created", {"name": "planner", "head_commit_id": None}, agent=planner)
            await record(
                conn,
                space,
                "checkpoint.created",
                {"commit_id": str(uuid.uuid4()), "branch": "planner", "message": "Pick Baixa\n\nwhy: the view"},
                agent=planner,
            )
            await record(conn, space, "line.updated", {"name": "main", "protected": True}, agent=None)
        await number_all(pool)
        first_id = await pool.fetchval("SELECT min(id) FROM events WHERE type = 'line.created' AND repo_id = $1", space)
        with watching(server.url, "--after", str(first_id)) as watch:
            lines = watch.take(2)
        assert lines == [
            f"{first_id + 1}  checkpoint.created  agent planner  Pick Baixa on planner",
            f"{first_id + 2}  line.updated  person  main (protected)",
        ]


def test_watch_of_a_space_that_is_not_there_says_so(database_url: str, tmp_path: Path, db: asyncpg.Connection) -> None:
    with live_server(_env(database_url, tmp_path), tmp_path) as server:
        run = smriti("watch", str(uuid.uuid4()), url=server.url, timeout=30)
        gone = smriti("watch", "--after", "5", url=server.url, timeout=30)
    assert run.code == 3
    assert "No Space" in run.error_line()
    assert gone.code == 2  # no event has id 5 yet: trying again would not help
    assert "after" in gone.error_line() or "Last-Event-ID" in gone.error_line()
