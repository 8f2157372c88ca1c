"""Deterministic review checks. They run first and always; a model can only add to them.

Each check is deliberately narrow, so that what it reports is worth a person's attention:
- contradiction: a decision and another decision or an assumption that say opposite things
  (one negates the other, uses an antonym, takes up an option the other rules out, or picks a
  different option for the same purpose: `statements`);
- hidden_assumption: a decision justified by something ("because…", "as long as…") that is
  recorded neither as a decision nor as an assumption;
- resolved_question: an open question that a decision already answers (`rules.questions`);
- disconnected_entity: an entity nothing else in the Checkpoint mentions (`mentions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from smriti.checkpoints.schemas import Checkpoint
from smriti.core.cpu import keep_going
from smriti.review.mentions import Mentions
from smriti.review.schemas import Finding, ItemRef
from smriti.review.statements import contradicts, statement
from smriti.review.statements import cost as comparison_cost
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


MAX_COMPARED = 300
"""Items per field the pairwise rules compare: 300 decisions and 300 assumptions are ~135,000
pairs, well under a second; a Checkpoint's size is bounded only by the body limit."""

MAX_CLAUSE_COMPARISONS = 5_000_000
"""What the contradiction rule may compare in all, in clauses (`statements.cost`). The item cap
bounds the pairs, not what one pair costs: two decisions of a hundred clauses each are ten
thousand clause comparisons, and 300 decisions of twenty took 22 s at 340 KB (issue 42). The other
rules cost at most `MAX_COMPARED` set look-ups per word of the Checkpoint; this one alone grows
with clauses × clauses. Ordinary Checkpoints at the item cap spend a tenth of it
(`bench/review_cost.py`); about a second of work on this machine when spent."""


@dataclass(slots=True)
class ClauseBudget:
    """What the contradiction rule has left to compare, and where it stopped if it ran out."""

    left: int = MAX_CLAUSE_COMPARISONS
    stopped: tuple[int, int] | None = None
    """(pairs compared, pairs in all) when it ran out."""

    def limits(self) -> list[str]:
        if self.stopped is None:
            return []
        compared, total = self.stopped
        return [
            f"The contradiction rule compared {compared:,} of {total:,} pairs of decisions and assumptions, then "
            f"stopped: its {MAX_CLAUSE_COMPARISONS:,} clause comparisons were spent (a pair costs its items' "
            "clauses multiplied, so long items of many clauses cost most). Split such items to have every pair "
            "compared."
        ]


def _quote(text: str, limit: int = 90) -> str:
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"


def contradictions(checkpoint: Checkpoint, budget: ClauseBudget) -> Iterator[Finding]:
    decisions = [statement(text) for text in checkpoint.decisions[:MAX_COMPARED]]
    assumptions = [statement(text) for text in checkpoint.assumptions[:MAX_COMPARED]]
    read = {"decisions": decisions, "assumptions": assumptions}
    pairs = [(("decisions", i), ("decisions", j)) for i in range(len(decisions)) for j in range(i + 1, len(decisions))]
    pairs += [(("decisions", i), ("assumptions", j)) for i in range(len(decisions)) for j in range(len(assumptions))]
    for compared, ((left_field, i), (right_field, j)) in enumerate(pairs):
        if compared % 1024 == 0:
            keep_going()  # the rules' longest loop: a review ends when the server stops
        left, right = read[left_field][i], read[right_field][j]
        budget.left -= comparison_cost(right, left)
        if budget.left < 0:
            budget.stopped = (compared, len(pairs))
            return
        how = contradicts(right, left)
        if how:
            texts = getattr(checkpoint, left_field)[i], getattr(checkpoint, right_field)[j]
            yield Finding(
                kind="contradiction",
                detail=(
                    f"{_label(right_field, j)} {_quote(texts[1])} {how} {_label(left_field, i).lower()} "
                    f"{_quote(texts[0])}. Both cannot hold: keep one, or say when each applies."
                ),
                refs=[ItemRef(left_field, i), ItemRef(right_field, j)],  # type: ignore[arg-type]
                source="rules",
            )


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


def _label(field: str, index: int) -> str:
    return {"decisions": "Decision", "assumptions": "Assumption"}.get(field, field) + f" {index + 1}"


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
