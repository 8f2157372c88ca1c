"""The context window (SYSTEM.md §9): known per model, overridable, shown next to the context's
tokens, a send that would overflow refused before the provider is called (nothing stored), and
a Checkpoint recommended at 75%."""

from __future__ import annotations

import asyncpg
import pytest

from smriti.core.config import ConfigError, Settings, parse_context_windows
from smriti.providers.windows import KNOWN_CONTEXT_WINDOWS
from tests.conftest import make_client
from tests.support.api import create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer


def test_the_default_models_have_known_windows() -> None:
    defaults = Settings.from_env({})
    for model in (*defaults.openai.models, *defaults.anthropic.models):
        assert KNOWN_CONTEXT_WINDOWS.get(model, 0) > 0, model


def test_smriti_context_windows_is_parsed_strictly() -> None:
    assert parse_context_windows(" gpt-test = 8000, local=4096 ,") == {"gpt-test": 8000, "local": 4096}
    assert Settings.from_env({"SMRITI_CONTEXT_WINDOWS": "gpt-5=1000"}).context_windows == {"gpt-5": 1000}
    for bad, named in (("gpt-test", "'gpt-test'"), ("=5", "'=5'"), ("m=lots", "'lots'"), ("m=0", "'m'")):
        with pytest.raises(ConfigError, match=named):
            parse_context_windows(bad)


async def test_providers_and_the_context_preview_carry_the_window(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, context_windows={"gpt-test": 8000}) as client:
        listed = (await client.get("/v4/providers")).json()["items"]
        windows = {item["name"]: item["context_windows"] for item in listed}
        assert windows["openai"] == {"gpt-test": 8000}
        assert windows["offline"] == {}  # unknown: nothing is refused for it
        space = await create_space(client)
        session = await create_session(client, space["id"])
        for provider, window in (("openai", 8000), ("offline", None)):
            body = {"session_id": session["id"], "provider": provider}
            preview = (await client.post("/v4/chat/context", json=body)).json()
            assert preview["context_window"] == window


async def test_every_configured_window_is_listed_whether_or_not_the_provider_lists_the_model(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """Issue 44: `SMRITI_CONTEXT_WINDOWS` entries for models the provider does not list were left
    out of `context_windows`, though sends to those models use them (SYSTEM.md §9: it "adds or
    overrides")."""
    fake_providers.state.listed_models = ["gpt-test", "qwen-local"]
    windows = {"gpt-test": 8000, "qwen-local": 32_768, "unlisted-model": 4096, "gpt-4o": 64_000}
    async with make_client(settings, context_windows=windows) as client:
        listed = {item["name"]: item for item in (await client.get("/v4/providers")).json()["items"]}
        assert listed["openai"]["context_windows"] == windows
        assert listed["anthropic"]["context_windows"] == windows
        assert listed["offline"]["context_windows"] == {}  # its one model has none
        # And the unlisted entry is the window a send to that model is checked against.
        space = await create_space(client)
        session = await create_session(client, space["id"])
        body = {"session_id": session["id"], "provider": "openai", "model": "unlisted-model"}
        assert (await client.post("/v4/chat/context", json=body)).json()["context_window"] == 4096


async def test_a_send_that_would_overflow_is_refused_before_the_provider_is_called(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, context_windows={"gpt-test": 8000}) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        # 7,000 tokens (estimated) + 1,024 for the reply > 8,000.
        body = {"session_id": session["id"], "provider": "openai", "content": "x" * 28_000}
        response = await client.post("/v4/chat/send", json=body)
        assert response.status_code == 400, response.text
        problem = response.json()
        assert problem["errors"][0]["field"] == "content"
        assert "context window" in problem["detail"]
        assert "24 over its 8,000" in problem["detail"]
        assert "Save a Checkpoint" in problem["detail"]
        assert fake_providers.state.requests == []
        assert await db.fetchval("SELECT count(*) FROM turns") == 0
        # One that fits is answered.
        body["content"] = "x" * 27_800
        assert (await client.post("/v4/chat/send", json=body)).status_code == 201


async def test_at_three_quarters_of_the_window_a_checkpoint_is_recommended(
    settings: Settings, db: asyncpg.Connection
) -> None:
    async with make_client(settings, context_windows={"gpt-test": 8000}) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        quiet = await send(client, session["id"], "short", provider="openai")
        assert quiet["suggestion"] == {"checkpoint_recommended": False, "reason": None}
        full = await send(client, session["id"], "y" * 24_000, provider="openai")  # ~6,000 tokens
        assert full["suggestion"]["checkpoint_recommended"] is True
        assert "about 75% of the model's window (6,0" in full["suggestion"]["reason"]
        assert "save a Checkpoint" in full["suggestion"]["reason"]


async def test_a_draft_that_would_overflow_is_refused_before_the_provider_is_called(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """Drafting sends the Turns in scope whole: past the window it is refused, naming the boundary
    that would narrow it, and a draft from a later boundary goes through."""
    async with make_client(settings, context_windows={"gpt-test": 8000}) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        for _ in range(2):  # ~3,500 tokens a message, stored by the offline provider (no window)
            await send(client, session["id"], "z" * 14_000)
        fake_providers.state.requests.clear()
        whole = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"], "provider": "openai"})
        assert whole.status_code == 400, whole.text
        problem = whole.json()
        assert problem["errors"][0]["field"] == "history_base_seq"
        assert problem["detail"].startswith("Drafting from these Turns would not fit gpt-test's context window")
        assert fake_providers.state.requests == []
        fake_providers.state.reply = '{"message": "m", "summary": "s", "decisions": [], "assumptions": [], ' + (
            '"tasks": [], "open_questions": [], "entities": []}'
        )
        later = {"session_id": session["id"], "provider": "openai", "history_base_seq": 2}
        assert (await client.post("/v5/checkpoints/draft", json=later)).status_code == 200


async def test_a_model_review_that_would_overflow_is_refused_before_the_provider_is_called(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    async with make_client(settings, context_windows={"gpt-test": 2000}) as client:
        space = await create_space(client)
        body = {"repo_id": space["id"], "message": "big", "summary": "w " * 4_000}
        saved = (await client.post("/v4/chat/commit", json=body)).json()
        fake_providers.state.requests.clear()
        response = await client.post(f"/v5/commits/{saved['id']}/review", json={"provider": "openai"})
        assert response.status_code == 400, response.text
        problem = response.json()
        assert problem["errors"][0]["field"] == "model"
        assert problem["detail"].startswith("Reviewing this Checkpoint would not fit gpt-test's context window")
        assert fake_providers.state.requests == []


async def test_an_openai_models_context_is_counted_with_its_tokenizer(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """The preview counts with the model's own tokenizer where Smriti has one offline, and says so;
    another model's counts stay the estimate, and say that."""
    async with make_client(settings) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        await send(client, session["id"], "We decided to use PostgreSQL for the storage layer.")
        body = {"session_id": session["id"], "content": "漢字かなカナ한국어", "provider": "openai", "model": "gpt-4o"}
        counted = (await client.post("/v4/chat/context", json=body)).json()
        assert counted["tokenizer"] == "o200k_base"
        assert "o200k_base" in counted["token_estimate"]
        sections = {s["name"]: s["tokens"] for s in counted["sections"]}
        assert sections["message"] == 7  # the estimate would say 3
        history = [m["content"] for m in counted["messages"][:-1]]
        assert history[0] == "We decided to use PostgreSQL for the storage layer."
        # The question, counted: the offline reply is not sent to another provider (nor counted).
        assert sections["history"] == 11
        assert counted["left_out"]["sequence_numbers"] == [2]
        assert counted["total_tokens"] == sum(sections.values())
        estimated = (await client.post("/v4/chat/context", json={**body, "provider": "anthropic"})).json()
        assert estimated["tokenizer"] is None
        assert estimated["token_estimate"] == "about 4 characters per token"
        assert {s["name"]: s["tokens"] for s in estimated["sections"]}["message"] == 3


async def test_a_send_is_held_to_the_window_by_its_real_count_where_there_is_a_tokenizer(
    settings: Settings, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    """1,600 rare CJK characters are ~400 tokens by the estimate and 3,068 by o200k_base: past a
    2,048-token window, refused as counted; 8,000 "a"s are 2,000 by the estimate and 1,000 counted:
    within it, sent."""
    async with make_client(settings, context_windows={"gpt-4o": 2048}) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        rare = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(1600))
        body = {"session_id": session["id"], "provider": "openai", "model": "gpt-4o", "content": rare}
        refused = await client.post("/v4/chat/send", json=body)
        assert refused.status_code == 400, refused.text
        detail = refused.json()["detail"]
        assert "3,068 tokens of context (counted with o200k_base)" in detail
        assert "1,532 over its 2,048" in detail  # 3,068 + 512 for the reply - 2,048
        assert fake_providers.state.requests == []
        assert await db.fetchval("SELECT count(*) FROM turns") == 0
        body["content"] = "a" * 8000
        assert (await client.post("/v4/chat/send", json=body)).status_code == 201
