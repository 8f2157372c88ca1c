"""Deterministic review checks. They run first and always; a model can only add to them.

Each check is deliberately narrow, so that what it reports is worth a person's attention:
- contradiction: a decision and another decision or an assumption that make rival choices (one
  negates the other, takes up an option the other rules out, or gives the same slot another
  value: `rivals`, which the merge preview uses too);
- hidden_assumption: a decision justified by something ("because…", "as long as…") that is
  recorded neither as a decision nor as an assumption;
- resolved_question: an open question that a decision already answers (`rules.questions`);
- disconnected_entity: an entity nothing else in the Checkpoint mentions (`mentions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from smriti.checkpoints.schemas import Checkpoint
from smriti.review.mentions import Mentions
from smriti.review.rivals import MAX_CLAUSE_COMPARISONS, MAX_COMPARED, ClauseBudget, rivals
from smriti.review.schemas import Finding, ItemRef
from smriti.rules.questions import Asked, Said, answer_score
from smriti.rules.words import stems

_RELIANCE = re.compile(
    r"\b(?P<cue>because|since|as long as|assuming|given that|provided that|relies on|depends on|"
    r"which requires|on the assumption that|counting on|trusting that)\b(?P<clause>[^.;]+)",
    re.IGNORECASE,
)
# "since 2019", "since March": time, not a reason. (A bare "if" is a condition to act on, not an
# assumption: "Roll back if the error rate doubles" relies on nothing unstated.)
_SINCE_WHEN = re.compile(
    r"^\s*(?:\d|the (?:start|beginning|launch)|last\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.IGNORECASE,
)


__all__ = ["MAX_CLAUSE_COMPARISONS", "MAX_COMPARED", "ClauseBudget", "review_by_rules", "run_rules"]


def _quote(text: str, limit: int = 90) -> str:
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"


def contradictions(checkpoint: Checkpoint, budget: ClauseBudget) -> Iterator[Finding]:
    for rival in rivals(checkpoint.decisions, checkpoint.assumptions, budget):
        yield Finding(kind="contradiction", detail=rival.detail, refs=rival.refs, source="rules", rival=rival.kind)


def hidden_assumptions(checkpoint: Checkpoint) -> Iterator[Finding]:
    recorded = [stems(text) for text in [*checkpoint.assumptions[:MAX_COMPARED], *checkpoint.decisions[:MAX_COMPARED]]]
    for index, decision in enumerate(checkpoint.decisions[:MAX_COMPARED]):
        own = stems(decision)
        for match in _RELIANCE.finditer(decision):
            clause = match["clause"].strip(" ,")
            words = stems(clause)
            if len(words) < 2 or (match["cue"].lower() == "since" and _SINCE_WHEN.match(clause)):
                continue
            covered = any(other != own and len(words & other) / len(words) >= 0.5 for other in recorded)
            if not covered:
                yield Finding(
                    kind="hidden_assumption",
                    detail=(
                        f"Decision {index + 1} relies on {_quote(clause)} (“{match['cue'].lower()} …”), which is "
                        "neither a decision nor an assumption. Record it as an assumption, or question it."
                    ),
                    refs=[ItemRef("decisions", index)],
                    source="rules",
                )
                break


def resolved_questions(checkpoint: Checkpoint) -> Iterator[Finding]:
    decisions = checkpoint.decisions[:MAX_COMPARED]
    said = [Said.of(text) for text in decisions]
    for q_index, question in enumerate(checkpoint.open_questions[:MAX_COMPARED]):
        asked = Asked.of(question)
        # The decision that answers it most closely: "Move on the 14th" for "When do we move?",
        # not the first decision that happens to say "move".
        score, d_index = max(((answer_score(d, asked), i) for i, d in enumerate(said)), default=(0.0, 0))
        if score > 0:
            yield Finding(
                kind="resolved_question",
                detail=(
                    f"Open question {q_index + 1} {_quote(question)} looks answered by decision {d_index + 1} "
                    f"{_quote(decisions[d_index])}. Remove it from the open questions, or say why it is still open."
                ),
                refs=[ItemRef("open_questions", q_index), ItemRef("decisions", d_index)],
                source="rules",
            )


def disconnected_entities(checkpoint: Checkpoint) -> Iterator[Finding]:
    if not checkpoint.entities:
        return
    mentions = Mentions(
        [
            *checkpoint.decisions,
            *checkpoint.assumptions,
            *(t.text for t in checkpoint.tasks),
            *checkpoint.open_questions,
        ]
    )
    mentioned = mentions.mentioned([entity.name for entity in checkpoint.entities])
    for index, (entity, connected) in enumerate(zip(checkpoint.entities, mentioned, strict=True)):
        if connected:
            continue
        yield Finding(
            kind="disconnected_entity",
            detail=(
                f"Entity {_quote(entity.name)} is not mentioned by any decision, assumption, task or open question. "
                "Connect it to the work, or remove it."
            ),
            refs=[ItemRef("entities", index)],
            source="rules",
        )


def limits_reached(checkpoint: Checkpoint) -> list[str]:
    """What the rules did not compare, said plainly rather than left out in silence."""
    over = [
        f"{len(items):,} {name}"
        for name, items in (
            ("decisions", checkpoint.decisions),
            ("assumptions", checkpoint.assumptions),
            ("open questions", checkpoint.open_questions),
        )
        if len(items) > MAX_COMPARED
    ]
    if not over:
        return []
    return [
        f"This Checkpoint has {' and '.join(over)}: the rules compared the first {MAX_COMPARED} of each "
        "(items are compared in pairs, so every further item costs as much as all the others together)."
    ]


def review_by_rules(checkpoint: Checkpoint) -> tuple[list[Finding], list[str]]:
    """The rules' findings, and what they did not compare (`limits`), in words."""
    budget = ClauseBudget()
    findings = [
        *contradictions(checkpoint, budget),
        *hidden_assumptions(checkpoint),
        *resolved_questions(checkpoint),
        *disconnected_entities(checkpoint),
    ]
    return findings, [*limits_reached(checkpoint), *budget.limits()]


def run_rules(checkpoint: Checkpoint) -> list[Finding]:
    return review_by_rules(checkpoint)[0]
