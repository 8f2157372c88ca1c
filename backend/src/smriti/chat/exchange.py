"""A message round trip: read the context, ask the provider, store both Turns together."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from uuid import UUID

from smriti.access.caller import Agent
from smriti.chat.answered import answered_context
from smriti.chat.context import AssembledContext, HistoryTurn, assemble, left_out_for
from smriti.chat.nudge import suggest
from smriti.chat.receipts import ReceiptCache, context_sha256, receipt_key
from smriti.chat.schemas import (
    AnsweredContext,
    ContextMessage,
    ContextPreview,
    ContextRequest,
    ContextSection,
    SendRequest,
    SendResponse,
    Suggestion,
)
from smriti.chat.store import ChatStore, SessionContext
from smriti.chat.streaming import ContextEvent, LiveStreams, ReplyStream, ShuttingDown, receive
from smriti.chat.window import SectionTokens, check_fits, context_tokens, section_tokens, window_nudge
from smriti.core.errors import BadRequest, Conflict, NotFound, ProviderFailure
from smriti.providers.base import ProviderReply, ProviderRequest
from smriti.providers.offline import is_offline_reply
from smriti.providers.registry import ProviderChoice, ProviderRegistry
from smriti.providers.windows import estimated_tokens, reply_room
from smriti.sessions.claims import InFlight, Outcome, SendClaims
from smriti.sessions.schemas import Turn
from smriti.sessions.turns import Exchange, TurnStore


@dataclass(frozen=True, slots=True)
class ChatService:
    store: ChatStore
    turns: TurnStore
    providers: ProviderRegistry
    nudge_after_turns: int
    claims: SendClaims
    in_flight: InFlight = field(default_factory=InFlight)
    streams: LiveStreams = field(default_factory=LiveStreams)
    receipts: ReceiptCache = field(default_factory=ReceiptCache)

    async def send(
        self, data: SendRequest, stream: ReplyStream | None = None, *, agent: Agent | None = None
    ) -> SendResponse:
        """Store the exchange and answer it; with a `stream`, the reply's pieces go to it as they
        arrive (chat/streaming.py), by the same path: the same refusals, claims and write. Its
        Turns record the `agent` that sent it (None: the person)."""
        _check_mount(data)
        if data.request_id is None:
            return await self._send(data, None, stream, agent)
        request_id = data.request_id
        # One provider call per key, whatever the number of retries in flight (sessions/claims.py).
        return await self.in_flight.one_at_a_time(
            (data.session_id, request_id), _fingerprint(data), lambda: self._send(data, request_id, stream, agent)
        )

    def stream(self, data: SendRequest, *, agent: Agent | None = None) -> ReplyStream:
        """Start a streamed send; its refusals fail `ReplyStream.started`, before any event."""
        if self.streams.draining:
            raise ShuttingDown("The server is shutting down: send again in a moment.")
        stream = ReplyStream()
        self.streams.add(stream)
        stream.run(self.send(data, stream, agent=agent)).add_done_callback(lambda _: self.streams.discard(stream))
        return stream

    async def _send(
        self, data: SendRequest, request_id: str | None, stream: ReplyStream | None, agent: Agent | None
    ) -> SendResponse:
        if request_id is not None:
            return await self._send_keyed(data, request_id, stream, agent)
        context = await self._read(data, request_id=None)
        user, assistant, used = await self._exchange(data, context, self._choose(data, context), stream, agent)
        return self._response(data, context, user, assistant, used)

    async def _send_keyed(
        self, data: SendRequest, request_id: str, stream: ReplyStream | None, agent: Agent | None
    ) -> SendResponse:
        """A send with a `request_id`: the provider is called only by the send that holds the
        claim on the key (sessions/claims.py); the others replay the pair it stores.

        The claim comes first and the context is read after it, in a statement of its own: a
        claim can be won in the instant another send stores the pair (the claim's statement
        looked at the Turns before that commit), and the read after it then sees the pair."""
        outcome = await self.claims.claim(data.session_id, request_id, _fingerprint(data))
        if outcome is Outcome.GONE:
            raise NotFound(f"No Session with id {data.session_id}.", field="session_id")
        if outcome is Outcome.CLAIMED:
            try:
                context = await self._read(data, request_id=request_id)
                if context.replay_seq is None:
                    choice = self._choose(data, context)
                    user, assistant, used = await self._exchange(data, context, choice, stream, agent)
                    return self._response(data, context, user, assistant, used)  # the write gave the claim up
            except BaseException:
                await self._release(data, request_id)
                raise
            await self._release(data, request_id)
        else:
            context = await self._read(data, request_id=request_id)
        self._choose(data, context)  # the same refusals as a first send (an unknown provider, say)
        user, assistant = await self.turns.replay(data.session_id, request_id, data.content, data.retry_of)
        return self._response(data, context, user, assistant)

    async def _release(self, data: SendRequest, request_id: str) -> None:
        with contextlib.suppress(Exception):  # best effort: a claim left behind expires and is taken over
            await asyncio.shield(self.claims.release(data.session_id, request_id, _fingerprint(data)))

    def _response(
        self, data: SendRequest, context: SessionContext, user: Turn, assistant: Turn, used: int | None = None
    ) -> SendResponse:
        """The pair and the suggestion; `used` is the context the message was sent with (tokens),
        when this send sent it."""
        # The nudge reads what the person and a model said: an offline reply only describes its
        # context, and quotes the mounted Checkpoint's message, which is no decision just made.
        said = (
            user.content
            if is_offline_reply(assistant.role, assistant.provider)
            else f"{user.content}\n{assistant.content}"
        )
        suggestion = self._suggest(data, context, said)
        window = self.providers.context_window(assistant.model) if assistant.model else None
        if window is not None:
            if used is None:  # not counted as it went out (a replay, say): about the context it was sent with
                leave_out = left_out_for(assistant.provider or "", context.offline_replies)
                used = context_tokens(assemble(context.mounted, context.history, leave_out=leave_out))
            # What the next send starts from, about: that context and the reply (estimated alike).
            suggestion = window_nudge(suggestion, used + estimated_tokens(len(assistant.content)), window)
        return SendResponse(user_turn=user, assistant_turn=assistant, suggestion=suggestion)

    async def _exchange(
        self,
        data: SendRequest,
        context: SessionContext,
        choice: ProviderChoice,
        stream: ReplyStream | None,
        agent: Agent | None,
    ) -> tuple[Turn, Turn, int | None]:
        """Ask the provider, then store both Turns (nothing is stored when it fails); also the
        context's size in tokens (estimated), when a window or a stream needs it."""
        leave_out = left_out_for(choice.provider.name, context.offline_replies)
        assembled = assemble(context.mounted, _history_for(data, context), data.content, leave_out=leave_out)
        window = self.providers.context_window(choice.model)
        request = ProviderRequest(
            model=choice.model,
            system=assembled.system,
            messages=assembled.messages,
            max_tokens=reply_room(window, choice.provider.reply_tokens),
        )
        if window is not None:
            await check_fits(request, choice.provider.name, window)
        # Estimated only for what needs it: the window's nudge, or a stream's context event.
        used = context_tokens(assembled) if window is not None or stream is not None else None
        receipt = self.receipts.receipt(
            receipt_key(data.session_id, context.checkpoint_id, context.history_base_seq, leaves_out=bool(leave_out)),
            (choice.provider.name, choice.model, assembled.system),
            assembled.messages,
        )
        if stream is not None:
            stream.began(
                ContextEvent(
                    session_id=data.session_id,
                    provider=choice.provider.name,
                    model=choice.model,
                    checkpoint_id=context.checkpoint_id,
                    history_base_seq=context.history_base_seq,
                    context_tokens=used,
                )
            )
        reply, stopped = await complete_remembered(
            self.turns, choice, request, data.session_id, asked=data.model, stream=stream
        )
        user, assistant = await self.turns.write_exchange(
            data.session_id,
            Exchange(
                user_content=data.content,
                assistant_content=reply.content,
                provider=choice.provider.name,
                model=reply.model,
                checkpoint_id=context.checkpoint_id,
                history_base_seq=context.history_base_seq,
                input_tokens=reply.input_tokens,
                output_tokens=reply.output_tokens,
                request_id=data.request_id,
                retry_of=data.retry_of,
                stopped=stopped,
                asked_model=choice.model,
                context_sha256=receipt,
                context_through_seq=context.last_seq,
                at_limit=reply.at_limit,
                agent=agent,
            ),
        )
        return user, assistant, used

    async def preview(self, data: ContextRequest) -> ContextPreview:
        _check_mount(data)
        context = await self._read(data, request_id=None)
        choice = self._choose(data, context)
        leave_out = left_out_for(choice.provider.name, context.offline_replies)
        assembled = assemble(context.mounted, context.history, data.content, leave_out=leave_out)
        counted = await section_tokens(assembled, choice.provider.name, choice.model)
        window = self.providers.context_window(choice.model)
        return _preview(data, choice, assembled, context, window=window, counted=counted)

    async def answered(self, session_id: UUID, sequence_number: int) -> AnsweredContext:
        """The context reply `sequence_number` was answered from, rebuilt, and its receipt checked."""
        return await answered_context(self.store.pool, session_id, sequence_number)

    async def _read(self, data: ContextRequest, *, request_id: str | None) -> SessionContext:
        return await self.store.read_context(
            data.session_id,
            checkpoint_id=data.checkpoint_id,
            history_base_seq=data.history_base_seq,
            request_id=request_id,
        )

    def _choose(self, data: ContextRequest, context: SessionContext) -> ProviderChoice:
        return self.providers.for_session(
            data.provider, data.model, session_provider=context.provider, session_model=context.model
        )

    def _suggest(self, data: ContextRequest, context: SessionContext, latest_exchange: str) -> Suggestion:
        if context.checkpoint_id is not None:
            turns_since = len(context.history) + 2
            since_what = "the Checkpoint this Session is based on" if context.based else "the mounted Checkpoint"
        else:
            turns_since = context.turns_after_head + 2
            since_what = "the last Checkpoint of this Space" if context.head_created_at else "this Session started"
        return suggest(
            turns_since=turns_since,
            since_what=since_what,
            threshold=self.nudge_after_turns,
            latest_exchange=latest_exchange,
        )


async def complete_remembered(
    turns: TurnStore,
    choice: ProviderChoice,
    request: ProviderRequest,
    session_id: UUID,
    *,
    asked: str | None,
    stream: ReplyStream | None = None,
) -> tuple[ProviderReply, bool]:
    """The provider's reply, and whether it was stopped (streamed only); when the provider does
    not know a model the Session remembered (the request named none), the Session forgets it, so
    the next send uses the provider's default."""
    try:
        if stream is None:
            return await choice.provider.complete(request), False
        return await receive(stream, choice.provider, request)
    except ProviderFailure as exc:
        if asked is None and any(error.field == "model" for error in exc.errors):
            await turns.forget_model(session_id, choice.model)
        raise


def _fingerprint(data: SendRequest) -> str:
    """What a `request_id` is claimed for: the message, and which exchange it retries (NUL
    cannot occur in a message, so no message can pass for a retry)."""
    return data.content if data.retry_of is None else f"{data.content}\x00retry_of={data.retry_of}"


def _history_for(data: SendRequest, context: SessionContext) -> list[HistoryTurn]:
    """The Turns in context for this send; for a retry, those before the exchange it asks again,
    once that exchange is found to be the Session's last, in context, and this message."""
    if data.retry_of is None:
        return context.history
    seq, last = data.retry_of, context.last_seq
    if seq >= last:
        raise BadRequest(
            f"retry_of {seq} names no exchange to ask again: the Session's last Turn is {last}.", field="retry_of"
        )
    if seq != last - 1:
        raise Conflict(
            f"Only the last exchange can be retried; Turn {seq} is not its message (the last Turn is {last}).",
            field="retry_of",
        )
    pair = context.history[-2:]
    if len(pair) < 2 or pair[0].sequence_number != seq:
        raise BadRequest(
            f"Turn {seq} is at or below the mount's boundary (history_base_seq), so it is not in this "
            "context: retry it with the mount it was sent under, or send it as a new message.",
            field="retry_of",
        )
    if pair[0].role != "user" or pair[1].role != "assistant":
        raise BadRequest(f"Turns {seq} and {last} are not a message and its reply.", field="retry_of")
    if pair[0].content != data.content:
        raise BadRequest(
            f"A retry asks the same message again: content must be the text of Turn {seq}.", field="content"
        )
    return context.history[:-2]


def _check_mount(data: ContextRequest) -> None:
    if data.checkpoint_id is not None and data.history_base_seq is None:
        raise BadRequest(
            "history_base_seq is required with checkpoint_id: the max sequence_number of the Session's "
            "Turns when the Checkpoint was mounted (0 for a Session with no Turns then).",
            field="history_base_seq",
        )
    if data.checkpoint_id is None and data.history_base_seq is not None:
        raise BadRequest(
            "history_base_seq is only meaningful with checkpoint_id (the mounted Checkpoint).",
            field="history_base_seq",
        )


def _preview(
    data: ContextRequest,
    choice: ProviderChoice,
    assembled: AssembledContext,
    context: SessionContext,
    *,
    window: int | None,
    counted: SectionTokens,
) -> ContextPreview:
    messages = [
        ContextMessage(role=turn.role, content=turn.content, sequence_number=turn.sequence_number)
        for turn in assembled.history
    ]
    if data.content is not None:  # the message about to be sent: not stored yet
        messages.append(ContextMessage(role="user", content=data.content, sequence_number=None))
    sections = [
        ContextSection(s.name, s.part, s.items, n) for s, n in zip(assembled.sections, counted.tokens, strict=True)
    ]
    return ContextPreview(
        session_id=data.session_id,
        provider=choice.provider.name,
        model=choice.model,
        checkpoint_id=context.checkpoint_id,
        history_base_seq=context.history_base_seq,
        checkpoint_from=("base" if context.based else "mount") if context.checkpoint_id is not None else None,
        system=assembled.system,
        messages=messages,
        sections=sections,
        total_tokens=sum(s.tokens for s in sections),
        context_window=window,
        tokenizer=counted.tokenizer,
        token_estimate=counted.how,
        context_sha256=context_sha256(choice.provider.name, choice.model, assembled.system, assembled.messages),
        left_out=assembled.left_out_note(),
    )
