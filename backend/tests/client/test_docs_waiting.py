"""The Python loop docs/agents.md gives for waiting on HEAD ("Watching instead of polling"), run as
written against real server processes: it returns on a commit to the default line only, resumes
from the id it returned, and rides out a restart of the server."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from tests.support.live_server import LiveServer, free_port, live_server

pytestmark = pytest.mark.slow

DOCS = Path(__file__).resolve().parents[3] / "docs" / "agents.md"
TOKEN = "docs-waiting-token-" + uuid4().hex

WaitForHead = Callable[..., tuple[dict[str, Any], str]]


def documented_loop() -> WaitForHead:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    [source] = [block for block in blocks if "def wait_for_head(" in block]
    namespace: dict[str, Any] = {}
    exec(compile(source, str(DOCS), "exec"), namespace)
    wait: WaitForHead = namespace["wait_for_head"]
    return wait


def _env(database_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "SMRITI_API_TOKEN": TOKEN}


def _http(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)


def _space(http: httpx.Client) -> str:
    made = http.post("/v4/repos", json={"name": f"Waited on {uuid4().hex[:8]}"})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _commit(http: httpx.Client, space: str, message: str, **fields: Any) -> None:
    saved = http.post("/v4/chat/commit", json={"repo_id": space, "message": message, **fields})
    assert saved.status_code == 201, saved.text


def _last_event(http: httpx.Client, space: str, kind: str) -> str:
    """The id of the Space's last event, once it is of type `kind` (the hub numbers events within
    a second of their commit)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        items = http.get(f"/v5/repos/{space}/events", params={"limit": 200}).json()["items"]
        if items and items[-1]["type"] == kind:
            return str(items[-1]["id"])
        time.sleep(0.1)
    raise AssertionError(f"no {kind} event numbered in 10 s")


class Waiting:
    """`wait_for_head` running in a thread, as a reader's program would block on it."""

    def __init__(self, wait: WaitForHead, *args: Any, **kwargs: Any) -> None:
        self.result: tuple[dict[str, Any], str] | None = None
        self.thread = threading.Thread(target=self._run, args=(wait, args, kwargs), daemon=True)
        self.thread.start()

    def _run(self, wait: WaitForHead, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.result = wait(*args, **kwargs)

    def returned(self, within: float = 30) -> tuple[dict[str, Any], str]:
        self.thread.join(within)
        assert self.result is not None, "wait_for_head did not return"
        return self.result


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(_env(database_url), tmp_path_factory.mktemp("docs-waiting-logs")) as running:
        yield running


def test_the_documented_loop_returns_when_head_moves_and_resumes_from_its_id(server: LiveServer) -> None:
    wait = documented_loop()
    with _http(server.url) as http:
        space = _space(http)
        _commit(http, space, "First")
        assert http.post(f"/v4/repos/{space}/branches", json={"name": "side"}).status_code == 201
        # From the last event before ours, so the loop need not connect before the commits come.
        waiting = Waiting(wait, server.url, space, TOKEN, after=_last_event(http, space, "line.created"))
        _commit(http, space, "On the side", branch="side")
        _commit(http, space, "Second")
        event, after = waiting.returned()
        assert event["data"]["message"] == "Second"
        assert after == str(event["id"])

        # Made while nobody waited: replayed from the id returned.
        _commit(http, space, "Third")
        again, _ = Waiting(wait, server.url, space, TOKEN, after=after).returned()
        assert again["data"]["message"] == "Third"


def test_the_documented_loop_rides_out_a_restarted_server(database_url: str, tmp_path: Path) -> None:
    wait = documented_loop()
    port = free_port()
    with live_server(_env(database_url), tmp_path, port=port) as first:
        with _http(first.url) as http:
            space = _space(http)
            waiting = Waiting(wait, first.url, space, TOKEN, after=_last_event(http, space, "space.created"))
        first.stop()
    # Written through another process while nothing answers at the address the loop reads.
    with live_server(_env(database_url), tmp_path) as elsewhere, _http(elsewhere.url) as http:
        _commit(http, space, "While the server was away")
    with live_server(_env(database_url), tmp_path, port=port):
        event, _ = waiting.returned()
    assert event["data"]["message"] == "While the server was away"
