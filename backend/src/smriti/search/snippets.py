"""ts_headline's marked-up excerpt as plain text with the offsets of the words it marked."""

from __future__ import annotations

import re

_MARKS = re.compile("([\x02\x03])")
_SPACES = re.compile(r"\s+")


def plain_snippet(headline: str) -> tuple[str, list[tuple[int, int]]]:
    """The text with its marks taken out and each run of white space made one space, and the
    `[start, end)` offsets (code points) of what was marked, so no client has to parse markup."""
    text: list[str] = []
    highlights: list[tuple[int, int]] = []
    length = 0
    start: int | None = None
    for piece in _MARKS.split(headline):
        if piece == "\x02":
            start = length
        elif piece == "\x03":
            if start is not None and length > start:
                highlights.append((start, length))
            start = None
        elif piece:
            words = _SPACES.sub(" ", piece)
            if text and text[-1].endswith(" ") and words.startswith(" "):
                words = words[1:]
            text.append(words)
            length += len(words)
    joined = "".join(text)
    stripped = joined.lstrip()
    shift = len(joined) - len(stripped)
    snippet = stripped.rstrip()
    return snippet, [(max(0, a - shift), min(len(snippet), b - shift)) for a, b in highlights if b - shift > 0]
