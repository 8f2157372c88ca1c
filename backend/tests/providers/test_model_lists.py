"""Models from the provider (issue 25): `GET /v1/models` fills the picker, cached, with the
configured defaults first; a provider that cannot answer leaves the configured list."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from smriti.core.config import Settings
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
        assert listed["openai"] == ["gpt-test", "ok-model"]
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
