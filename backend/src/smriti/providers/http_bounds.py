"""What a provider's HTTP response may make the SDK hold before Smriti sees any of it.

`GuardedProvider` caps a reply at `SMRITI_MAX_REPLY_BYTES`, but it only sees what the SDK hands
on: a streamed response one server-sent event at a time, an error response whole. The SDKs bound
neither (OpenAI's SSE decoder says so: "without imposing a line or event size limit"), so one
event that never ends, or an error body of any length, was held in memory whole before the cap
could look at it: a 64 MB event raised the process's peak memory by 258 MB. These event hooks go
on the SDKs' own HTTP client (httpx2, which both SDKs require) and bound each response as it is
read:

- a successful response may run at most `event_bytes` without an event's end (a blank line): the
  whole reply in one event, in JSON's longest spelling, and its fields. Past it the call fails
  (502) and nothing more is read. A body that is not events at all (a JSON page) is one run.
- an error response's body is cut at `ERROR_BODY_BYTES`: Smriti shows its first 300 characters
  (`base.describe_upstream`), and the SDK still sees the status (a 429 stays a 429).
- responses are asked for without compression (`Accept-Encoding: identity`), and one that comes
  compressed anyway is refused: its size on the wire says nothing of what it expands to.

What is not bounded here: the CPU each event costs the SDK (an event of one character is as
dear as a long one), which only the call's deadline bounds (`base.call_deadline_s`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any

import httpx2

from smriti.providers.base import upstream_error

ERROR_BODY_BYTES = 64 * 1024
"""The most of an error response's body read; far more than the 300 characters shown of it."""

_JSON_BYTES_PER_BYTE = 6
"""JSON spells one byte of text in at most six (`\\u0001`)."""
_EVENT_FIELDS_BYTES = 64 * 1024
_EVENT_ENDS = (b"\n\n", b"\r\r", b"\n\r\n")  # a blank line in each of SSE's line endings


def event_bytes(max_reply_bytes: int) -> int:
    """The longest run of a successful response without an event's end."""
    return _JSON_BYTES_PER_BYTE * max_reply_bytes + _EVENT_FIELDS_BYTES


def bounded_responses(provider: str, max_reply_bytes: int) -> Mapping[str, list[Callable[..., Any]]]:
    """The `event_hooks` of a provider's HTTP client (see the module's docstring)."""
    longest_run = event_bytes(max_reply_bytes)

    async def uncompressed(request: httpx2.Request) -> None:
        request.headers["Accept-Encoding"] = "identity"

    async def bounded(response: httpx2.Response) -> None:
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise upstream_error(
                provider,
                f"it answered compressed (Content-Encoding: {encoding[:40]}) although asked not to; "
                "a compressed body cannot be read within a bound.",
            )
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):  # an async client's never is
            return
        response.stream = (
            _Cut(stream, ERROR_BODY_BYTES) if response.is_error else _EventRuns(stream, provider, longest_run)
        )

    return {"request": [uncompressed], "response": [bounded]}


class _Bounded(httpx2.AsyncByteStream):
    """A response's stream, passed on chunk by chunk as `_take` allows."""

    def __init__(self, inner: httpx2.AsyncByteStream) -> None:
        self._inner = inner

    def _take(self, chunk: bytes) -> tuple[bytes, bool]:
        """What of `chunk` to pass on, and whether to read on; raises to fail the call."""
        raise NotImplementedError

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks = self._inner.__aiter__()
        try:
            async for chunk in chunks:
                kept, more = self._take(chunk)
                if kept:
                    yield kept
                if not more:
                    return
        finally:
            if isinstance(chunks, AsyncGenerator):  # left early: closed now, as httpx2's own wrapper does
                await chunks.aclose()

    @property
    def elapsed(self) -> object:
        """httpx2 reads a response's `elapsed` from its stream."""
        return getattr(self._inner, "elapsed", None)

    async def aclose(self) -> None:
        await self._inner.aclose()


class _Cut(_Bounded):
    """The first `limit` bytes of the body; the rest is never read (closing the response closes
    its connection)."""

    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        super().__init__(inner)
        self._left = limit

    def _take(self, chunk: bytes) -> tuple[bytes, bool]:
        kept = chunk[: self._left]
        self._left -= len(kept)
        return kept, self._left > 0


class _EventRuns(_Bounded):
    """The body as it comes, failing once a run without an event's end passes `limit` bytes."""

    def __init__(self, inner: httpx2.AsyncByteStream, provider: str, limit: int) -> None:
        super().__init__(inner)
        self._provider = provider
        self._limit = limit
        self._run = 0
        self._tail = b""  # the last bytes of the previous chunk: an event's end can span two

    def _take(self, chunk: bytes) -> tuple[bytes, bool]:
        end = max(chunk.rfind(marker) for marker in _EVENT_ENDS)
        if end >= 0:
            self._run = len(chunk) - end
        elif any(marker in self._tail + chunk[:2] for marker in _EVENT_ENDS):
            self._run = len(chunk)
        else:
            self._run += len(chunk)
        if self._run > self._limit:
            raise upstream_error(
                self._provider,
                f"its response ran past {self._limit:,} bytes without the end of an event (a reply of "
                "SMRITI_MAX_REPLY_BYTES in JSON's longest spelling); it was not read further and nothing "
                "was stored.",
            )
        self._tail = chunk[-2:]
        return chunk, True
