"""Whether the work of a Checkpoint mentions an entity: the disconnected-entity rule's question.

"Mentions" is read generously, because reporting a connected entity as disconnected is the costly
mistake: "Postgres 16" mentions PostgreSQL, "Ana's team" mentions Ana, "the castle" mentions São
Jorge Castle (a name's last word is its head). It is still read as words, so "bananas" does not
mention Ana.

Every entity is asked at once, against words indexed once, so the cost follows the size of the
Checkpoint, not entities × items: asking each entity of the whole text in turn took 19 s at 417 KB
(issue 42). A name is mentioned when
- it appears as whole words (`phrases`: one pass over the text for all names);
- or each of its words, stemmed, is one of the text's ("Ana's team" for Ana);
- or, one word, it is a shorter or longer form of a word of the text ("postgres" for
  "postgresql", not "java" for "javascript": the shorter is at least 70% of the longer);
- or, several words, its last (its head) is one of the text's words, stemmed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

from smriti.review import phrases
from smriti.rules.words import STOPWORDS, stem

_TOKEN = re.compile(r"[^\W_][\w'’+#./-]*")
_RUN = re.compile(r"\w+")
_ALIAS_SHARE = 0.7


def _tokens(text: str) -> list[str]:
    return [token.rstrip(".") for token in _TOKEN.findall(text.casefold())]


class Mentions:
    """The words of a Checkpoint's items, to ask of entities whether they mention them."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._text = "\n".join(texts).casefold()
        tokens = set(_tokens(self._text))
        self._stems = {stem(token) for token in tokens}
        self._long = {token for token in tokens if len(token) >= 4}
        self._long_lengths = sorted({len(token) for token in self._long})

    def mentioned(self, names: Sequence[str]) -> list[bool]:
        """For each name, whether the items mention it."""
        asked = [name.casefold().strip() for name in names]
        verdicts = {name: self._by_words(name) for name in dict.fromkeys(asked)}
        aliases = self._aliases({words[0] for words in verdicts.values() if isinstance(words, list)})
        for name, words in verdicts.items():
            if isinstance(words, list):
                verdicts[name] = words[0] in aliases
        unsettled = [name for name, verdict in verdicts.items() if not verdict]
        if unsettled:
            # Only a name whose every run of word characters the text has can occur in it as a phrase.
            runs = set(_RUN.findall(self._text))
            unsettled = [name for name in unsettled if runs.issuperset(_RUN.findall(name))]
        if unsettled:
            for name, whole in zip(unsettled, phrases.occurring(self._text, unsettled), strict=True):
                verdicts[name] = whole
        return [bool(verdicts[name]) for name in asked]

    def _by_words(self, name: str) -> bool | list[str]:
        """What the words alone say: True (mentioned), False (not, unless as a phrase), or the one
        word whose shorter or longer forms decide."""
        if not name:
            return True
        words = [w for w in _tokens(name) if w not in STOPWORDS and w != "&"]
        if not words:
            return False
        if all(stem(w) in self._stems for w in words):
            return True
        if len(words) == 1:
            return [words[0]] if len(words[0]) >= 4 else False
        return len(words[-1]) >= 4 and stem(words[-1]) in self._stems

    def _aliases(self, words: set[str]) -> set[str]:
        """The words of `words` that a word of the text is a shorter or longer form of: the shorter
        begins the longer and is at least 70% of it. Found by the lengths that can match, so each
        word and each text word is looked at a bounded number of times, not once per other."""
        found = set()
        lengths = self._long_lengths
        for word in words:  # a text word that begins `word`: one of its prefixes
            start = bisect.bisect_left(lengths, int(_ALIAS_SHARE * len(word)))
            end = bisect.bisect_right(lengths, len(word))
            if any(k >= _ALIAS_SHARE * len(word) and word[:k] in self._long for k in lengths[start:end]):
                found.add(word)
        rest = words - found
        rest_lengths = sorted({len(word) for word in rest})
        for token in self._long if rest else ():  # `word` begins a longer text word
            start = bisect.bisect_left(rest_lengths, int(_ALIAS_SHARE * len(token)))
            end = bisect.bisect_left(rest_lengths, len(token))
            found.update(
                token[:k] for k in rest_lengths[start:end] if k >= _ALIAS_SHARE * len(token) and token[:k] in rest
            )
        return found
