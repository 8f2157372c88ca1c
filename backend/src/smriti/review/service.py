"""On-demand review: deterministic rules first, then what a model can add, merged without duplicates.

The rules always run (`review/rules.py`); with a model-backed provider, the model's findings are
added to theirs. The built-in provider has no model, so its review is the rules' alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import structlog

from smriti.checkpoints.schemas import Checkpoint
from smriti.checkpoints.store import CheckpointStore
from smriti.checkpoints.text import entity_text
from smriti.core.cpu import off_loop
from smriti.core.text import is_blank, storable
from smriti.providers.registry import ProviderChoice, ProviderRegistry
from smriti.providers.structured import TooBig, UnusableOutput, decode_answer, json_request, unusable
from smriti.review.rules import review_by_rules
from smriti.review.schemas import Finding, FindingKind, ItemRef, ReviewedBy, ReviewRequest, ReviewResult

log = structlog.get_logger(__name__)

REVIEW_SCHEMA_NAME = "checkpoint_review"

REVIEW_INSTRUCTIONS = """You review a saved Checkpoint of someone's reasoning for the problems a careful colleague
would raise.

Report only findings of these kinds, each pointing at the items involved by field and index:
- contradiction: two decisions, or a decision and an assumption, that cannot both hold;
- hidden_assumption: a decision that relies on something that is neither a decision nor an assumption;
- resolved_question: an open question that a decision already answers;
- disconnected_entity: an entity that no decision, assumption, task or open question mentions.

Be specific and brief in `detail`: say what is wrong and what the person could do. Report nothing you are
not confident about; an empty list is a fine answer. Answer with one JSON object matching the schema."""


class _ModelFinding(msgspec.Struct):
    """What a model must return (its JSON schema is derived from these)."""

    kind: FindingKind
    detail: str
    refs: list[ItemRef]


class _ModelReview(msgspec.Struct):
    findings: list[_ModelFinding]


def render_checkpoint(checkpoint: Checkpoint) -> str:
    lines = [f"Checkpoint: {checkpoint.message}"]
    if checkpoint.summary:
        lines.append(f"Summary: {checkpoint.summary}")
    lines += [f"decisions[{i}]: {text}" for i, text in enumerate(checkpoint.decisions)]
    lines += [f"assumptions[{i}]: {text}" for i, text in enumerate(checkpoint.assumptions)]
    lines += [f"tasks[{i}]: {task.text}{' (done)' if task.done else ''}" for i, task in enumerate(checkpoint.tasks)]
    lines += [f"open_questions[{i}]: {text}" for i, text in enumerate(checkpoint.open_questions)]
    lines += [f"entities[{i}]: {entity_text(e)}" for i, e in enumerate(checkpoint.entities)]
    return "\n".join(lines)


def _valid_ref(checkpoint: Checkpoint, ref: ItemRef) -> bool:
    return 0 <= ref.index < len(getattr(checkpoint, ref.field))


def merge(rule_findings: list[Finding], model_findings: list[Finding]) -> list[Finding]:
    """Rules first; a model finding is kept only if no finding of its kind covers the same items."""
    merged = list(rule_findings)
    seen = {(f.kind, frozenset(f.refs)) for f in rule_findings}
    for finding in model_findings:
        key = (finding.kind, frozenset(finding.refs))
        if key not in seen:
            seen.add(key)
            merged.append(finding)
    return merged


_TOO_BIG = TooBig(
    what="Reviewing this Checkpoint",
    then="Nothing was sent. A review reads the whole Checkpoint: choose a model with a larger window.",
    field="model",
)


@dataclass(frozen=True, slots=True)
class ReviewService:
    checkpoints: CheckpointStore
    providers: ProviderRegistry

    async def review(self, ref: str, data: ReviewRequest) -> ReviewResult:
        return await self.review_state(await self.checkpoints.get(ref), data)

    async def review_state(self, checkpoint: Checkpoint, data: ReviewRequest) -> ReviewResult:
        """The review of a Checkpoint's state, saved or not (a merge is reviewed before it is)."""
        choice = self.providers.choose(data.provider, data.model)
        # Pairwise rules over a large Checkpoint take a while: off the event loop.
        findings, limits = await off_loop(lambda: review_by_rules(checkpoint))
        if choice.provider.model_backed:
            findings = merge(findings, await self._model_findings(choice, checkpoint))
        return ReviewResult(
            commit_id=checkpoint.id,
            findings=findings,
            reviewed_by=ReviewedBy(provider=choice.provider.name, model=choice.model),
            limits=limits,
        )

    async def _model_findings(self, choice: ProviderChoice, checkpoint: Checkpoint) -> list[Finding]:
        request = await json_request(
            choice,
            self.providers.context_window(choice.model),
            system=REVIEW_INSTRUCTIONS,
            content=render_checkpoint(checkpoint),
            answer=_ModelReview,
            name=REVIEW_SCHEMA_NAME,
            too_big=_TOO_BIG,
        )
        reply = await choice.provider.complete(request)
        try:
            parsed = decode_answer(reply.content, _ModelReview)
        except UnusableOutput as exc:
            raise unusable(choice, "the review is not usable", exc, reply, request.max_tokens) from None
        kept = []
        for finding in parsed.findings:
            refs = list(dict.fromkeys(finding.refs))
            detail = storable(finding.detail).strip()
            if refs and all(_valid_ref(checkpoint, ref) for ref in refs) and not is_blank(detail):
                kept.append(Finding(kind=finding.kind, detail=detail, refs=refs, source="model"))
            else:
                log.info("dropped a model finding that points at no item", kind=finding.kind)
        return kept
