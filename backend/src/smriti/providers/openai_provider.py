"""OpenAI (and any OpenAI-compatible server: Ollama, vLLM, LM Studio) through Chat Completions."""

from __future__ import annotations

from typing import Any

import openai

from smriti.config import ProviderSettings
from smriti.providers.base import (
    ProviderReply,
    ProviderRequest,
    rate_limited_error,
    redact,
    timeout_error,
    upstream_error,
)


class OpenAIProvider:
    name = "openai"
    label = "OpenAI"

    def __init__(self, settings: ProviderSettings, *, timeout_s: float, max_retries: int) -> None:
        self.default_model = settings.default_model
        self.models = settings.models
        self._settings = settings
        self._timeout_s = timeout_s
        self._client: openai.AsyncOpenAI | None = None
        if self.configured:
            self._client = openai.AsyncOpenAI(
                # A local OpenAI-compatible server needs no key; the SDK still wants one.
                api_key=settings.api_key or "no-key-needed",
                base_url=settings.base_url,
                timeout=timeout_s,
                # The SDK's own bounded retries; Smriti adds no retry loop of its own.
                max_retries=max_retries,
                http_client=openai.DefaultAsyncHttpxClient(follow_redirects=False, timeout=timeout_s),
            )

    @property
    def configured(self) -> bool:
        return bool(self._settings.api_key or self._settings.base_url)

    @property
    def unavailable_reason(self) -> str | None:
        return None if self.configured else "Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)."

    async def complete(self, request: ProviderRequest) -> ProviderReply:
        assert self._client is not None, "complete() called on an unconfigured provider"
        messages: list[dict[str, str]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        messages.extend({"role": m.role, "content": m.content} for m in request.messages)
        extra: dict[str, Any] = {}
        if request.json_schema is not None:
            extra["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.json_schema_name,
                    "schema": request.json_schema,
                    "strict": False,
                },
            }
        try:
            response = await self._client.chat.completions.create(
                model=request.model,
                messages=messages,  # type: ignore[arg-type]
                **extra,
            )
        except openai.APITimeoutError:
            raise timeout_error(self.name, self._timeout_s) from None
        except openai.RateLimitError as exc:
            raise rate_limited_error(self.name, self._describe(exc)) from None
        except openai.APIStatusError as exc:
            raise upstream_error(self.name, f"HTTP {exc.status_code}: {self._describe(exc)}") from None
        except openai.APIConnectionError:
            raise upstream_error(self.name, "could not connect to the provider") from None
        except (openai.OpenAIError, ValueError, TypeError, KeyError) as exc:
            raise upstream_error(self.name, f"unusable response ({type(exc).__name__})") from None
        try:
            content = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            content = None
        if not isinstance(content, str) or not content.strip():
            raise upstream_error(self.name, "the response held no message text")
        usage = getattr(response, "usage", None)
        return ProviderReply(
            content=content,
            model=str(getattr(response, "model", None) or request.model),
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
        )

    def _describe(self, exc: openai.APIError) -> str:
        return redact(str(getattr(exc, "message", None) or exc), (self._settings.api_key,))

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
