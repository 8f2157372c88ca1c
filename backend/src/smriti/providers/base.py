"""The one interface every provider adapter implements.

A provider is a stateless renderer: it gets the whole context (system text plus messages) on
every call, built by Smriti from its own records, and answers once. No streaming, no provider
side sessions.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import msgspec

from smriti.errors import ProviderFailure

Role = Literal["user", "assistant"]


class ChatMessage(msgspec.Struct, frozen=True):
    role: Role
    content: str


class ProviderRequest(msgspec.Struct, frozen=True, kw_only=True):
    model: str
    system: str | None
    messages: list[ChatMessage]
    max_tokens: int = 4096
    # When set, ask for JSON matching this schema (the provider's structured output where it has one).
    json_schema: dict[str, Any] | None = None
    json_schema_name: str = "result"


def json_request(model: str, *, system: str, content: str, schema: dict[str, Any], name: str) -> ProviderRequest:
    """One user message asking for JSON that matches `schema` (drafting and review)."""
    return ProviderRequest(
        model=model,
        system=system,
        messages=[ChatMessage(role="user", content=content)],
        json_schema=schema,
        json_schema_name=name,
    )


class ProviderReply(msgspec.Struct, frozen=True, kw_only=True):
    content: str
    model: str
    input_tokens: int | None = None
    output_tokens: int | None = None


class Provider(Protocol):
    name: str
    label: str
    default_model: str
    models: tuple[str, ...]

    @property
    def configured(self) -> bool: ...

    @property
    def unavailable_reason(self) -> str | None: ...

    async def complete(self, request: ProviderRequest) -> ProviderReply: ...

    async def close(self) -> None: ...


def upstream_error(provider: str, detail: str) -> ProviderFailure:
    return ProviderFailure(provider, 502, f"Provider {provider} failed: {detail}")


def timeout_error(provider: str, seconds: float) -> ProviderFailure:
    return ProviderFailure(provider, 504, f"Provider {provider} did not answer within {seconds:g} s.")


def rate_limited_error(provider: str, detail: str) -> ProviderFailure:
    return ProviderFailure(provider, 429, f"Provider {provider} is rate limiting requests: {detail}")


def redact(text: str, secrets: tuple[str | None, ...]) -> str:
    """Remove any configured secret from text that came back from upstream, and keep it short."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return text if len(text) <= 300 else text[:297] + "..."
