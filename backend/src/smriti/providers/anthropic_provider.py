"""Anthropic through the Messages API, streamed (`messages.stream()`): text deltas as they come;
for a JSON request (a forced tool call), the tool input's JSON deltas, which joined are its JSON."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import anthropic
import httpx2

from smriti.core.config import ProviderSettings
from smriti.core.errors import ProviderFailure
from smriti.providers.base import (
    LIST_MODELS_TIMEOUT_S,
    ProviderRequest,
    ReplyEnd,
    ReplyPiece,
    cut_short_error,
    describe_upstream,
    first_listed,
    rate_limited_error,
    refusal_detail,
    stalled_error,
    timeout_error,
    unknown_model_error,
    upstream_error,
)
from smriti.providers.http_bounds import bounded_responses

ANTHROPIC_REPLY_TOKENS = 4096


class AnthropicProvider:
    name = "anthropic"
    label = "Anthropic"
    model_backed = True
    networked = True
    lists_every_name = False  # it lists dated ids (claude-sonnet-4-5-20250929), not the aliases configured

    def __init__(
        self,
        settings: ProviderSettings,
        *,
        timeout_s: float,
        max_retries: int,
        max_reply_bytes: int,
        reply_tokens: int | None = None,
    ) -> None:
        self.default_model = settings.default_model
        # Messages requires a limit; 4,096 is what every reply was asked for before it was configurable.
        self.reply_tokens = reply_tokens or ANTHROPIC_REPLY_TOKENS
        self.models = settings.models
        self._settings = settings
        self._timeout_s = timeout_s
        self._attempts = 1 + max_retries
        self._client: anthropic.AsyncAnthropic | None = None
        if self.configured:
            self._client = anthropic.AsyncAnthropic(
                api_key=settings.api_key,
                base_url=settings.base_url,
                timeout=timeout_s,
                max_retries=max_retries,
                # What one response may make the SDK hold before the guard sees it (http_bounds.py).
                http_client=anthropic.DefaultAsyncHttpxClient(
                    follow_redirects=False,
                    timeout=timeout_s,
                    event_hooks=bounded_responses(self.name, max_reply_bytes),
                ),
            )

    @property
    def configured(self) -> bool:
        return bool(self._settings.api_key)

    @property
    def unavailable_reason(self) -> str | None:
        return None if self.configured else "Set ANTHROPIC_API_KEY."

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ReplyPiece]:
        assert self._client is not None, "stream() called on an unconfigured provider"
        kwargs = _arguments(request)
        started = time.monotonic()
        try:
            async with self._client.messages.stream(**kwargs) as events:
                async for event in events:
                    text = _delta_text(event)
                    if text:
                        yield text
                message = await events.get_final_message()
        except anthropic.APITimeoutError:
            raise timeout_error(
                self.name, per_attempt_s=self._timeout_s, attempts=self._attempts, started=started
            ) from None
        except anthropic.RateLimitError as exc:
            raise rate_limited_error(self.name, self._describe(exc), exc.response.headers) from None
        except anthropic.NotFoundError as exc:
            # Anthropic answers an unknown model with 404 `not_found_error` naming "model: …".
            detail = f"HTTP 404: {self._describe(exc)}"
            if "model" in detail.lower():
                raise unknown_model_error(self.name, request.model, detail) from None
            raise upstream_error(self.name, detail) from None
        except anthropic.APIStatusError as exc:
            detail = refusal_detail(exc.status_code, self._describe(exc), request.model)
            raise upstream_error(self.name, detail) from None
        except anthropic.APIConnectionError as exc:
            raise _bound_or(exc, upstream_error(self.name, "could not connect to the provider")) from None
        except httpx2.TimeoutException:
            raise stalled_error(self.name, self._timeout_s) from None
        except anthropic.APIError as exc:  # an error event inside the stream
            raise upstream_error(self.name, f"the stream failed: {self._describe(exc)}") from None
        except (anthropic.AnthropicError, httpx2.HTTPError, ValueError, TypeError, KeyError) as exc:
            raise upstream_error(self.name, f"unusable response ({type(exc).__name__})") from None
        if getattr(message, "stop_reason", None) is None:
            # The SDK builds the message from whatever arrived, so a stream cut short looks whole.
            raise cut_short_error(self.name)
        usage = getattr(message, "usage", None)
        yield ReplyEnd(
            model=getattr(message, "model", None) or request.model,
            input_tokens=getattr(usage, "input_tokens", None),
            output_tokens=getattr(usage, "output_tokens", None),
            at_limit=getattr(message, "stop_reason", None) == "max_tokens",
        )

    def _describe(self, exc: anthropic.APIError) -> str:
        return describe_upstream(str(getattr(exc, "message", None) or exc), (self._settings.api_key,))

    async def list_models(self) -> list[str]:
        assert self._client is not None, "list_models() called on an unconfigured provider"
        listed = await self._client.with_options(timeout=LIST_MODELS_TIMEOUT_S, max_retries=0).models.list()
        return await first_listed(listed)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


def _bound_or(exc: anthropic.APIConnectionError, failure: ProviderFailure) -> ProviderFailure:
    """The SDK wraps any error while reading a response as a connection error, the refusals of
    `http_bounds.py` included: those are answered as they are, naming the bound."""
    cause = exc.__cause__
    return cause if isinstance(cause, ProviderFailure) else failure


def _delta_text(event: Any) -> str | None:
    """A text delta's text; a forced tool call's input, as its JSON text, piece by piece."""
    if getattr(event, "type", None) != "content_block_delta":
        return None
    delta = getattr(event, "delta", None)
    kind = getattr(delta, "type", None)
    text = getattr(delta, "partial_json" if kind == "input_json_delta" else "text", None)
    return text if isinstance(text, str) and kind in ("text_delta", "input_json_delta") else None


def _arguments(request: ProviderRequest) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
    }
    if request.system:
        kwargs["system"] = request.system
    if request.json_schema is not None:
        # Structured output through a forced tool call: the tool's input is the JSON we want.
        kwargs["tools"] = [
            {
                "name": request.json_schema_name,
                "description": "Return the result in this exact shape.",
                "input_schema": request.json_schema,
            }
        ]
        kwargs["tool_choice"] = {"type": "tool", "name": request.json_schema_name}
    return kwargs
