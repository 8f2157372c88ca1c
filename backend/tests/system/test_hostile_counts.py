"""Counting megabytes of tokens with a model's tokenizer holds up neither other work nor a stop
(issue 42, item 1), in a real `smriti serve`."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow

# OpenAI configured, so gpt-4o's context is counted with o200k_base; nothing calls the provider.
ENV = {
    "OPENAI_API_KEY": "sk-test-openai-key-0123456789abcdef",
    "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
    "ANTHROPIC_API_KEY": "",
    "ANTHROPIC_BASE_URL": "",
}
RUNS = ["-" * 900_000, "ACGT" * 225_000, "x" * 900_000]


async def _timed(call: Any) -> tuple[int, float]:
    started = time.monotonic()
    response = await call
    return response.status_code, time.monotonic() - started


async def test_megabyte_counts_hold_up_no_one_else_and_not_the_stop(database_url: str, tmp_path: Path) -> None:
    env = {**ENV, "DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused")}
    with live_server(env, tmp_path, server="uvicorn") as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            space = (await client.post("/v4/repos", json={"name": "runs"})).json()["id"]
            long_session = (await client.post(f"/v4/repos/{space}/sessions", json={})).json()["id"]
            other_session = (await client.post(f"/v4/repos/{space}/sessions", json={})).json()["id"]
            for run in RUNS:  # a history of unbroken runs: each preview counts megabytes of them
                sent = await client.post(
                    "/v4/chat/send", json={"session_id": long_session, "content": run, "provider": "offline"}
                )
                assert sent.status_code == 201, sent.text
            await client.post(
                "/v4/chat/send", json={"session_id": other_session, "content": "Plan the trip.", "provider": "offline"}
            )

            preview = {"session_id": long_session, "content": "-" * 900_000, "provider": "openai", "model": "gpt-4o"}
            counts = [asyncio.create_task(client.post("/v4/chat/context", json=preview)) for _ in range(3)]
            await asyncio.sleep(1)
            assert not any(task.done() for task in counts), "the counts should take a while on this machine"

            # Everyone else is answered meanwhile: health, a draft, an ordinary preview of the same model.
            health, draft, small = await asyncio.gather(
                _timed(client.get("/health")),
                _timed(client.post("/v5/checkpoints/draft", json={"session_id": other_session, "provider": "offline"})),
                _timed(
                    client.post(
                        "/v4/chat/context",
                        json={"session_id": other_session, "content": "hi", "provider": "openai", "model": "gpt-4o"},
                    )
                ),
            )
            assert [health[0], draft[0], small[0]] == [200, 200, 200]
            assert max(health[1], draft[1], small[1]) < 10, (health, draft, small)

            # A stop does not wait for the counts: they end with a 503 or the connection, and it exits.
            stopping = time.monotonic()
            assert server.stop(signal.SIGTERM, timeout=30) == 0
            assert time.monotonic() - stopping < 15
            for task in counts:
                try:
                    answer = await task
                except httpx.HTTPError:
                    continue  # the connection went with the server
                assert answer.status_code in {200, 503}, answer.text
