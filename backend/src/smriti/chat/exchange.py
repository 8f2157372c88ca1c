"""A message round trip: read the context, ask the provider, store both Turns together."""

from __future__ import annotations

from dataclasses import dataclass

from smriti.chat.context import AssembledContext, assemble
from smriti.chat.nudge import suggest
from smriti.chat.schemas import (
    ContextMessage,
    ContextPreview,
    ContextRequest,
    ContextSection,
    SendRequest,
    SendResponse,
    Suggestion,
)
from smriti.chat.store import ChatStore, Exchange, SessionContext
from smriti.errors import BadRequest
from smriti.providers.base import ProviderRequest
from smriti.providers.registry import ProviderChoice, ProviderRegistry


@dataclass(frozen=True, slots=True)
class ChatService:
    store: ChatStore
    providers: ProviderRegistry
    nudge_after_turns: int

    async def send(self, data: SendRequest) -> SendResponse:
        _check_mount(data)
        context = await self._read(data, request_id=data.request_id)
        choice = self._choose(data, context)
        if context.replay_seq is not None and data.request_id is not None:
            user, assistant = await self.store.replay(data.session_id, data.request_id, data.content)
        else:
            assembled = assemble(context.mounted, context.history, data.content)
            reply = await choice.provider.complete(
                ProviderRequest(model=choice.model, system=assembled.system, messages=assembled.messages)
            )
            user, assistant = await self.store.write_exchange(
                data.session_id,
                Exchange(
                    user_content=data.content,
                    assistant_content=reply.content,
                    provider=choice.provider.name,
                    model=reply.model,
                    checkpoint_id=data.checkpoint_id,
                    history_base_seq=data.history_base_seq,
                    input_tokens=reply.input_tokens,
                    output_tokens=reply.output_tokens,
                    request_id=data.request_id,
                ),
            )
        return SendResponse(
            user_turn=user,
            assistant_turn=assistant,
            suggestion=self._suggest(data, context, user.content + "\n" + assistant.content),
        )

    async def preview(self, data: ContextRequest) -> ContextPreview:
        _check_mount(data)
        context = await self._read(data, request_id=None)
        choice = self._choose(data, context)
        assembled = assemble(context.mounted, context.history)
        return _preview(data, choice, assembled, context)

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
        if data.checkpoint_id is not None:
            turns_since = len(context.history) + 2
            since_what = "the mounted Checkpoint"
        else:
            turns_since = context.turns_after_head + 2
            since_what = "the last Checkpoint of this Space" if context.head_created_at else "this Session started"
        return suggest(
            turns_since=turns_since,
            since_what=since_what,
            threshold=self.nudge_after_turns,
            latest_exchange=latest_exchange,
        )


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
    data: ContextRequest, choice: ProviderChoice, assembled: AssembledContext, context: SessionContext
) -> ContextPreview:
    messages = [
        ContextMessage(role=message.role, content=message.content, sequence_number=turn.sequence_number)
        for turn, message in zip(context.history, assembled.messages, strict=True)
    ]
    sections = [ContextSection(s.name, s.part, s.items, s.tokens) for s in assembled.sections]
    return ContextPreview(
        session_id=data.session_id,
        provider=choice.provider.name,
        model=choice.model,
        checkpoint_id=data.checkpoint_id,
        history_base_seq=data.history_base_seq,
        system=assembled.system,
        messages=messages,
        sections=sections,
        total_tokens=sum(s.tokens for s in sections),
    )
