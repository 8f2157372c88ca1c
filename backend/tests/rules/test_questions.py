"""When a decision answers a question, read once per item (issue 42 item 12: a review compares
300 questions with 300 decisions, and each was read again for every pair), held to the reading it
replaced: the same score for every pair."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.rules.questions import _ASKING, _TOKEN, _WH, Asked, Said, _alternatives, answer_score
from smriti.rules.words import stems

_SPECIFIC = re.compile(r"(?<!^)\b(?:[A-ZÀ-ÖØ-Þ][\w'’-]*|\d[\w,.:-]*)")
BENCH = Path(__file__).resolve().parents[3] / "bench" / "draft"


def reference_score(decision: str, question: str) -> float:
    """`answer_score` as it was, on the two texts."""
    said = frozenset(stems(decision))
    alternatives = tuple(frozenset(side) for side in _alternatives(question))
    asked, wh = frozenset(stems(question)) - _ASKING, bool(_WH.match(question.strip()))
    shared = said & asked
    if not shared:
        return 0.0
    closeness = len(shared) / len(said | asked)
    rest = asked.difference(*alternatives)
    for side in alternatives:
        if side <= said or (2 * len(side & said) >= len(side) and rest & said):
            return 2.0 + closeness
    if shared == asked:
        return 1.0 + closeness
    written = {token.lower() for token in _TOKEN.findall(question)}
    specific = any(token.lower() not in written for token in _SPECIFIC.findall(decision.strip()))
    if wh and 2 * len(shared) >= len(asked) and (len(shared) >= 2 or specific):
        return 1.0 + closeness
    return 0.0


def _bench_items(field: str) -> list[str]:
    items: list[str] = []
    for name in ("review_tune.json", "review_holdout.json"):
        for case in json.loads((BENCH / name).read_text())["checkpoints"]:
            items += case["checkpoint"].get(field, [])
    return items


def test_every_decision_and_question_of_the_bench_scores_as_before() -> None:
    decisions, questions = _bench_items("decisions"), _bench_items("open_questions")
    asked = [Asked.of(question) for question in questions]
    for decision in decisions:
        said = Said.of(decision)
        for question, reading in zip(questions, asked, strict=True):
            assert answer_score(said, reading) == reference_score(decision, question), (decision, question)


_WORDS = st.sampled_from(
    "Which which when Do we stay in Baixa or Alfama rent a car take the train Sintra 14th move "
    "buy travel insurance need 3 nights book hotel Porto near station, ? or Or".split()
)


@settings(max_examples=500, deadline=None)
@given(decision=st.lists(_WORDS, min_size=1, max_size=8), question=st.lists(_WORDS, min_size=1, max_size=10))
def test_any_decision_and_question_score_as_before(decision: list[str], question: list[str]) -> None:
    said, asked = " ".join(decision), " ".join(question) + "?"
    assert answer_score(Said.of(said), Asked.of(asked)) == reference_score(said, asked)
