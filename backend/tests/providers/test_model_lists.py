"""Models from the provider (issue 25): `GET /v1/models` fills the picker, cached, with the
configured defaults first; a provider that cannot answer leaves the configured list."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import httpx

from smriti.core.config import Settings
from smriti.providers.base import MAX_LISTED_MODELS
from smriti.providers.registry import ProviderRegistry
from tests.support.fake_providers import FakeProviderServer


def _by_name(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in body["items"]}


def _model_asks(fake: FakeProviderServer) -> int:
    return sum(1 for r in fake.state.requests if r.path.endswith("/models"))


async def test_the_picker_lists_the_configured_defaults_first_then_what_the_provider_serves(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.listed_models = ["zeta-local", "gpt-test", "alpha-local"]
    body = (await client.get("/v4/providers")).json()
    openai, anthropic = _by_name(body)["openai"], _by_name(body)["anthropic"]
    assert openai["models"] == ["gpt-test", "alpha-local", "zeta-local"]
    assert openai["listed"] is True
    assert anthropic["models"] == ["claude-test", "alpha-local", "gpt-test", "zeta-local"]
    assert anthropic["listed"] is True
    assert _by_name(body)["offline"]["models"] == ["offline-1"]
    # Cached: asking again does not ask the providers again.
    asked = _model_asks(fake_providers)
    await client.get("/v4/providers")
    assert _model_asks(fake_providers) == asked == 2


async def test_a_provider_that_lists_nothing_usable_leaves_the_configured_list(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.listed_models = None  # 404, as llama.cpp's older servers answer
    body = (await client.get("/v4/providers")).json()
    assert _by_name(body)["openai"]["models"] == ["gpt-test"]
    assert _by_name(body)["openai"]["listed"] is False


async def test_hostile_names_are_left_out_and_a_slow_or_failing_list_is_not_asked_on_every_page(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.listed_models = ["ok-model", "x" * 201, "bad\nname", 12, "", "ok-model"]
    registry = ProviderRegistry(settings)
    try:
        listed = _by_name_struct(await registry.describe())
        assert listed["openai"] == ["ok-model"]  # the configured gpt-test is not listed: not served
        fake_providers.state.listed_models = None
        fake_providers.state.requests.clear()
        registry._model_lists._entries.clear()  # as if the 10 minutes had passed
        await asyncio.gather(*(registry.describe() for _ in range(5)))
        # Five pages at once: one ask per provider; the failure is remembered for a while.
        assert _model_asks(fake_providers) == 2
        await registry.describe()
        assert _model_asks(fake_providers) == 2
    finally:
        await registry.close()


def _by_name_struct(listing: Any) -> dict[str, list[str]]:
    return {item.name: item.models for item in listing.items}


async def test_a_model_list_that_never_ends_is_read_to_a_bound_not_until_the_timeout(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    """Anthropic's SDK fetches page after page while a page says there is another; a list whose
    pages never end was fetched, and held, until the listing timed out (then: no list at all)."""
    fake_providers.state.reset()
    fake_providers.state.listed_models = [f"model-{n}" for n in range(20)]
    fake_providers.state.models_never_end = True
    provider = ProviderRegistry(settings).choose("anthropic", None).provider
    try:
        listed = await provider.list_models()
    finally:
        await provider.close()
    assert listed == [f"model-{n}" for n in range(20)]
    assert sum(1 for r in fake_providers.state.requests if "/models" in r.path) == 2 * MAX_LISTED_MODELS // 20


async def test_a_compatible_server_is_offered_what_it_serves_not_the_configured_defaults(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    """Issue 44: the picker for an OpenAI-compatible server offered gpt-5 and the other defaults
    it does not serve."""
    fake_providers.state.reset()  # no `db` fixture here to do it
    openai = dataclasses.replace(settings.openai, models=("gpt-test", "gpt-5", "gpt-4.1", "llama-3"))
    fake_providers.state.listed_models = ["qwen-local", "llama-3"]
    registry = ProviderRegistry(dataclasses.replace(settings, openai=openai))
    try:
        listed = {item.name: item for item in (await registry.describe()).items}
    finally:
        await registry.close()
    # What the server lists; of the configured models, only the one it serves (first, as configured).
    assert listed["openai"].models == ["llama-3", "qwen-local"]
    assert listed["openai"].listed is True
    assert listed["openai"].default_model == "gpt-test"  # still what a send naming no model uses
    # Anthropic lists dated ids, not the aliases configured: those stay.
    assert listed["anthropic"].models == ["claude-test", "llama-3", "qwen-local"]


async def test_a_list_with_no_usable_name_keeps_the_configured_models(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.reset()
    fake_providers.state.listed_models = ["x" * 201, "bad\nname"]
    registry = ProviderRegistry(settings)
    try:
        listed = {item.name: item for item in (await registry.describe()).items}
    finally:
        await registry.close()
    assert listed["openai"].models == ["gpt-test"]
    assert listed["openai"].listed is False
