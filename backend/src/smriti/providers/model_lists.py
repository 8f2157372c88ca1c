"""Which models each provider serves, as it says itself, for the model picker (issue 25).

An OpenAI-compatible server (Ollama, vLLM, llama.cpp) serves whatever was loaded into it, and the
configured list (`SMRITI_OPENAI_MODELS`) cannot know; `GET /v1/models` (both APIs have one) can.
A list is asked for at most once every `ttl_s` per provider, by one request however many ask at
once, and a provider that cannot answer is asked again only after `failure_ttl_s`: the page that
shows the picker never waits on a provider that is down more than once a minute.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from smriti.providers.guard import GuardedProvider


@dataclass(slots=True)
class _Entry:
    models: list[str] | None
    expires: float


@dataclass(slots=True)
class ModelLists:
    ttl_s: float = 600.0
    failure_ttl_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _entries: dict[str, _Entry] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def of(self, provider: GuardedProvider) -> list[str] | None:
        """The provider's own list (None: it gave none), from the cache while it is fresh."""
        entry = self._entries.get(provider.name)
        if entry is not None and entry.expires > self.clock():
            return entry.models
        async with self._locks.setdefault(provider.name, asyncio.Lock()):
            entry = self._entries.get(provider.name)  # another request may have asked meanwhile
            if entry is not None and entry.expires > self.clock():
                return entry.models
            models = await provider.list_models()
            ttl = self.ttl_s if models is not None else self.failure_ttl_s
            self._entries[provider.name] = _Entry(models, self.clock() + ttl)
            return models


def picker_models(
    configured: tuple[str, ...], default_model: str, listed: list[str] | None, *, lists_every_name: bool
) -> list[str]:
    """The configured default first, then the configured models, then what the provider listed
    besides them (sorted). A provider whose list names every model it answers to
    (`Provider.lists_every_name`) gets the configured ones only where it lists them: an
    OpenAI-compatible server was offered gpt-5 and the other defaults it does not serve. One that
    cannot say keeps the configured list whole."""
    first = list(dict.fromkeys([default_model, *configured]))
    if listed is None:
        return first
    served = set(listed)
    if lists_every_name:
        first = [model for model in first if model in served]
    return first + sorted(served - set(first))
