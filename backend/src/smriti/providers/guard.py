"""Everything a provider answers passes one check before Smriti stores or returns it.

A provider is outside Smriti's control: a local server, a proxy, or a hostile endpoint behind
`OPENAI_BASE_URL` can answer with anything its SDK accepts. Each adapter turns its SDK's reply
into a `ProviderReply`; `GuardedProvider` wraps every adapter (the registry builds only guarded
ones) and makes that reply storable, the same way for all three:

- the text: NUL and lone surrogates (which PostgreSQL and UTF-8 cannot hold) become U+FFFD;
- the model name: missing or blank → the model that was asked for; longer than 200 characters,
  or with control characters → refused (502): a label that cannot be stored as given is not
  shortened or guessed at;
- token counts: a whole number from 0 to 2^31 − 1 (an integral float such as `12.0` counts);
  anything else (text, a fraction, a negative or larger number) is unknown, `null`, and logged.

What is stored is then exactly what is answered. Any other exception from an adapter becomes a
502 naming the provider: nothing a provider answers gives a 500. A failure's own text is made
storable too (an upstream error body can spell a lone surrogate), and the whole call has a
wall-clock deadline (`call_deadline_s`), which the SDKs' per-read timeouts are not.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import structlog

from smriti.core.errors import ProviderFailure
from smriti.core.schemas import MAX_INT4
from smriti.core.text import storable
from smriti.providers.base import (
    Provider,
    ProviderReply,
    ProviderRequest,
    call_deadline_s,
    timeout_error,
    upstream_error,
)

log = structlog.get_logger(__name__)

MAX_MODEL_NAME = 200  # the sessions' and turns' `model` columns
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def token_count(value: Any, *, provider: str, what: str) -> int | None:
    if isinstance(value, bool) or value is None:
        count = None
    elif isinstance(value, int):
        count = value
    elif isinstance(value, float) and value.is_integer():
        count = int(value)
    else:
        count = None
    if count is not None and 0 <= count <= MAX_INT4:
        return count
    if value is not None:
        log.warning("provider reported an unusable token count", provider=provider, field=what, value=repr(value)[:40])
    return None


def model_name(value: Any, requested: str, *, provider: str) -> str:
    if not isinstance(value, str) or not storable(value).strip():
        return requested
    control = _CONTROL.search(value) is not None
    if len(value) > MAX_MODEL_NAME or control:
        raise upstream_error(
            provider,
            f"it reported a model name Smriti cannot store as given ({len(value)} characters"
            f"{', with control characters' if control else ''}; at most {MAX_MODEL_NAME}).",
        )
    return storable(value)  # a lone surrogate becomes U+FFFD


def normalised(reply: ProviderReply, request: ProviderRequest, *, provider: str) -> ProviderReply:
    content = storable(reply.content) if isinstance(reply.content, str) else ""
    if not content.strip():
        raise upstream_error(provider, "the response held no message text")
    return ProviderReply(
        content=content,
        model=model_name(reply.model, request.model, provider=provider),
        input_tokens=token_count(reply.input_tokens, provider=provider, what="input_tokens"),
        output_tokens=token_count(reply.output_tokens, provider=provider, what="output_tokens"),
    )


class GuardedProvider:
    """A provider adapter whose every reply is checked (`normalised`) and whose every failure
    names the provider."""

    def __init__(self, inner: Provider, *, timeout_s: float = 60.0, max_retries: int = 0) -> None:
        self._inner = inner
        self._timeout_s = timeout_s
        self._attempts = 1 + max_retries
        self._deadline_s = call_deadline_s(timeout_s, max_retries)
        self.name = inner.name
        self.label = inner.label
        self.default_model = inner.default_model
        self.models = inner.models
        self.model_backed = inner.model_backed

    @property
    def inner(self) -> Provider:
        return self._inner

    @property
    def configured(self) -> bool:
        return self._inner.configured

    @property
    def unavailable_reason(self) -> str | None:
        return self._inner.unavailable_reason

    async def complete(self, request: ProviderRequest) -> ProviderReply:
        started = time.monotonic()
        try:
            async with asyncio.timeout(self._deadline_s):
                reply = await self._inner.complete(request)
        except ProviderFailure as exc:
            exc.detail = storable(exc.detail)
            raise
        except TimeoutError:
            # The whole call, every attempt and wait included, has a wall-clock bound: a send that
            # holds a request_id's claim never outlives the claim (sessions/claims.py).
            raise timeout_error(
                self.name, per_attempt_s=self._timeout_s, attempts=self._attempts, started=started
            ) from None
        except Exception as exc:  # an SDK or adapter surprise: a failed provider, not a 500
            log.error("provider adapter failed", provider=self.name, error=type(exc).__name__, exc_info=exc)
            raise upstream_error(self.name, f"unusable response ({type(exc).__name__})") from None
        return normalised(reply, request, provider=self.name)

    async def close(self) -> None:
        await self._inner.close()
