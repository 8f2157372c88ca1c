"""The title a Session nobody titled takes from its first message: that message's first words.

The offline way, the same for every client (web app, CLI, MCP, API): no model is asked. It is
derived on the server when the first exchange is stored (`turns.py`), only for a Session whose
title is empty then, so a title a person gave (at creation or by a rename, before or after) is
never replaced, and a derived one is never derived again.

What a person types can be anything: only a bounded prefix of the message is read, so a title
costs the same for a 1 MB message as for a short one.
"""

from __future__ import annotations

import re

from smriti.core.text import INVISIBLE
from smriti.rules.words import plain

TITLE_WORDS = 6
TITLE_CHARS = 60
"""A derived title holds at most this many words and characters (the sidebar shows about that)."""
PREFIX_CHARS = 1_000
PREFIX_LINES = 40
"""How much of the message is read (its first characters, and of them its first lines): far more
than six words take, and a small fixed cost however the message is made."""

_FENCE = re.compile(r"^\s*(?:```|~~~)")
# What marks a line up rather than says something: headings, quotes, bullets, numbered items, a
# table's bars, a rule.
_LINE_MARKUP = re.compile(r"^\s*(?:#{1,6}(?=\s|$)|>|[-*+•]\s|\d+[.)]\s|\|)+\s*")
_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_LINK = re.compile(r"!?\[([^][]*)\]\([^()]*\)")
# Invisible characters go (direction overrides and isolates, cut off at the end of a title, would
# turn what is shown after it around), but for the two joiners: Persian and Indic text spell
# words with the zero-width non-joiner, and emoji sequences are held together by the joiner.
_DROPPED = str.maketrans(dict.fromkeys(map(ord, INVISIBLE.replace("\u200c", "").replace("\u200d", "")), None))
_ELLIPSIS = "…"


def derived_title(message: str) -> str | None:
    """The first words of `message` as a one-line title (at most `TITLE_WORDS` words and
    `TITLE_CHARS` characters, cut with "…"); prose is preferred to code, and markup is left out.
    None when the message's prefix holds no word to show."""
    prose: list[str] = []
    code: list[str] = []
    in_code = False
    for line in message[:PREFIX_CHARS].translate(_DROPPED).splitlines()[:PREFIX_LINES]:
        if not line or line.isspace():
            continue
        if _FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            code.extend(line.split())
        elif not _RULE.match(line):
            prose.extend(plain(_LINK.sub(r"\1", _LINE_MARKUP.sub("", line))).replace("`", "").split())
        if len(prose) >= TITLE_WORDS:
            break
    words = prose or code
    if not words:
        return None
    return _cut(" ".join(words[:TITLE_WORDS]), more=len(words) > TITLE_WORDS)


def _cut(title: str, *, more: bool) -> str:
    """The title within `TITLE_CHARS`: cut at the last space that keeps most of it, else (a long
    word, or a script written without spaces) at the limit; "…" says something was left out."""
    if len(title) <= TITLE_CHARS:
        return title + _ELLIPSIS if more and len(title) < TITLE_CHARS else title
    cut = title[: TITLE_CHARS - 1]
    space = cut.rfind(" ")
    if space >= TITLE_CHARS // 2:
        cut = cut[:space]
    # A joiner left at the end would join the ellipsis to the character before it.
    return cut.rstrip(" \u200c\u200d") + _ELLIPSIS
