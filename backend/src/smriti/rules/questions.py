"""When a decision settles a question. Drafting uses it to keep an answered question out of the
open ones; review uses it to report an open question that a decision already answers.

A wrong "answered" costs more than a missed one (review would tell someone to delete a question
that is still open), so each way of answering asks for real evidence:
- the decision contains all of the question's words ("Do we need travel insurance?" → "Buy
  travel insurance"), "need", "want" and the like aside;
- a wh-question ("which neighbourhood should we be staying in?") is answered by a decision that
  shares half of its words and adds the answer itself: a name or a number ("Stay in Baixa");
- "A or B": the decision picks one alternative as a whole; "Sintra" in "rent a car for Sintra or
  take the train" is not answered by "Do Sintra on day 3".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from smriti.rules.words import STOPWORDS, stem, stems

# Words a question uses to ask rather than to say what it is about.
_ASKING = frozenset(
    stem(word)
    for word in "need want get have worth really actually exactly ok okay yet still already even else one maybe".split()
)
_WH = re.compile(r"^(?:so,? |and |but |ok,? )?(?:which|what|where|when|how|who)\b", re.IGNORECASE)
_OR = re.compile(r"\bor\b", re.IGNORECASE)
_TOKEN = re.compile(r"[\w'’+#./-]+")
_STOP_AT = frozenset("around for in on at to with by from during before after".split())
_SPECIFIC = re.compile(r"(?<!^)\b(?:[A-ZÀ-ÖØ-Þ][\w'’-]*|\d[\w,.:-]*)")


@dataclass(frozen=True, slots=True)
class Said:
    """A decision, read once for every question it is compared with."""

    words: frozenset[str]
    specific: frozenset[str]
    """What it names (capitalised words and numbers past its first word), lower-cased."""

    @classmethod
    def of(cls, decision: str) -> Said:
        specific = frozenset(token.lower() for token in _SPECIFIC.findall(decision.strip()))
        return cls(frozenset(stems(decision)), specific)


@dataclass(frozen=True, slots=True)
class Asked:
    """A question, read once for every decision it is compared with: what it is about, its
    alternatives, whether it asks "which…?", and its words as written."""

    words: frozenset[str]
    alternatives: tuple[frozenset[str], ...]
    rest: frozenset[str]
    """Its words outside the alternatives."""
    wh: bool
    tokens: frozenset[str]

    @classmethod
    def of(cls, question: str) -> Asked:
        words = frozenset(stems(question)) - _ASKING
        alternatives = tuple(frozenset(side) for side in _alternatives(question))
        tokens = frozenset(token.lower() for token in _TOKEN.findall(question))
        return cls(words, alternatives, words.difference(*alternatives), bool(_WH.match(question.strip())), tokens)


def _alternatives(question: str) -> list[set[str]]:
    """The two sides of the question's first "A or B", as stems, each as wide as the right side."""
    match = _OR.search(question)
    if not match:
        return []
    right_text = re.split(r"[?,;:]", question[match.end() :], maxsplit=1)[0]
    right = _TOKEN.findall(right_text)
    # "anticlockwise around the Ring Road": the alternative ends where its complement starts.
    cut = next((i for i, token in enumerate(right) if i > 0 and token.lower() in _STOP_AT), len(right))
    right = right[:cut]
    left = _TOKEN.findall(re.split(r"[,;:]", question[: match.start()])[-1])[-len(right) :] if right else []
    sides = [{stem(t) for t in side if t.lower() not in STOPWORDS} for side in (left, right)]
    return sides if all(sides) else []


def answer_score(said: Said, asked: Asked) -> float:
    """How well the decision answers the question: 0 when it does not, higher for a closer answer."""
    shared = said.words & asked.words
    if not shared:
        return 0.0  # the common case on a large Checkpoint, and the cheapest to tell
    closeness = len(shared) / (len(said.words) + len(asked.words) - len(shared))  # the share of their union
    for side in asked.alternatives:
        if side <= said.words or (2 * len(side & said.words) >= len(side) and asked.rest & said.words):
            return 2.0 + closeness
    if shared == asked.words:
        return 1.0 + closeness
    # A "which…?" answered by a decision that names something the question does not.
    names_more = not said.specific <= asked.tokens
    if asked.wh and 2 * len(shared) >= len(asked.words) and (len(shared) >= 2 or names_more):
        return 1.0 + closeness
    return 0.0


def answers(decision: str, question: str) -> bool:
    return answer_score(Said.of(decision), Asked.of(question)) > 0
