"""Everything a provider answers passes one check before Smriti stores or returns it.

A provider is outside Smriti's control: a local server, a proxy, or a hostile endpoint behind
`OPENAI_BASE_URL` can answer with anything its SDK accepts. Each adapter turns its SDK's stream
into text pieces and a `ReplyEnd`; `GuardedProvider` wraps every adapter (the registry builds
only guarded ones) and makes what it yields storable, the same way for all three:

- the text, piece by piece: NUL and lone surrogates (which PostgreSQL and UTF-8 cannot hold)
  become U+FFFD (a surrogate pair split across two pieces becomes two); a reply with no text at
  all is a failure (502);
- the model name: missing or blank → the model that was asked for; longer than 200 characters,
  or with control characters → refused (502): a label that cannot be stored as given is not
  shortened or guessed at;
- token counts: a whole number from 0 to 2^31 − 1 (an integral float such as `12.0` counts);
  anything else (text, a fraction, a negative or larger number) is unknown, `null`, and logged;
- the length: at most `SMRITI_MAX_REPLY_BYTES` of UTF-8 in all. The piece that would pass it is
  not yielded; the call is stopped (its stream closed) and is a 502 naming the limit, so a send,
  plain or streamed, a draft and a review store nothing, and no reply is ever cut to size
  silently.

What is stored is then exactly what is answered. Any other exception from an adapter becomes a
502 naming the provider: nothing a provider answers gives a 500. A failure's own text is made
storable too (an upstream error body can spell a lone surrogate).

Timeouts: the first piece may take the whole call's wall-clock deadline (`call_deadline_s`: every
attempt the SDK makes before a response starts, and its waits); after it, each gap between two
pieces at most the provider timeout, and the whole call still ends by the deadline (a claim on a
`request_id` lasts that long, sessions/claims.py). The SDKs' own timeouts bound each read of the
socket, which a server sending keep-alives, or a byte a minute, never trips.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import structlog

from smriti.core.config import DEFAULT_MAX_REPLY_BYTES
from smriti.core.errors import ProviderFailure
from smriti.core.schemas import MAX_INT4
from smriti.core.text import storable
from smriti.providers.base import (
    LIST_MODELS_TIMEOUT_S,
    MAX_LISTED_MODELS,
    Provider,
    ProviderReply,
    ProviderRequest,
    ReplyEnd,
    ReplyPiece,
    call_deadline_s,
    stalled_error,
    timeout_error,
    too_long_error,
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


def normalised_end(end: ReplyEnd, request: ProviderRequest, *, provider: str) -> ReplyEnd:
    return ReplyEnd(
        model=model_name(end.model, request.model, provider=provider),
        input_tokens=token_count(end.input_tokens, provider=provider, what="input_tokens"),
        output_tokens=token_count(end.output_tokens, provider=provider, what="output_tokens"),
        at_limit=end.at_limit is True,
    )


class GuardedProvider:
    """A provider adapter whose every reply is checked (`normalised`) and whose every failure
    names the provider."""

    def __init__(
        self,
        inner: Provider,
        *,
        timeout_s: float = 60.0,
        max_retries: int = 0,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
    ) -> None:
        self._inner = inner
        self._timeout_s = timeout_s
        self._max_reply_bytes = max_reply_bytes
        self._attempts = 1 + max_retries
        self._deadline_s = call_deadline_s(timeout_s, max_retries)
        self.name = inner.name
        self.label = inner.label
        self.default_model = inner.default_model
        self.models = inner.models
        self.reply_tokens = inner.reply_tokens
        self.lists_every_name = inner.lists_every_name
        self.model_backed = inner.model_backed
        self.networked = inner.networked

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
        """The whole reply, from the same stream (`stream`)."""
        parts: list[str] = []
        end: ReplyEnd | None = None
        async for piece in self.stream(request):  # to its end: a generator left open is closed by a task
            if isinstance(piece, ReplyEnd):
                end = piece
            else:
                parts.append(piece)
        if end is not None:
            return ProviderReply(
                content="".join(parts),
                model=end.model or request.model,
                input_tokens=end.input_tokens,
                output_tokens=end.output_tokens,
                at_limit=end.at_limit,
            )
        raise AssertionError("unreachable: a guarded stream ends with a ReplyEnd or raises")

    async def stream(self, request: ProviderRequest) -> AsyncGenerator[ReplyPiece, None]:
        """The adapter's stream, each piece storable, ending with exactly one normalised
        `ReplyEnd` after some text, or raising a `ProviderFailure` (see the module's timeouts)."""
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        deadline = loop.time() + self._deadline_s
        pieces = self._inner.stream(request)
        arrived = has_text = False
        size = 0  # bytes of UTF-8 so far
        try:
            while True:
                piece = await self._next(pieces, deadline - loop.time(), after_a_piece=arrived)
                if isinstance(piece, ReplyEnd):
                    if not has_text:
                        raise upstream_error(self.name, "the response held no message text")
                    yield normalised_end(piece, request, provider=self.name)
                    return
                text = storable(piece) if isinstance(piece, str) else ""
                if text:
                    # `storable` left no lone surrogate, so the text encodes; ASCII is its length.
                    size += len(text) if text.isascii() else len(text.encode())
                    if size > self._max_reply_bytes:
                        raise too_long_error(self.name, self._max_reply_bytes)
                    arrived, has_text = True, has_text or bool(text.strip())
                    yield text
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
        finally:
            close = getattr(pieces, "aclose", None)  # an async generator's: ends the provider's call
            if close is not None:
                await close()

    async def _next(self, pieces: AsyncIterator[ReplyPiece], left_s: float, *, after_a_piece: bool) -> ReplyPiece:
        """The next piece, within the time left of the call and, after a first piece, within
        the provider timeout: the gap's own 504 says which one ran out."""
        gap = self.networked and after_a_piece and self._timeout_s < left_s
        try:
            if not self.networked:
                return await anext(pieces)
            async with asyncio.timeout(max(0.0, self._timeout_s if gap else left_s)):
                return await anext(pieces)
        except StopAsyncIteration:
            raise upstream_error(self.name, "the reply ended without its end") from None
        except TimeoutError:
            if not gap:
                raise  # the whole call's deadline: `stream` says how long it waited in all
            raise stalled_error(self.name, self._timeout_s) from None

    async def list_models(self) -> list[str] | None:
        """The models the provider lists, as names Smriti can store and send back (at most
        `MAX_LISTED_MODELS`), or None when it cannot say (no such endpoint, down, a surprise, or
        not one name Smriti can use: the configured list stands then)."""
        try:
            listed = await asyncio.wait_for(self._inner.list_models(), LIST_MODELS_TIMEOUT_S + 1)
        except Exception as exc:  # the configured list stands; a listing failure is no send failure
            log.info("provider lists no models", provider=self.name, error=type(exc).__name__)
            return None
        names = [
            name
            for name in listed
            if isinstance(name, str) and name.strip() and len(name) <= MAX_MODEL_NAME and not _CONTROL.search(name)
        ]
        return [storable(name) for name in dict.fromkeys(names)][:MAX_LISTED_MODELS] or None

    async def close(self) -> None:
        await self._inner.close()
