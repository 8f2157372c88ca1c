"""Draft with AI: the Turns in scope become a Checkpoint draft, unsaved.

Two strategies, chosen here by what the chosen provider is: a model reads the Turns and answers
with JSON (`model_backed`); the built-in provider has no model, so its drafts come from the
deterministic rules (`smriti.rules.extract`) applied to the Turns directly. Neither reads the
built-in provider's own replies: they describe what it was sent, not the work, and a model would
take them for an assistant's answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from smriti.chat.exchange import complete_remembered
from smriti.checkpoints.schemas import Entity, Task
from smriti.core.cpu import off_loop
from smriti.core.errors import BadRequest
from smriti.drafting.parse import DraftEntity, DraftFields, DraftTask, cleaned
from smriti.drafting.prompt import DRAFT_INSTRUCTIONS, DRAFT_SCHEMA_NAME, render_transcript
from smriti.drafting.schemas import CheckpointDraft, DraftedBy, DraftRequest, DraftSource
from smriti.providers.offline import is_offline_reply
from smriti.providers.registry import ProviderChoice, ProviderRegistry
from smriti.providers.structured import TooBig, UnusableOutput, decode_answer, json_request, unusable
from smriti.rules.extract import SourceTurn, extract
from smriti.sessions.turns import TurnStore

_TOO_BIG = TooBig(
    what="Drafting from these Turns",
    then="Nothing was sent. Draft from a later point (history_base_seq: the Turns after it) or choose a model "
    "with a larger window.",
    field="history_base_seq",
)


@dataclass(frozen=True, slots=True)
class DraftService:
    turns: TurnStore
    providers: ProviderRegistry

    async def draft(self, data: DraftRequest) -> CheckpointDraft:
        scope = await self.turns.in_scope(data.session_id, after_seq=data.history_base_seq or 0)
        if not scope.turns:
            boundary = data.history_base_seq or 0
            raise BadRequest(
                f"Nothing to draft from: this Session has no Turns after sequence number {boundary}.",
                field="history_base_seq" if data.history_base_seq is not None else "session_id",
            )
        choice = self.providers.for_session(
            data.provider, data.model, session_provider=scope.provider, session_model=scope.model
        )
        turns = [
            SourceTurn(t.sequence_number, t.role, t.content)
            for t in scope.turns
            if not is_offline_reply(t.role, t.provider)
        ]
        if not turns:
            raise BadRequest(
                f"Nothing to draft from: the Turns after sequence number {data.history_base_seq or 0} are only the "
                "offline provider's replies, which describe what it was sent, not the work.",
                field="history_base_seq" if data.history_base_seq is not None else "session_id",
            )
        if choice.provider.model_backed:
            fields, model = await self._by_model(choice, turns, data)
        else:
            # A long Session takes a while to read: off the event loop.
            fields, model = await off_loop(lambda: by_rules(turns)), choice.model
        # The draft's source is the scope it was asked for, the replies left out included.
        first, last = scope.turns[0].sequence_number, scope.turns[-1].sequence_number
        return CheckpointDraft(
            message=fields.message or f"Checkpoint from Turns {first}–{last}",
            summary=fields.summary,
            decisions=fields.decisions,
            assumptions=fields.assumptions,
            tasks=[Task(text=t.text, done=t.done) for t in fields.tasks],
            open_questions=fields.open_questions,
            entities=[Entity(name=e.name, kind=e.kind, description=e.description) for e in fields.entities],
            source=DraftSource(session_id=data.session_id, from_seq=first, to_seq=last),
            drafted_by=DraftedBy(provider=choice.provider.name, model=model),
        )

    async def _by_model(
        self, choice: ProviderChoice, turns: Sequence[SourceTurn], data: DraftRequest
    ) -> tuple[DraftFields, str]:
        request = await json_request(
            choice,
            self.providers.context_window(choice.model),
            system=DRAFT_INSTRUCTIONS,
            content=render_transcript(turns),
            answer=DraftFields,
            name=DRAFT_SCHEMA_NAME,
            too_big=_TOO_BIG,
        )
        reply, _ = await complete_remembered(self.turns, choice, request, data.session_id, asked=data.model)
        try:
            return cleaned(decode_answer(reply.content, DraftFields)), reply.model
        except UnusableOutput as exc:
            raise unusable(choice, "the draft is not a usable Checkpoint", exc, reply, request.max_tokens) from None


def by_rules(turns: Sequence[SourceTurn]) -> DraftFields:
    """The rule-based draft of these Turns."""
    found = extract([SourceTurn(t.sequence_number, t.role, t.content.strip()) for t in turns])
    return cleaned(
        DraftFields(
            message=found.message,
            summary=found.summary,
            decisions=found.decisions,
            assumptions=found.assumptions,
            tasks=[DraftTask(text, done) for text, done in found.tasks],
            open_questions=found.open_questions,
            entities=[DraftEntity(name, kind) for name, kind in found.entities],
        )
    )
