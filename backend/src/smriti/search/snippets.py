"""ts_headline's marked-up excerpt as plain text with the offsets of the words it marked.

Its text is the one search parsed (`smriti_search_words`, migration 0018): each run of Chinese,
Japanese, Korean, Thai, … characters stands between EOT and ACK as its characters and their pairs
in turn, SOH between each (東京の: EOT 東 SOH 東京 SOH 京 SOH 京の SOH の ACK). A run is put back
from its characters; a pair shows only where an excerpt begins or ends on it. In a run, what is
highlighted is each place where one of the query's runs stands whole: ts_headline marks each of
their characters and pairs wherever it finds one (the の of 東京の in every の), and the parser
may read part of a piece only (Thai's tone marks are not letters to it).
"""

from __future__ import annotations

import re
from collections.abc import Collection

_START, _STOP = "\x02", "\x03"
_LINK, _OPEN, _EXCERPT, _CLOSE = "\x01", "\x04", "\x05", "\x06"
_STRUCTURE = re.compile("([\x01\x04\x05\x06])")
_MARKS = re.compile("([\x02\x03])")
_SPACES = re.compile(r"\s+")
_EXCERPTS_JOIN = " … "


def plain_snippet(headline: str, runs: Collection[str] = ()) -> tuple[str, list[tuple[int, int]]]:
    """The text with its marks taken out and each run of white space made one space, and the
    `[start, end)` offsets (code points) of what was marked, so no client has to parse markup.
    `runs`: the query's runs, as written."""
    snippet = _Snippet()
    pieces = _STRUCTURE.split(headline)
    for index, piece in enumerate(pieces):
        if piece == _EXCERPT:
            snippet.add(_EXCERPTS_JOIN)
        elif piece and piece not in (_LINK, _OPEN, _CLOSE):
            before, after = _beside(pieces, index, -1), _beside(pieces, index, 1)
            if before in (_OPEN, _LINK) or after in (_LINK, _CLOSE):
                snippet.add_from_run(piece, before == _LINK, after == _LINK)
            else:
                snippet.add_text(piece)
    return snippet.finished(runs)


def _beside(pieces: list[str], index: int, step: int) -> str:
    """The separator on that side of the piece at `index` ("" at the headline's edge)."""
    index += step
    return pieces[index] if 0 <= index < len(pieces) else ""


class _Snippet:
    """The plain text so far, and its highlights."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.length = 0
        self.highlights: list[tuple[int, int]] = []
        self.runs: list[tuple[int, int]] = []
        """Where the runs' characters stand in the text."""

    def add(self, words: str) -> None:
        if self.text and self.text[-1].endswith(" ") and words.startswith(" "):
            words = words[1:]
        self.text.append(words)
        self.length += len(words)

    def add_text(self, piece: str) -> None:
        """Text outside runs, its words marked one by one (an unclosed or empty mark highlights
        nothing)."""
        start: int | None = None
        for part in _MARKS.split(piece):
            if part == _START:
                start = self.length
            elif part == _STOP:
                if start is not None and self.length > start:
                    self.highlights.append((start, self.length))
                start = None
            elif part:
                self.add(_SPACES.sub(" ", part))

    def add_from_run(self, piece: str, linked_before: bool, linked_after: bool) -> None:
        """A piece of a run: a pair shows the characters no neighbour shows, a character itself."""
        chars = _MARKS.sub("", piece)
        start = self.length
        self.add(chars[0] * (not linked_before) + chars[1] * (not linked_after) if len(chars) == 2 else chars)
        if self.runs and self.runs[-1][1] == start:
            start = self.runs.pop()[0]
        self.runs.append((start, self.length))

    def finished(self, runs: Collection[str]) -> tuple[str, list[tuple[int, int]]]:
        """The text trimmed, with its highlights moved with it: the words ts_headline marked
        outside runs, each place in a run where one of the query's `runs` stands, and those that
        overlap or touch made one."""
        joined = "".join(self.text)
        found = [*self.highlights]
        for begin, end in self.runs:
            for run in runs:
                at = joined.find(run, begin, end)
                while at >= 0:
                    found.append((at, at + len(run)))
                    at = joined.find(run, at + 1, end)
        stripped = joined.lstrip()
        shift = len(joined) - len(stripped)
        snippet = stripped.rstrip()
        merged: list[tuple[int, int]] = []
        for begin, end in sorted((max(0, a - shift), min(len(snippet), b - shift)) for a, b in found):
            if end <= begin:
                continue
            if merged and begin <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((begin, end))
        return snippet, merged
