"""Deterministic review checks. They run first and always; a model can only add to them.

Each check is deliberately narrow, so that what it reports is worth a person's attention:
- contradiction: a decision and another decision or an assumption that say opposite things
  (one negates the other, uses an antonym, or picks a different option for the same purpose);
- hidden_assumption: a decision justified by something ("because…", "as long as…") that is
  recorded neither as a decision nor as an assumption;
- resolved_question: an open question that a decision already answers;
- disconnected_entity: an entity nothing else in the Checkpoint mentions.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from smriti.checkpoints.schemas import Checkpoint
from smriti.review.schemas import Finding, ItemRef
from smriti.rules.words import STOPWORDS, answers, content_words

_NEGATIONS = frozenset(
    "not no never don't doesn't won't shouldn't can't cannot avoid without skip stop drop against".split()
)
# Word pairs that flip a statement's meaning: "Send emails synchronously" vs "… asynchronously".
_ANTONYM_PAIRS = (
    "sync/async synchronous/asynchronous synchronously/asynchronously enable/disable enabled/disabled "
    "include/exclude allow/deny permit/forbid increase/decrease always/never required/optional "
    "public/private online/offline accept/reject add/remove open/closed "
    "maximum/minimum early/late monolith/microservices manual/automatic manually/automatically cheap/expensive"
).split()
# Each word maps to the first of its pair; the second words are the ones that flip polarity.
_CANONICAL = {word: pair.split("/")[0] for pair in _ANTONYM_PAIRS for word in pair.split("/")}

_CHOICE = re.compile(
    r"^(?P<verb>use|choose|pick|go with|adopt|stay (?:at|in)|host (?:on|at)|deploy (?:to|on)|fly (?:to|with)|"
    r"book|store (?:\w+ )?in) (?P<option>.+?) (?P<link>for|as) (?P<purpose>.+)$",
    re.IGNORECASE,
)
_RELIANCE = re.compile(
    r"\b(?P<cue>because|since|as long as|assuming|given that|provided that|relies on|depends on|"
    r"which requires|only if|if)\b(?P<clause>[^.;]+)",
    re.IGNORECASE,
)


MAX_COMPARED = 300
"""Items per field the pairwise rules compare: 300 decisions and 300 assumptions are ~135,000
pairs, well under a second; a Checkpoint's size is bounded only by the body limit."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9'+#.-]*", text.lower())


@functools.lru_cache(maxsize=4096)
def _polarity(text: str) -> tuple[frozenset[str], bool]:
    """The statement's content words with antonyms folded together, and whether it is negated."""
    negated = False
    core: set[str] = set()
    for word in _words(text):
        if word in _NEGATIONS or word.endswith("n't"):
            negated = not negated
        elif word in _CANONICAL:
            core.add(_CANONICAL[word])
            if word != _CANONICAL[word]:
                negated = not negated
        elif word not in STOPWORDS:
            core.add(word)
    return frozenset(core), negated


def _similar(left: frozenset[str], right: frozenset[str]) -> bool:
    if len(left) < 2 or len(right) < 2:
        return False
    return len(left & right) / len(left | right) >= 0.75


def _contradicts(left: str, right: str) -> str | None:
    (left_core, left_negated), (right_core, right_negated) = _polarity(left), _polarity(right)
    if left_negated != right_negated and _similar(left_core, right_core):
        return "says the opposite of"
    left_choice, right_choice = _CHOICE.match(left.strip(" .")), _CHOICE.match(right.strip(" ."))
    if left_choice and right_choice:
        same_purpose = content_words(left_choice["purpose"]) == content_words(right_choice["purpose"])
        same_verb = left_choice["verb"].lower() == right_choice["verb"].lower()
        if same_verb and same_purpose and content_words(left_choice["option"]) != content_words(right_choice["option"]):
            return f"picks a different option for the same purpose (“{right_choice['purpose']}”) than"
    return None


def _quote(text: str, limit: int = 90) -> str:
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"


def contradictions(checkpoint: Checkpoint) -> Iterator[Finding]:
    decisions = checkpoint.decisions[:MAX_COMPARED]
    assumptions = checkpoint.assumptions[:MAX_COMPARED]
    pairs = [(("decisions", i), ("decisions", j)) for i in range(len(decisions)) for j in range(i + 1, len(decisions))]
    pairs += [(("decisions", i), ("assumptions", j)) for i in range(len(decisions)) for j in range(len(assumptions))]
    for (left_field, i), (right_field, j) in pairs:
        left, right = getattr(checkpoint, left_field)[i], getattr(checkpoint, right_field)[j]
        how = _contradicts(right, left)
        if how:
            yield Finding(
                kind="contradiction",
                detail=(
                    f"{_label(right_field, j)} {_quote(right)} {how} {_label(left_field, i).lower()} {_quote(left)}. "
                    "Both cannot hold: keep one, or say when each applies."
                ),
                refs=[ItemRef(left_field, i), ItemRef(right_field, j)],  # type: ignore[arg-type]
                source="rules",
            )


def hidden_assumptions(checkpoint: Checkpoint) -> Iterator[Finding]:
    recorded = [
        content_words(text) for text in [*checkpoint.assumptions[:MAX_COMPARED], *checkpoint.decisions[:MAX_COMPARED]]
    ]
    for index, decision in enumerate(checkpoint.decisions[:MAX_COMPARED]):
        for match in _RELIANCE.finditer(decision):
            clause = match["clause"].strip(" ,")
            words = content_words(clause)
            if len(words) < 2:
                continue
            own = content_words(decision)
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
    decision_words = [content_words(decision) for decision in checkpoint.decisions[:MAX_COMPARED]]
    for q_index, question in enumerate(checkpoint.open_questions[:MAX_COMPARED]):
        for d_index, words in enumerate(decision_words):
            decision = checkpoint.decisions[d_index]
            if answers(words, question):
                yield Finding(
                    kind="resolved_question",
                    detail=(
                        f"Open question {q_index + 1} {_quote(question)} looks answered by decision {d_index + 1} "
                        f"{_quote(decision)}. Remove it from the open questions, or say why it is still open."
                    ),
                    refs=[ItemRef("open_questions", q_index), ItemRef("decisions", d_index)],
                    source="rules",
                )
                break


def disconnected_entities(checkpoint: Checkpoint) -> Iterator[Finding]:
    texts = [
        *checkpoint.decisions,
        *checkpoint.assumptions,
        *(t.text for t in checkpoint.tasks),
        *checkpoint.open_questions,
    ]
    haystack = "\n".join(texts).casefold()
    words = set(_words(haystack))
    for index, entity in enumerate(checkpoint.entities):
        name = entity.name.casefold()
        name_words = set(_words(name))
        if name in haystack or (name_words and name_words <= words):
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


def run_rules(checkpoint: Checkpoint) -> list[Finding]:
    return [
        *contradictions(checkpoint),
        *hidden_assumptions(checkpoint),
        *resolved_questions(checkpoint),
        *disconnected_entities(checkpoint),
    ]
