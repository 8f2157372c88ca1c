"""The one interface every provider adapter implements.

A provider only renders: it gets the whole context (system text plus messages) on every call,
built by Smriti from its own records, and streams its reply: text pieces, then one `ReplyEnd`
with the model that answered and the token counts. What the reply is for (a chat answer, a
draft's JSON, a review's) is its caller's business, and so is whether it waits for the whole
reply (`GuardedProvider.complete` collects the same stream): one code path per provider. No
provider side sessions. What an adapter yields is checked and normalised in one place for all of
them (`providers/guard.py`), with timeouts on the first piece and on each gap, before anything
is stored or answered.
"""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import AsyncIterable, AsyncIterator, Mapping
from email.utils import parsedate_to_datetime
from typing import Any, Literal, Protocol

import msgspec

from smriti.core.errors import ProviderFailure
from smriti.core.redaction import redact
from smriti.core.text import storable

Role = Literal["user", "assistant"]


class ChatMessage(msgspec.Struct, frozen=True):
    role: Role
    content: str


DEFAULT_REPLY_TOKENS = 1024
"""The most tokens a reply is asked for when nothing else says (`windows.reply_room`)."""


class ProviderRequest(msgspec.Struct, frozen=True, kw_only=True):
    model: str
    system: str | None
    messages: list[ChatMessage]
    max_tokens: int = DEFAULT_REPLY_TOKENS
    """The reply's limit, sent to the provider; the window check keeps this much room for it."""
    # When set, ask for JSON matching this schema (the provider's structured output where it has one).
    json_schema: dict[str, Any] | None = None
    json_schema_name: str = "result"


class ProviderReply(msgspec.Struct, frozen=True, kw_only=True):
    content: str
    model: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    at_limit: bool = False
    """The provider stopped it at the request's `max_tokens` (`ReplyEnd.at_limit`)."""


class ReplyEnd(msgspec.Struct, frozen=True, kw_only=True):
    """The last item of a reply's stream: who answered and what it cost (None: not reported)."""

    model: str | None
    input_tokens: int | None = None
    output_tokens: int | None = None
    at_limit: bool = False
    """The provider said it stopped at the reply's limit (OpenAI `finish_reason: length`,
    Anthropic `stop_reason: max_tokens`), not because the answer was done."""


ReplyPiece = str | ReplyEnd
"""What a provider's stream yields: text, in order, then one `ReplyEnd`."""


class Provider(Protocol):
    name: str
    label: str
    default_model: str
    models: tuple[str, ...]
    networked: bool
    """Whether replies come over a network, which can stall: only then does each piece wait
    under a timeout (`GuardedProvider.stream`), which costs more than the offline reply itself."""
    reply_tokens: int
    """The reply limit asked for where the model's window leaves room (`windows.reply_room`):
    `SMRITI_MAX_REPLY_TOKENS`, else the adapter's own."""
    lists_every_name: bool
    """Whether its model list (`list_models`) names every model it answers to, so that a
    configured model it leaves out is not served (`model_lists.picker_models`)."""
    model_backed: bool
    """Whether a model writes the replies. The offline provider's only describe what it received,
    so drafting and review use their rule-based strategies with it."""

    @property
    def configured(self) -> bool: ...

    @property
    def unavailable_reason(self) -> str | None: ...

    def stream(self, request: ProviderRequest) -> AsyncIterator[ReplyPiece]:
        """The reply as it arrives: text pieces, then one `ReplyEnd`. Closing the iterator early
        ends the provider's call (the HTTP response is closed)."""
        ...

    async def list_models(self) -> list[str]:
        """The models the provider says it serves (`GET /v1/models`); raises when it cannot say."""
        ...

    async def close(self) -> None: ...


LIST_MODELS_TIMEOUT_S = 5.0
"""A provider's model list is a nicety for the picker: asked briefly, and never retried."""
MAX_LISTED_MODELS = 500
"""The most models the picker takes from a provider's own list (`GuardedProvider.list_models`)."""


async def first_listed(models: AsyncIterable[Any]) -> list[Any]:
    """The ids of a provider's model list, at most twice `MAX_LISTED_MODELS` (some may be names
    Smriti cannot use): the SDKs fetch page after page while a page says there is another, so a
    list that never ends would be fetched, and held, until the listing's timeout."""
    ids: list[Any] = []
    async for model in models:
        ids.append(getattr(model, "id", None))
        if len(ids) >= 2 * MAX_LISTED_MODELS:
            break
    return ids


# The SDKs wait between attempts (both cap their own backoff at 8 s, though a Retry-After header
# can ask for more); the wall-clock deadline allows this much per retry.
BACKOFF_PER_RETRY_S = 8.0


def call_deadline_s(timeout_s: float, max_retries: int) -> float:
    """The longest one provider call may take, every attempt and wait included. The SDKs' own
    timeout bounds each read, not an attempt (a server that sends a byte a minute never times
    out), and they honour a server's Retry-After: `GuardedProvider` enforces this instead."""
    return timeout_s * (1 + max_retries) + BACKOFF_PER_RETRY_S * max_retries


def upstream_error(provider: str, detail: str) -> ProviderFailure:
    return ProviderFailure(provider, 502, f"Provider {provider} failed: {detail}")


def timeout_error(provider: str, *, per_attempt_s: float, attempts: int, started: float) -> ProviderFailure:
    """The truth about a timeout: how long the client waited in all since `started` (a
    `time.monotonic()` reading), not only one attempt's limit."""
    elapsed_s = time.monotonic() - started
    tries = f"{attempts} attempts of up to {per_attempt_s:g} s each" if attempts > 1 else f"{per_attempt_s:g} s"
    return ProviderFailure(
        provider,
        504,
        f"Provider {provider} did not answer in time: gave up after {elapsed_s:.1f} s ({tries}; "
        "SMRITI_PROVIDER_TIMEOUT and SMRITI_PROVIDER_MAX_RETRIES set these).",
    )


def stalled_error(provider: str, timeout_s: float) -> ProviderFailure:
    """A reply that started and then stopped arriving for longer than the provider timeout."""
    return ProviderFailure(
        provider,
        504,
        f"Provider {provider} stopped sending its reply: nothing for {timeout_s:g} s "
        "(SMRITI_PROVIDER_TIMEOUT sets this).",
    )


def too_long_error(provider: str, limit: int) -> ProviderFailure:
    """A reply that ran past `SMRITI_MAX_REPLY_BYTES`: stopped, never stored cut to size."""
    return upstream_error(
        provider,
        f"its reply ran past {limit:,} bytes (SMRITI_MAX_REPLY_BYTES), so the call was stopped; nothing was stored.",
    )


def cut_short_error(provider: str) -> ProviderFailure:
    """A stream that ended without the provider saying the reply was complete: never stored as one."""
    return upstream_error(provider, "the reply ended before the provider said it was complete (cut short)")


def silent_stream_error(provider: str, model: str) -> ProviderFailure:
    """A stream that ended with nothing in it at all. llama-cpp-python's server answers a context
    longer than its model's window so (a 200 with an empty stream, the reason only in its log),
    which was reported as a reply cut short: this names the likely cause and the setting."""
    return upstream_error(provider, f"it answered with an empty stream, no reply at all. {window_hint(model)}")


_WINDOW_WORDS = (
    "context length",  # OpenAI, vLLM, llama-cpp-python: "maximum context length is …"
    "context_length",  # OpenAI's code: context_length_exceeded
    "context window",
    "context size",  # llama.cpp's server: "exceeds the available context size"
    "exceed_context_size",
    "prompt is too long",  # Anthropic
)


def refusal_detail(status: int, detail: str, model: str) -> str:
    """A provider's refusal as Smriti says it, with what to do when it says the context was too
    long for the model (the window Smriti checks against was unknown, or smaller than it is)."""
    said = f"HTTP {status}: {detail}"
    lowered = detail.lower()
    if status < 500 and any(words in lowered for words in _WINDOW_WORDS):
        return f"{said} {window_hint(model)}"
    return said


def window_hint(model: str) -> str:
    """What to do when the provider, not Smriti, found the context too long for the model."""
    return (
        f"The context may be longer than {model}'s window: set the window in SMRITI_CONTEXT_WINDOWS "
        f"({model}=<tokens>, a local server's context size) and a send that would not fit is refused "
        "before it goes out, saying what to do."
    )


DEFAULT_RETRY_AFTER_S = 30
"""What a 429 tells the client to wait when the provider itself said nothing usable."""
MAX_RETRY_AFTER_S = 3600


def rate_limited_error(provider: str, detail: str, headers: Mapping[str, str] | None = None) -> ProviderFailure:
    """A 429 passed on, with the provider's own `Retry-After` (seconds or an HTTP date, or
    OpenAI's `retry-after-ms`) in whole seconds, or a default: a client always learns how long."""
    failure = ProviderFailure(provider, 429, f"Provider {provider} is rate limiting requests: {detail}")
    failure.retry_after_s = retry_after_s(headers or {})
    return failure


def retry_after_s(headers: Mapping[str, str]) -> int:
    seconds: float | None = None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        seconds = _number(millis, scale=1000)
    value = headers.get("retry-after")
    if seconds is None and value is not None:
        seconds = _number(value, scale=1)
        if seconds is None:
            try:
                seconds = (parsedate_to_datetime(value) - datetime.datetime.now(datetime.UTC)).total_seconds()
            except (TypeError, ValueError, IndexError):
                seconds = None
    if seconds is None or not math.isfinite(seconds):
        return DEFAULT_RETRY_AFTER_S
    return min(MAX_RETRY_AFTER_S, max(1, math.ceil(seconds)))


def _number(text: str, *, scale: int) -> float | None:
    try:
        return float(text.strip()) / scale
    except ValueError:
        return None


def unknown_model_error(provider: str, model: str, detail: str) -> ProviderFailure:
    return ProviderFailure(
        provider,
        400,
        f"Provider {provider} does not know the model {model!r}: {detail}",
        field="model",
    )


def describe_upstream(message: str, secrets: tuple[str | None, ...]) -> str:
    """An upstream error's text with configured secrets removed, kept short, and storable (an
    error body's JSON may spell a lone surrogate, which no response could carry)."""
    text = storable(redact(message, secrets))
    return text if len(text) <= 300 else text[:297] + "..."
