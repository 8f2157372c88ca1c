"""The providers this server knows, built once at start-up from server settings only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import msgspec

from smriti.core.config import ConfigError, Settings
from smriti.core.errors import BadRequest
from smriti.providers.anthropic_provider import AnthropicProvider
from smriti.providers.base import Provider
from smriti.providers.guard import GuardedProvider
from smriti.providers.model_lists import ModelLists, picker_models
from smriti.providers.offline import OFFLINE_PROVIDER, OfflineProvider
from smriti.providers.openai_provider import OpenAIProvider
from smriti.providers.windows import KNOWN_CONTEXT_WINDOWS


class ProviderInfo(msgspec.Struct):
    name: str
    label: str
    configured: bool
    default: bool
    default_model: str
    models: list[str]
    unavailable_reason: str | None
    context_windows: dict[str, int]
    """Tokens each of `models` takes in, where known (`providers/windows.py`), and every entry of
    `SMRITI_CONTEXT_WINDOWS` (a model-backed provider's sends use them, listed or not)."""
    listed: bool = False
    """Whether `models` comes from the provider's own list (`GET /v1/models`): OpenAI's (and a
    compatible server's) is what it lists, the configured models only where it lists them;
    Anthropic's adds what it lists to the configured ones. False: the configured list, unchecked
    (the provider could not say, or is not configured)."""


class ProviderList(msgspec.Struct):
    default_provider: str
    items: list[ProviderInfo]


class ProviderChoice(msgspec.Struct, frozen=True):
    provider: GuardedProvider
    model: str


class ProviderRegistry:
    def __init__(self, settings: Settings) -> None:
        timeout, retries = settings.provider_timeout_s, settings.provider_max_retries
        longest, tokens = settings.max_reply_bytes, settings.max_reply_tokens
        # Every adapter is guarded: its replies are checked before anything is stored (guard.py).
        providers: list[Provider] = [
            OpenAIProvider(
                settings.openai, timeout_s=timeout, max_retries=retries, max_reply_bytes=longest, reply_tokens=tokens
            ),
            AnthropicProvider(
                settings.anthropic, timeout_s=timeout, max_retries=retries, max_reply_bytes=longest, reply_tokens=tokens
            ),
            OfflineProvider(),
        ]
        self._by_name: dict[str, GuardedProvider] = {
            p.name: GuardedProvider(p, timeout_s=timeout, max_retries=retries, max_reply_bytes=longest)
            for p in providers
        }
        self.default_name = self._pick_default(settings.default_provider)
        self._configured_windows = dict(settings.context_windows)
        self._windows = {**KNOWN_CONTEXT_WINDOWS, **self._configured_windows}
        self._model_lists = ModelLists()

    def context_window(self, model: str) -> int | None:
        """The model's window in tokens, None when unknown."""
        return self._windows.get(model)

    def _pick_default(self, wanted: str | None) -> str:
        if wanted is not None:
            provider = self._by_name.get(wanted)
            if provider is None or not provider.configured:
                raise ConfigError(f"SMRITI_DEFAULT_PROVIDER={wanted!r} is not a configured provider")
            return wanted
        # Offline is the default only when no remote provider is configured.
        return next(p.name for p in self._by_name.values() if p.configured)

    def __iter__(self) -> Iterator[GuardedProvider]:
        return iter(self._by_name.values())

    def choose(self, name: str | None, model: str | None, *, field: str = "provider") -> ProviderChoice:
        """The provider and model to use; 400 naming the field for unknown or unconfigured ones."""
        provider = self._by_name.get(name or self.default_name)
        if provider is None:
            known = ", ".join(self._by_name)
            raise BadRequest(f"Unknown provider {name!r}; known providers: {known}.", field=field)
        if not provider.configured:
            raise BadRequest(
                f"Provider {provider.name} is not configured on this server. {provider.unavailable_reason}",
                field=field,
            )
        model = model or provider.default_model
        if provider.name == OFFLINE_PROVIDER and model not in provider.models:
            # The built-in provider has one model; any other name would be remembered as if it answered.
            raise BadRequest(
                f"The offline provider has no model {model!r}; its models: {', '.join(provider.models)}.",
                field="model",
            )
        return ProviderChoice(provider=provider, model=model)

    def for_session(
        self,
        provider: str | None,
        model: str | None,
        *,
        session_provider: str | None,
        session_model: str | None,
    ) -> ProviderChoice:
        """The request's provider, else the Session's last one (if still configured), else the default."""
        if provider is not None:
            same = provider == session_provider and provider in self._by_name
            return self.choose(
                provider, model or (self._known(self._by_name[provider], session_model) if same else None)
            )
        last = self._by_name.get(session_provider or "")
        if last is not None and last.configured:
            return self.choose(last.name, model or self._known(last, session_model))
        return self.choose(None, model)

    @staticmethod
    def _known(provider: GuardedProvider, remembered: str | None) -> str | None:
        """A Session's remembered model, unless it is one the offline provider refuses (a Session
        could remember any name before names were checked): the default then."""
        if provider.name == OFFLINE_PROVIDER and remembered not in provider.models:
            return None
        return remembered

    async def describe(self) -> ProviderList:
        configured = [p for p in self if p.configured]
        lists = await asyncio.gather(*(self._model_lists.of(p) for p in configured))
        listed = {p.name: found for p, found in zip(configured, lists, strict=True)}
        items = []
        for p in self:
            models = picker_models(p.models, p.default_model, listed.get(p.name), lists_every_name=p.lists_every_name)
            windows = {m: self._windows[m] for m in models if m in self._windows}
            if p.model_backed:  # SMRITI_CONTEXT_WINDOWS applies to any model named in a send
                windows |= self._configured_windows
            items.append(
                ProviderInfo(
                    name=p.name,
                    label=p.label,
                    configured=p.configured,
                    default=p.name == self.default_name,
                    default_model=p.default_model,
                    models=models,
                    unavailable_reason=p.unavailable_reason,
                    context_windows=windows,
                    listed=listed.get(p.name) is not None,
                )
            )
        return ProviderList(default_provider=self.default_name, items=items)

    async def close(self) -> None:
        for provider in self:
            await provider.close()
