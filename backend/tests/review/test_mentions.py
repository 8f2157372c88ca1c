"""The disconnected-entity rule's reading of "mentions", held to the one it replaced (issue 42 item
12): the same answer for every name, from an index built once instead of a search of the whole
text per entity, and a cost that follows the Checkpoint's size instead of entities × items."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.review import phrases
from smriti.review.mentions import Mentions
from smriti.rules.words import STOPWORDS, stem


class ReferenceMentions:
    """The rule as it was before issue 42 (one regular-expression search and one scan of the long
    words per entity), kept as the yardstick."""

    _TOKEN = re.compile(r"[^\W_][\w'’+#./-]*")

    def __init__(self, texts: Iterable[str]) -> None:
        self._text = "\n".join(texts).casefold()
        tokens = self._tokens(self._text)
        self._stems = {stem(token) for token in tokens}
        self._long = {token for token in tokens if len(token) >= 4}

    @classmethod
    def _tokens(cls, text: str) -> list[str]:
        return [token.rstrip(".") for token in cls._TOKEN.findall(text.casefold())]

    def _alias(self, word: str) -> bool:
        for token in self._long:
            shorter, longer = sorted((token, word), key=len)
            if longer.startswith(shorter) and len(shorter) >= 0.7 * len(longer):
                return True
        return False

    def mention(self, name: str) -> bool:
        name = name.casefold().strip()
        if not name:
            return True
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", self._text):
            return True
        words = [w for w in self._tokens(name) if w not in STOPWORDS and w != "&"]
        if not words:
            return False
        if all(stem(w) in self._stems for w in words):
            return True
        if len(words) == 1:
            return len(words[0]) >= 4 and self._alias(words[0])
        head = words[-1]
        return len(head) >= 4 and stem(head) in self._stems


# Pieces that collide on purpose: stems, prefixes at the 70% line, stopwords, code-like names,
# characters that casefold to others (ß → ss, İ → i̇), joiners the tokens keep ('’+#./-) and others.
_WORDS = (
    "ana",
    "Ana's",
    "bananas",
    "postgres",
    "PostgreSQL",
    "postgresq",
    "java",
    "javascript",
    "castle",
    "São",
    "Jorge",
    "the",
    "of",
    "team",
    "teams",
    "c",
    "C++",
    "c#",
    ".NET",
    "node.js",
    "node",
    "js",
    "strasse",
    "STRASSE",
    "straße",
    "İstanbul",
    "under_score",
    "x1",
    "16",
    "a",
    "&",
    "abcd",
    "abcdef",
    "abcdefg",
)
_GLUE = (" ", " ", "-", ".", "/", "'", "’", "+", "#", ", ", "\n", "_", "(", ")", "")


@st.composite
def phrase(draw: st.DrawFn, max_words: int = 4) -> str:
    """Words of `_WORDS` joined by pieces of `_GLUE`, sometimes with glue at either end."""
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=max_words))
    glue = draw(st.lists(st.sampled_from(_GLUE), min_size=len(words) + 1, max_size=len(words) + 1))
    text = "".join(word + sep for word, sep in zip(words, [*glue[1:-1], ""], strict=True))
    return (glue[0] if draw(st.booleans()) else "") + text + (glue[-1] if draw(st.booleans()) else "")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(phrase(8), max_size=6), names=st.lists(phrase(3), min_size=1, max_size=12))
def test_every_name_gets_the_answer_of_the_search_it_replaced(texts: list[str], names: list[str]) -> None:
    reference = ReferenceMentions(texts)
    assert Mentions(texts).mentioned(names) == [reference.mention(name) for name in names]


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab +.-_\n", max_size=60),
    wanted=st.lists(st.text(alphabet="ab +.-_", min_size=1, max_size=8), min_size=1, max_size=8),
)
def test_phrases_occur_exactly_where_the_regular_expression_finds_them(text: str, wanted: list[str]) -> None:
    found = phrases.occurring(text, wanted)
    assert found == [re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) is not None for w in wanted]


def test_phrases_past_one_automaton_are_found_in_further_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    text = " ".join(f"w{i}" for i in range(3_000))
    wanted = [f"w{i} w{i + 1}" for i in range(0, 3_000, 2)] + ["w5 w4", " ".join(f"w{i}" for i in range(100, 900))]
    expected = [True] * 1_500 + [False, True]
    assert phrases.occurring(text, wanted) == expected
    monkeypatch.setattr(phrases, "MAX_STATES", 50)  # many automata, and one phrase longer than any
    assert phrases.occurring(text, wanted) == expected


def _cpu(run: Callable[[], object]) -> float:
    """The least CPU time of three runs: this process's own, so other work on the machine weighs little."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def test_the_cost_follows_the_size_not_entities_times_items() -> None:
    """Four times the entities and four times the items: about four times the work, where the
    search per entity took sixteen. A ratio of two runs in one process, not a time: the machine's
    speed cancels out (bench/review_cost.py measures the time itself)."""

    def ask(scale: int) -> Callable[[], object]:
        items = [f"Task {i}: write the notes for section-{i} and send them on" for i in range(1_000 * scale)]
        # Settled by their words; by none of the text's tokens; by the phrases' automaton (not there).
        names = [f"Notes {i}" for i in range(100 * scale)] + [f"Supplier {i}x" for i in range(100 * scale)]
        names += [f"section-{i}-and-more" for i in range(100 * scale)]
        return lambda: Mentions(items).mentioned(names)

    small, large = _cpu(ask(1)), _cpu(ask(4))
    assert large / small < 8, (small, large)
