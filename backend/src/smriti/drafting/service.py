"""Draft with AI: the Turns in scope go to the provider; a Checkpoint draft comes back, unsaved."""

from __future__ import annotations

from dataclasses import dataclass

from smriti.chat.exchange import complete_remembered
from smriti.chat.store import ChatStore
from smriti.checkpoints.schemas import Entity, Task
from smriti.core.errors import BadRequest
from smriti.drafting.parse import UnusableOutput, parse_draft
from smriti.drafting.prompt import DRAFT_INSTRUCTIONS, DRAFT_SCHEMA, DRAFT_SCHEMA_NAME, render_transcript
from smriti.drafting.schemas import CheckpointDraft, DraftedBy, DraftRequest, DraftSource
from smriti.providers.base import json_request, upstream_error
from smriti.providers.registry import ProviderRegistry
from smriti.rules.extract import SourceTurn


@dataclass(frozen=True, slots=True)
class DraftService:
    store: ChatStore
    providers: ProviderRegistry

    async def draft(self, data: DraftRequest) -> CheckpointDraft:
        context = await self.store.read_context(
            data.session_id, checkpoint_id=None, history_base_seq=data.history_base_seq, with_base=False
        )
        if not context.history:
            boundary = data.history_base_seq or 0
            raise BadRequest(
                f"Nothing to draft from: this Session has no Turns after sequence number {boundary}.",
                field="history_base_seq" if data.history_base_seq is not None else "session_id",
            )
        choice = self.providers.for_session(
            data.provider, data.model, session_provider=context.provider, session_model=context.model
        )
        turns = [SourceTurn(t.sequence_number, t.role, t.content) for t in context.history]
        request = json_request(
            choice.model,
            system=DRAFT_INSTRUCTIONS,
            content=render_transcript(turns),
            schema=DRAFT_SCHEMA,
            name=DRAFT_SCHEMA_NAME,
        )
        reply = await complete_remembered(self.store, choice, request, data.session_id, asked=data.model)
        try:
            fields = parse_draft(reply.content)
        except UnusableOutput as exc:
            raise upstream_error(choice.provider.name, f"the draft is not a usable Checkpoint ({exc})") from None
        first, last = turns[0].sequence_number, turns[-1].sequence_number
        return CheckpointDraft(
            message=fields.message or f"Checkpoint from Turns {first}–{last}",
            summary=fields.summary,
            decisions=fields.decisions,
            assumptions=fields.assumptions,
            tasks=[Task(text=t.text, done=t.done) for t in fields.tasks],
            open_questions=fields.open_questions,
            entities=[Entity(name=e.name, kind=e.kind, description=e.description) for e in fields.entities],
            source=DraftSource(session_id=data.session_id, from_seq=first, to_seq=last),
            drafted_by=DraftedBy(provider=choice.provider.name, model=reply.model),
        )
