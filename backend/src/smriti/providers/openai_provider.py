"""OpenAI (and any OpenAI-compatible server: Ollama, vLLM, LM Studio, llama.cpp) through Chat Completions.

JSON requests (drafting, review) ask for the strictest structured output the server takes:
`response_format: json_schema`, else `json_object` with the schema in the prompt, else plain
text with the schema in the prompt. llama.cpp's servers accept only `text` or `json_object`
(llama-cpp-python's refuses json_schema with a 500 naming `response_format`, llama.cpp's own with
a 400); a refusal that names the response format moves to the next way at once (the SDK retries a
500, but such a refusal is final: `_format_refusals_are_final`), and the way that worked is
remembered per model, so the next request starts there. The caller's parse stays strict
whichever way was used.

Every reply has a limit, `max_tokens` (the room the window check kept for it, `windows.reply_room`):
a small local model otherwise wrote until its server's context was full (80 s for one reply).
OpenAI's own API is sent none unless `SMRITI_MAX_REPLY_TOKENS` is set (then as
`max_completion_tokens`, the only name its reasoning models take): their reasoning counts against
any limit, so the default one would leave a reasoning model without room to answer.

Every reply is streamed (`stream=True`), with `stream_options: {include_usage: true}` for the
token counts; a server that refuses that option (naming it in a 400 or 422) is asked again
without it, and so is every later request to it: its replies then carry no counts. One that
ignores it sends none either, and the counts are unknown (null), never guessed.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx2
import openai

from smriti.core.config import ProviderSettings
from smriti.providers.base import (
    DEFAULT_REPLY_TOKENS,
    LIST_MODELS_TIMEOUT_S,
    ProviderRequest,
    ReplyEnd,
    ReplyPiece,
    cut_short_error,
    describe_upstream,
    first_listed,
    rate_limited_error,
    refusal_detail,
    silent_stream_error,
    stalled_error,
    timeout_error,
    unknown_model_error,
    upstream_error,
)
from smriti.providers.http_bounds import bounded_responses

JsonMode = Literal["json_schema", "json_object", "text"]
_JSON_MODES: tuple[JsonMode, ...] = ("json_schema", "json_object", "text")
_REMEMBERED_MODELS = 256
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "response format")
_REFUSAL_STATUSES = (400, 422, 500)
OPENAI_API_HOST = "api.openai.com"


class OpenAIProvider:
    name = "openai"
    label = "OpenAI"
    model_backed = True
    networked = True
    lists_every_name = True  # a compatible server lists what it loaded; OpenAI every model the key may use

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
        self.reply_tokens = reply_tokens or DEFAULT_REPLY_TOKENS
        self._limit_field = _limit_field(settings.base_url, configured=reply_tokens is not None)
        self.models = settings.models
        self._settings = settings
        self._timeout_s = timeout_s
        self._attempts = 1 + max_retries
        # The structured-output way that last worked, per model.
        self._json_modes: dict[str, JsonMode] = {}
        self._usage_option = True  # False once the server refused stream_options
        self._client: openai.AsyncOpenAI | None = None
        if self.configured:
            self._client = openai.AsyncOpenAI(
                # A local OpenAI-compatible server needs no key; the SDK still wants one.
                api_key=settings.api_key or "no-key-needed",
                base_url=settings.base_url,
                timeout=timeout_s,
                # The SDK's own bounded retries; Smriti adds no retry loop of its own.
                max_retries=max_retries,
                # What one response may make the SDK hold before the guard sees it (http_bounds.py).
                http_client=openai.DefaultAsyncHttpxClient(
                    follow_redirects=False,
                    timeout=timeout_s,
                    event_hooks=_format_refusals_are_final(bounded_responses(self.name, max_reply_bytes)),
                ),
            )

    @property
    def configured(self) -> bool:
        return bool(self._settings.api_key or self._settings.base_url)

    @property
    def unavailable_reason(self) -> str | None:
        return None if self.configured else "Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)."

    def json_mode(self, model: str) -> JsonMode:
        return self._json_modes.get(model, "json_schema")

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ReplyPiece]:
        modes: tuple[JsonMode | None, ...] = (None,)
        if request.json_schema is not None:
            modes = _JSON_MODES[_JSON_MODES.index(self.json_mode(request.model)) :]
        for mode in modes:
            extra = {} if mode is None else _response_format(request, mode)
            try:
                chunks = await self._open(request, self._messages(request, mode), extra)
            except openai.APIStatusError as exc:
                if mode is None or mode == "text" or not _refuses_format(exc):
                    raise self._failure(exc, request.model) from None
                continue  # this server does not take that response format: try the next way
            if mode is not None:
                self._remember(request.model, mode)
            async with contextlib.aclosing(self._pieces(chunks, request)) as pieces:  # closed early: the call ends
                async for piece in pieces:
                    yield piece
            return
        raise AssertionError("unreachable: the last mode raises or returns")

    def _remember(self, model: str, mode: JsonMode) -> None:
        """Only a fallback is worth remembering; a client can name any number of models, so at
        most `_REMEMBERED_MODELS` are kept (the oldest goes first)."""
        self._json_modes.pop(model, None)
        if mode != "json_schema":
            self._json_modes[model] = mode
            while len(self._json_modes) > _REMEMBERED_MODELS:
                del self._json_modes[next(iter(self._json_modes))]

    def _messages(self, request: ProviderRequest, mode: JsonMode | None) -> list[dict[str, str]]:
        system = request.system or ""
        if mode in ("json_object", "text") and request.json_schema is not None:
            system += (
                "\n\nAnswer with one JSON object, and nothing else, that matches this JSON Schema:\n"
                + json.dumps(request.json_schema, separators=(",", ":"))
            )
        messages = [{"role": "system", "content": system}] if system else []
        messages.extend({"role": m.role, "content": m.content} for m in request.messages)
        return messages

    async def _open(
        self, request: ProviderRequest, messages: list[dict[str, str]], extra: dict[str, Any]
    ) -> openai.AsyncStream[Any]:
        """The streamed response, once it has started (the SDK's retries happen before that)."""
        assert self._client is not None, "stream() called on an unconfigured provider"
        started = time.monotonic()
        for with_usage in (True, False) if self._usage_option else (False,):
            options = {"stream_options": {"include_usage": True}} if with_usage else {}
            limit = {self._limit_field: request.max_tokens} if self._limit_field else {}
            body = {"model": request.model, "messages": messages, "stream": True, **limit, **options, **extra}
            try:
                # The client's own `post` (the SDK's documented way to a route as given), not
                # `chat.completions.create`, which first walks every message through the SDK's
                # typed-dict transform (an identity for plain role/content pairs: ~1 ms per
                # send with a 20-Turn history, before the first byte went out), and chunks as
                # the JSON they are (`AsyncStream[object]`) rather than built into models (most
                # of the CPU per piece). Retries, auth, errors, the SSE decoding and the error
                # events inside a stream are the SDK's either way.
                return await self._client.post(
                    "/chat/completions",
                    body=body,
                    cast_to=object,
                    stream=True,
                    stream_cls=openai.AsyncStream[object],
                    options={"security": {"bearer_auth": True}},
                )
            except openai.APITimeoutError:
                raise timeout_error(
                    self.name, per_attempt_s=self._timeout_s, attempts=self._attempts, started=started
                ) from None
            except openai.APIStatusError as exc:
                if with_usage and exc.status_code in (400, 422) and "stream_options" in _error_text(exc):
                    self._usage_option = False  # a compatible server without it: ask without, from now on
                    continue
                raise  # `stream` decides: another response format, or a failure
            except openai.APIConnectionError:
                raise upstream_error(self.name, "could not connect to the provider") from None
        raise AssertionError("unreachable: the last way returns or raises")

    async def _pieces(
        self, chunks: openai.AsyncStream[Any], request: ProviderRequest
    ) -> AsyncGenerator[ReplyPiece, None]:
        model: Any = None  # as the server wrote it: the guard checks it (guard.model_name)
        usage: Any = None
        finished = False  # a finish_reason: the SDK ends a stream cut short as quietly as a whole one
        silent = True  # not one event: how llama-cpp-python answers a context past its window
        at_limit = False
        try:
            async with chunks:
                async for chunk in chunks:  # JSON as sent: anything a server writes
                    silent = False
                    if not isinstance(chunk, dict):
                        continue
                    model = chunk.get("model") or model
                    usage = chunk.get("usage") or usage
                    choices = chunk.get("choices")
                    for choice in choices if isinstance(choices, list) else ():
                        if not isinstance(choice, dict):
                            continue
                        finished = finished or choice.get("finish_reason") is not None
                        at_limit = at_limit or choice.get("finish_reason") == "length"
                        delta = choice.get("delta")
                        text = delta.get("content") if isinstance(delta, dict) else None
                        if isinstance(text, str) and text:
                            yield text
        except (openai.APITimeoutError, httpx2.TimeoutException):
            raise stalled_error(self.name, self._timeout_s) from None
        except openai.APIError as exc:  # an error event inside the stream
            raise upstream_error(self.name, f"the stream failed: {self._describe(exc)}") from None
        except (httpx2.HTTPError, ValueError, TypeError, KeyError) as exc:
            raise upstream_error(self.name, f"unusable response ({type(exc).__name__})") from None
        if silent:
            raise silent_stream_error(self.name, request.model)
        if not finished:
            raise cut_short_error(self.name)
        counts = usage if isinstance(usage, dict) else {}
        yield ReplyEnd(
            model=model or request.model,
            input_tokens=counts.get("prompt_tokens"),
            output_tokens=counts.get("completion_tokens"),
            at_limit=at_limit,
        )

    def _failure(self, exc: openai.APIStatusError, model: str) -> Exception:
        detail = self._describe(exc)
        if isinstance(exc, openai.RateLimitError):
            return rate_limited_error(self.name, detail, exc.response.headers)
        if _names_unknown_model(exc, model):
            return unknown_model_error(self.name, model, f"HTTP {exc.status_code}: {detail}")
        return upstream_error(self.name, refusal_detail(exc.status_code, detail, model))

    def _describe(self, exc: openai.APIError) -> str:
        return describe_upstream(str(getattr(exc, "message", None) or exc), (self._settings.api_key,))

    async def list_models(self) -> list[str]:
        assert self._client is not None, "list_models() called on an unconfigured provider"
        listed = await self._client.with_options(timeout=LIST_MODELS_TIMEOUT_S, max_retries=0).models.list()
        return await first_listed(listed)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


def _limit_field(base_url: str | None, *, configured: bool) -> str | None:
    """The name the reply's limit is sent under; None: sent none (see the module's docstring)."""
    if base_url is not None and urlsplit(base_url).hostname != OPENAI_API_HOST:
        return "max_tokens"  # what every compatible server takes (llama.cpp, Ollama, vLLM, LM Studio)
    return "max_completion_tokens" if configured else None


def _response_format(request: ProviderRequest, mode: JsonMode) -> dict[str, Any]:
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": request.json_schema_name, "schema": request.json_schema, "strict": False},
            }
        }
    if mode == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _error_text(exc: openai.APIStatusError) -> str:
    return f"{getattr(exc, 'message', '')} {exc.body!r}".lower()


def _refuses_format(exc: openai.APIStatusError) -> bool:
    """A refusal of the request's response format (llama.cpp: 400, llama-cpp-python: 500, both
    naming it), not a failure of the server."""
    return _is_format_refusal(exc.status_code, _error_text(exc))


def _is_format_refusal(status: int, text: str) -> bool:
    return status in _REFUSAL_STATUSES and any(word in text.lower() for word in _FORMAT_WORDS)


def _format_refusals_are_final(hooks: Mapping[str, list[Callable[..., Any]]]) -> dict[str, list[Callable[..., Any]]]:
    """`hooks` and one more: an error response that refuses the response format is marked
    `x-should-retry: false`, the header the SDK obeys before its own rules. Without it the SDK
    retried llama-cpp-python's 500 `SMRITI_PROVIDER_MAX_RETRIES` times, with its backoff, before
    the next way was tried: 15-20 s on the first draft or review after each restart. Its body is
    read here, already cut to `http_bounds.ERROR_BODY_BYTES` by the hook before this one."""

    async def final_refusal(response: httpx2.Response) -> None:
        if response.status_code not in _REFUSAL_STATUSES:
            return
        body = await response.aread()  # the SDK reads it again from here when it raises
        if _is_format_refusal(response.status_code, body.decode("utf-8", "replace")):
            response.headers["x-should-retry"] = "false"

    return {**hooks, "response": [*hooks.get("response", ()), final_refusal]}


def _names_unknown_model(exc: openai.APIStatusError, model: str) -> bool:
    """OpenAI answers 404 `model_not_found`; Ollama and vLLM 404 naming the model. A 404 that does
    not mention the model is another fault (a wrong OPENAI_BASE_URL path), not the model's."""
    text = _error_text(exc)
    if exc.status_code == 404:
        return "model" in text or model.lower() in text
    return exc.status_code == 400 and "model_not_found" in text
