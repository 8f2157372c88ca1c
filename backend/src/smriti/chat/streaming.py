"""A send whose reply reaches the client as it arrives: Server-Sent Events (docs/api.md, "Streaming a reply").

The send is the plain one (`ChatService.send`: the same claims, refusals, context and write),
run in a task of its own that reports into a `ReplyStream`; the response only reads frames out
of it. The task, not the response, owns the provider call and the write, so that a client going
away (which cancels the response) decides what is stored instead of interrupting a write:

- before any text arrived: the provider call is cancelled and nothing is stored;
- after some text: the call is cancelled and the pair is stored with what had arrived, the
  reply marked `stopped`;
- once the reply is complete (the provider's end arrived): nothing is cancelled, the whole pair
  is stored as if the client were still there, and a retry with the same `request_id` (or a
  reload) finds it. A stop and the reply's end cannot both win: the phase moves to STORING in
  the same step of the event loop as the end arrives, and a stop in STORING does nothing.

A server that is shutting down (`LiveStreams.drain`) gives each stream a grace period; a stream
still waiting or receiving after it is cancelled, stores nothing, and ends with an `error` event
(503): nothing is half-written, because a pair is one statement.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from enum import Enum
from typing import Any
from uuid import UUID

import msgspec
import structlog

from smriti.chat.schemas import SendResponse
from smriti.core.errors import ProviderFailure, SmritiError
from smriti.providers.base import ProviderReply, ProviderRequest, ReplyEnd
from smriti.providers.guard import GuardedProvider

log = structlog.get_logger(__name__)

KEEP_ALIVE_S = 15.0
"""The longest a stream stays quiet: a comment line then keeps proxies from closing it."""
_KEEP_ALIVE = b": keep-alive\n\n"
_encode = msgspec.json.Encoder().encode


class Phase(Enum):
    PREPARING = "preparing"
    """Claims, the context, the refusals: a failure here is the usual JSON 4xx, before the stream."""
    RECEIVING = "receiving"
    STORING = "storing"
    """The reply is complete (or stopped) and being stored: a stop no longer changes anything."""
    ENDED = "ended"


class StopReason(Enum):
    CLIENT_GONE = "client gone"
    SHUTDOWN = "shutdown"


class ShuttingDown(SmritiError):
    status_code = 503


class ContextEvent(msgspec.Struct):
    session_id: UUID
    provider: str
    model: str
    checkpoint_id: UUID | None
    history_base_seq: int | None
    context_tokens: int | None
    """The estimate of what the provider was sent; null for a replay of a stored pair."""


class DeltaEvent(msgspec.Struct):
    text: str


class ErrorEvent(msgspec.Struct):
    status: int
    detail: str
    provider: str | None


def _frame(event: bytes, data: bytes) -> bytes:
    # msgspec escapes every newline inside a JSON string, so the data is always one line.
    return b"event: " + event + b"\ndata: " + data + b"\n\n"


class ReplyStream:
    """One streamed send: the send reports into it (`began`, `delta`, `storing`), the response
    reads `frames()`, and `stop` ends it early (the client went away, the server is stopping)."""

    def __init__(self, *, keep_alive_s: float = KEEP_ALIVE_S) -> None:
        self._loop = asyncio.get_running_loop()
        self.phase = Phase.PREPARING
        self.stop_reason: StopReason | None = None
        self.started: asyncio.Future[None] = self._loop.create_future()
        """Done once the stream can begin (the context is sent), or failed with the refusal."""
        self.text: list[str] = []
        self._provider: str | None = None
        self._frames: list[bytes] = []
        self._wake: asyncio.Future[None] | None = None
        self._closed = False
        self._task: asyncio.Task[SendResponse] | None = None
        self._keep_alive_s = keep_alive_s
        self._last_frame = self._loop.time()
        self._ticker: asyncio.TimerHandle | None = None

    def run(self, send: Coroutine[Any, Any, SendResponse]) -> asyncio.Task[SendResponse]:
        self._task = asyncio.create_task(send)
        self._task.add_done_callback(self._ended)
        return self._task

    # What the send reports.

    def began(self, event: ContextEvent) -> None:
        """The provider is about to be called: the refusals are over and the stream begins."""
        self.phase = Phase.RECEIVING
        self._provider = event.provider
        self._put(_frame(b"context", _encode(event)))
        if not self.started.done():
            self.started.set_result(None)

    def delta(self, text: str) -> None:
        self.text.append(text)
        self._put(_frame(b"delta", _encode(DeltaEvent(text))))

    def storing(self) -> None:
        self.phase = Phase.STORING

    def stop(self, reason: StopReason) -> None:
        """Cancel the send unless its reply is complete already (then it is stored whole)."""
        if self.phase in (Phase.PREPARING, Phase.RECEIVING) and self._task is not None and not self._task.done():
            self.stop_reason = reason
            self._task.cancel()

    # What the response reads.

    async def frames(self) -> AsyncIterator[bytes]:
        """The stream's bytes, as they come; several frames that are ready go out as one write.
        However the response ends (the client went away, say), the send is stopped."""
        self._last_frame = self._loop.time()
        self._ticker = self._loop.call_later(self._keep_alive_s, self._tick)
        try:
            while True:
                if not self._frames:
                    if self._closed:
                        return
                    self._wake = self._loop.create_future()
                    await self._wake
                    continue
                batch = self._frames[0] if len(self._frames) == 1 else b"".join(self._frames)
                self._frames.clear()
                yield batch
        finally:
            self._ticker.cancel()
            self.stop(StopReason.CLIENT_GONE)

    def _put(self, frame: bytes) -> None:
        self._frames.append(frame)
        self._last_frame = self._loop.time()
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def _tick(self) -> None:
        if self._closed:
            return
        quiet = self._loop.time() - self._last_frame
        if quiet >= self._keep_alive_s - 0.01:
            self._put(_KEEP_ALIVE)
            quiet = 0.0
        self._ticker = self._loop.call_later(self._keep_alive_s - quiet, self._tick)

    def _ended(self, task: asyncio.Task[SendResponse]) -> None:
        self.phase = Phase.ENDED
        failure: BaseException | None
        if task.cancelled():
            failure = ShuttingDown("The send was stopped before its reply was complete; nothing was stored.")
        else:
            failure = task.exception()
        if not self.started.done():
            if failure is not None:  # a refusal: the controller answers it as JSON
                self.started.set_exception(failure)
                self.started.exception()  # retrieved even when the request is gone
                self._close()
                return
            self.started.set_result(None)
            self._replayed(task.result())
        if failure is None:
            self._put(_frame(b"done", _encode(task.result())))
        else:
            self._put(_frame(b"error", _encode(self._error(failure))))
        self._close()

    def _replayed(self, sent: SendResponse) -> None:
        """A pair stored before this send (the same `request_id`): its reply as one piece."""
        assistant = sent.assistant_turn
        self._put(
            _frame(
                b"context",
                _encode(
                    ContextEvent(
                        session_id=assistant.session_id,
                        provider=assistant.provider or "",
                        model=assistant.model or "",
                        checkpoint_id=assistant.checkpoint_id,
                        history_base_seq=assistant.history_base_seq,
                        context_tokens=None,
                    )
                ),
            )
        )
        self._put(_frame(b"delta", _encode(DeltaEvent(assistant.content))))

    def _error(self, failure: BaseException) -> ErrorEvent:
        if isinstance(failure, ProviderFailure):
            return ErrorEvent(status=failure.status_code, detail=failure.detail, provider=failure.provider)
        if isinstance(failure, SmritiError):
            return ErrorEvent(status=failure.status_code, detail=failure.detail, provider=self._provider)
        log.error("streamed send failed", error=type(failure).__name__, exc_info=failure)
        return ErrorEvent(status=500, detail="Internal server error; nothing was stored.", provider=self._provider)

    def _close(self) -> None:
        self._closed = True
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)


async def receive(
    stream: ReplyStream, provider: GuardedProvider, request: ProviderRequest
) -> tuple[ProviderReply, bool]:
    """The provider's reply, each piece passed on to the stream as it arrives; whether it was
    stopped (then it is what had arrived, with the model that was asked for and no counts)."""
    end: ReplyEnd | None = None
    pieces = provider.stream(request)
    try:
        async with contextlib.aclosing(pieces):
            async for piece in pieces:
                if isinstance(piece, ReplyEnd):
                    stream.storing()  # from here on, the reply is stored whole whatever happens
                    end = piece
                    break
                stream.delta(piece)
    except asyncio.CancelledError:
        reason = stream.stop_reason
        if reason is StopReason.SHUTDOWN:
            _uncancel()
            raise ShuttingDown(
                "The server is shutting down, and this reply did not finish in time; nothing was stored: send again."
            ) from None
        if reason is StopReason.CLIENT_GONE and stream.text:
            _uncancel()
            stream.storing()
            return ProviderReply(content="".join(stream.text), model=request.model), True
        raise
    if end is None:  # unreachable: a guarded stream ends with a ReplyEnd or raises
        raise AssertionError("a provider's stream ended without its end")
    reply = ProviderReply(
        content="".join(stream.text),
        model=end.model or request.model,
        input_tokens=end.input_tokens,
        output_tokens=end.output_tokens,
        at_limit=end.at_limit,
    )
    return reply, False


def _uncancel() -> None:
    """The cancellation was a stop this send answers itself (it stores or reports): later awaits
    in the task, and any timeout among them, must not see it as pending."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


class LiveStreams:
    """The streams a process is answering, so that a server shutting down can end them."""

    def __init__(self) -> None:
        self._streams: set[ReplyStream] = set()
        self._draining = False

    def add(self, stream: ReplyStream) -> None:
        self._streams.add(stream)

    def discard(self, stream: ReplyStream) -> None:
        self._streams.discard(stream)

    def drain(self, grace_s: float) -> None:
        """Let each stream finish for `grace_s`, then stop those still waiting or receiving."""
        if self._draining:
            return
        self._draining = True
        loop = asyncio.get_running_loop()
        loop.call_later(grace_s, self._stop_all)

    def _stop_all(self) -> None:
        for stream in list(self._streams):
            stream.stop(StopReason.SHUTDOWN)

    @property
    def draining(self) -> bool:
        return self._draining
