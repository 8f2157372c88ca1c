"""Which of many phrases occur in a text as whole words, in passes over the text whose number does
not grow with the number of phrases.

"As whole words" is the regular expression `(?<!\\w)PHRASE(?!\\w)`. Searching for each phrase in
turn costs phrases × text, which a Checkpoint with thousands of entities and items made into
seconds (issue 42: 19 s at 417 KB). Here both are read as tokens (`tokens`) and every phrase is
matched at once by an Aho–Corasick automaton (Aho and Corasick, 1975): one step per token of the
text, whatever the phrases add up to.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Sequence

_PIECE = re.compile(r"\w+|\W")
_WORD = re.compile(r"\w")
_FLAGS = (("--", "-w"), ("w-", "ww"))
"""A non-word character's context: whether a word character stands before it, and after it."""

MAX_STATES = 1 << 16
"""States of one automaton (about 150 bytes each): phrases past it are matched in a further pass
over the text, so memory stays at ~10 MB however long the phrases are together."""


def tokens(text: str) -> list[str]:
    """`text` as what a whole-word match is made of: each run of word characters, and each other
    character with whether a word character stands before and after it (the `+` of `c++` is not
    the `+` of `a + b`).

    A phrase occurs as whole words exactly when its tokens occur in a row among the text's: a run
    of the phrase is a whole run of the text (a word character is never beside it), and the
    first and last characters, when not word characters, carry "none before" and "none after",
    which only places outside a word give them in the text (or its start and end). Equal tokens
    are one string, so a long text costs a reference per token."""
    pieces = _PIECE.findall(text)
    last = len(pieces) - 1
    one: dict[str, str] = {}
    before = False
    for i, piece in enumerate(pieces):
        word = len(piece) > 1 or _WORD.match(piece) is not None
        if word:
            pieces[i] = one.setdefault(piece, piece)
        else:
            after = i < last and (len(pieces[i + 1]) > 1 or _WORD.match(pieces[i + 1]) is not None)
            key = piece + _FLAGS[before][after]
            pieces[i] = one.setdefault(key, key)
        before = word
    return pieces


def occurring(text: str, phrases: Sequence[str]) -> list[bool]:
    """For each phrase, whether it occurs in `text` as whole words (`(?<!\\w)PHRASE(?!\\w)`)."""
    ids: dict[str, int] = {}
    coded = array("l", (ids.setdefault(token, len(ids)) for token in tokens(text)))
    found = [False] * len(phrases)
    batch: list[tuple[int, array[int]]] = []
    states = 0
    as_text = ""
    for index, phrase in enumerate(phrases):
        wanted = array("l", (ids.get(token, -1) for token in tokens(phrase)))
        if not wanted or -1 in wanted or len(wanted) > len(coded):
            continue  # a token the text lacks, or longer than the text: it cannot occur
        if len(wanted) > MAX_STATES and len(ids) <= sys.maxunicode:
            # One long phrase: str's own substring search (two-way: linear), a token a character.
            as_text = as_text or "".join(map(chr, coded))
            found[index] = "".join(map(chr, wanted)) in as_text
            continue
        if states + len(wanted) > MAX_STATES:
            _match(coded, len(ids), batch, found)
            batch, states = [], 0
        batch.append((index, wanted))
        states += len(wanted)
    _match(coded, len(ids), batch, found)
    return found


def _match(text: Sequence[int], alphabet: int, phrases: list[tuple[int, array[int]]], found: list[bool]) -> None:
    """One automaton over `phrases` (index, token ids), one pass over `text`; sets `found[index]`."""
    if not phrases:
        return
    # The trie: state 0 is the root; a transition is one dict entry keyed by state * alphabet + token.
    goto: dict[int, int] = {}
    parent, via, depth = array("l", [0]), array("l", [0]), array("l", [0])
    ends = []
    for _, phrase in phrases:
        state = 0
        for token in phrase:
            key = state * alphabet + token
            following = goto.get(key)
            if following is None:
                following = goto[key] = len(parent)
                parent.append(state)
                via.append(token)
                depth.append(depth[state] + 1)
            state = following
        ends.append(state)
    size = len(parent)
    final = bytearray(size)
    for state in ends:
        final[state] = 1
    # Failure links in order of depth: the longest proper suffix of a state's tokens that is a state.
    fail, output = array("l", [0]) * size, array("l", [0]) * size
    for state in sorted(range(1, size), key=depth.__getitem__):
        before = parent[state]
        if before:
            token, back = via[state], fail[before]
            while back and back * alphabet + token not in goto:
                back = fail[back]
            fail[state] = goto.get(back * alphabet + token, 0)
        output[state] = fail[state] if final[fail[state]] else output[fail[state]]
    seen = bytearray(size)
    state = 0
    for token in text:
        following = goto.get(state * alphabet + token)
        while following is None and state:
            state = fail[state]
            following = goto.get(state * alphabet + token)
        state = following or 0
        reached = state if final[state] else output[state]
        while reached and not seen[reached]:  # a state seen once had its whole output chain marked then
            seen[reached] = 1
            reached = output[reached]
    for (index, _), state in zip(phrases, ends, strict=True):
        found[index] = bool(seen[state])
