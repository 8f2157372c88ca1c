"""Every provider streams: text pieces in order, then the model and token counts; timeouts on
the first piece and on each gap; failures mid-stream; and a stream closed early ends the call.
Through the real SDKs against the fake servers (tests/support/fake_providers.py)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from smriti.core.config import Settings
from smriti.core.errors import ProviderFailure
from smriti.providers.base import ChatMessage, ProviderRequest, ReplyEnd, ReplyPiece
from smriti.providers.offline import describe_context
from smriti.providers.registry import ProviderRegistry
from tests.support.fake_providers import FakeProviderServer

MODELS = {"openai": "gpt-test", "anthropic": "claude-test"}


@pytest.fixture(autouse=True)
def quiet_fake(fake_providers: FakeProviderServer) -> None:
    fake_providers.state.reset()


USAGE = {"openai": (11, 7), "anthropic": (13, 5)}


def _request(model: str) -> ProviderRequest:
    return ProviderRequest(model=model, system="Be brief.", messages=[ChatMessage(role="user", content="hi")])


async def _all(registry: ProviderRegistry, name: str, model: str | None = None) -> list[ReplyPiece]:
    provider = registry.choose(name, None).provider
    try:
        return [piece async for piece in provider.stream(_request(model or MODELS.get(name, "offline-1")))]
    finally:
        await provider.close()


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_a_reply_arrives_in_pieces_then_its_model_and_usage(
    settings: Settings, fake_providers: FakeProviderServer, name: str
) -> None:
    fake_providers.state.reply = "One two three four five six."
    fake_providers.state.pieces = 4
    pieces = await _all(ProviderRegistry(settings), name)
    *text, end = pieces
    assert len(text) == 4
    assert "".join(str(t) for t in text) == "One two three four five six."
    assert end == ReplyEnd(model=MODELS[name], input_tokens=USAGE[name][0], output_tokens=USAGE[name][1])
    [body] = fake_providers.state.bodies("/chat/completions" if name == "openai" else "/messages")
    assert body["stream"] is True
    if name == "openai":
        assert body["stream_options"] == {"include_usage": True}


async def test_a_server_that_ignores_include_usage_gives_unknown_counts(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.stream_usage = False
    *_, end = await _all(ProviderRegistry(settings), "openai")
    assert end == ReplyEnd(model="gpt-test", input_tokens=None, output_tokens=None)


async def test_a_server_that_refuses_stream_options_is_asked_without_them_from_then_on(
    settings: Settings, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.refuse_stream_options = True
    registry = ProviderRegistry(settings)
    provider = registry.choose("openai", None).provider
    for _ in range(2):
        reply = await provider.complete(_request("gpt-test"))
        assert (reply.content, reply.input_tokens) == ("Fake provider reply.", None)
    await provider.close()
    bodies = fake_providers.state.bodies("/chat/completions")
    assert ["stream_options" in body for body in bodies] == [True, False, False]


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_a_gap_between_pieces_longer_than_the_timeout_is_a_504(
    settings: Settings, fake_providers: FakeProviderServer, name: str
) -> None:
    # The deadline of the whole call (4 attempts' worth) is far: only the gap rule stops it.
    registry = ProviderRegistry(dataclasses.replace(settings, provider_timeout_s=0.4, provider_max_retries=3))
    fake_providers.state.pieces = 3
    fake_providers.state.piece_delay_seconds = 0.7
    with pytest.raises(ProviderFailure) as failure:
        await _all(registry, name)
    assert failure.value.status_code == 504
    assert "stopped sending its reply: nothing for 0.4 s" in failure.value.detail


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_an_error_in_the_middle_of_a_stream_is_a_502_naming_the_provider(
    settings: Settings, fake_providers: FakeProviderServer, name: str
) -> None:
    fake_providers.state.fail_after_pieces = 1
    with pytest.raises(ProviderFailure) as failure:
        await _all(ProviderRegistry(settings), name)
    assert failure.value.status_code == 502
    assert failure.value.detail.startswith(f"Provider {name} failed")


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_a_stream_cut_short_is_a_502_never_a_whole_reply(
    settings: Settings, fake_providers: FakeProviderServer, name: str
) -> None:
    # The SDKs end a stream whose connection closed as quietly as a finished one: without the
    # provider's own end (a finish_reason, a stop_reason), half an answer would be stored as one.
    fake_providers.state.pieces = 4
    fake_providers.state.cut_after_pieces = 2
    provider = ProviderRegistry(settings).choose(name, None).provider
    with pytest.raises(ProviderFailure) as failure:
        await provider.complete(_request(MODELS[name]))
    await provider.close()
    assert failure.value.status_code == 502
    assert "cut short" in failure.value.detail


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_a_stream_closed_early_ends_the_providers_call(
    settings: Settings, fake_providers: FakeProviderServer, name: str
) -> None:
    fake_providers.state.pieces = 8
    fake_providers.state.piece_delay_seconds = 0.2
    provider = ProviderRegistry(settings).choose(name, None).provider
    pieces = provider.stream(_request(MODELS[name]))
    first = await anext(pieces)
    assert isinstance(first, str)
    await pieces.aclose()
    [request] = fake_providers.state.requests
    for _ in range(50):  # the server sees its next write fail
        if request.cut:
            break
        await asyncio.sleep(0.05)
    assert request.cut
    await provider.close()


@pytest.mark.parametrize("mode", ["empty", "malformed"])
@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_a_stream_with_no_text_or_garbage_is_a_502(
    settings: Settings, fake_providers: FakeProviderServer, name: str, mode: str
) -> None:
    fake_providers.state.mode = mode  # type: ignore[assignment]
    with pytest.raises(ProviderFailure) as failure:
        await _all(ProviderRegistry(settings), name)
    assert failure.value.status_code == 502


async def test_offline_streams_its_description_line_by_line(settings: Settings) -> None:
    *text, end = await _all(ProviderRegistry(settings), "offline")
    assert len(text) > 1
    assert "".join(str(t) for t in text) == describe_context(_request("offline-1"))
    assert end == ReplyEnd(model="offline-1")
