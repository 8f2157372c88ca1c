"""Whether the work of a Checkpoint mentions an entity: the disconnected-entity rule's question.

"Mentions" is read generously, because reporting a connected entity as disconnected is the costly
mistake: "Postgres 16" mentions PostgreSQL, "Ana's team" mentions Ana, "the castle" mentions São
Jorge Castle (a name's last word is its head). It is still read as words, so "bananas" does not
mention Ana.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from smriti.rules.words import STOPWORDS, stem

_TOKEN = re.compile(r"[^\W_][\w'’+#./-]*")


def _tokens(text: str) -> list[str]:
    return [token.rstrip(".") for token in _TOKEN.findall(text.casefold())]


class Mentions:
    """The words of a Checkpoint's items, to ask of each entity whether they mention it."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._text = "\n".join(texts).casefold()
        tokens = _tokens(self._text)
        self._stems = {stem(token) for token in tokens}
        self._long = {token for token in tokens if len(token) >= 4}

    def _alias(self, word: str) -> bool:
        """A shorter or longer form of one name: "postgres" for "postgresql", not "java" for "javascript"."""
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
        words = [w for w in _tokens(name) if w not in STOPWORDS and w != "&"]
        if not words:
            return False
        if all(stem(w) in self._stems for w in words):
            return True
        if len(words) == 1:
            return len(words[0]) >= 4 and self._alias(words[0])
        head = words[-1]
        return len(head) >= 4 and stem(head) in self._stems
