"""Text helpers for the rule-based features: sentences, content words, and when one text
settles another. Extraction (`extract`), review's rules and the transcripts' context packs all
read text through these, so they agree on what a sentence and a word are."""

from __future__ import annotations

import re

CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")
_EMPHASIS = re.compile(r"(\*\*|__|\*|_(?=\w)|(?<=\w)_)")
_SPACE = re.compile(r"\s+")


def plain(text: str) -> str:
    return _SPACE.sub(" ", _EMPHASIS.sub("", text)).strip()


def sentences(content: str) -> list[str]:
    """Sentences of a message; each bullet or line is its own unit, code blocks are left out."""
    units: list[str] = []
    for raw in CODE_BLOCK.sub("\n", content).splitlines():
        line = BULLET.sub("", raw).strip()
        if line:
            units.extend(part.strip() for part in _SENTENCE_END.split(line) if part.strip())
    return units


def tidy(text: str) -> str:
    text = plain(text).strip(" ,;:-–—")
    text = re.sub(r"[.!]+$", "", text).strip()
    # Cut trailing chatter: "…, right?" / "…, I think" / "…, then."
    text = re.sub(r",\s*(?:right|ok|okay|then|I think|for now)$", "", text, flags=re.IGNORECASE).strip()
    return text[:1].upper() + text[1:] if text else text


def key(text: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", text.lower()).strip()


STOPWORDS = frozenset(
    "a an the and or but to of in on for with at by from as is are was were be been being it its "
    "this that these those we i you they he she our my your their us me do does did so if then than "
    "there here will would should could can shall may might must have has had not no yes just also "
    "about into over under up down out what which who whom whose when where why how let lets let's "
    "go use using all any some more most very really ".split()
)


def content_words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z0-9][a-z0-9'+#.-]*", text.lower()) if word not in STOPWORDS}


_OPTIONS = re.compile(r"([\w'-]+)\s+or\s+([\w'-]+)", re.IGNORECASE)


def answers(decision_words: set[str], question: str) -> bool:
    """Whether a decision settles a question: most of its words, or one side of its "A or B"."""
    words = content_words(question)
    if words and len(words & decision_words) / len(words) >= 0.5:
        return True
    options = {word.lower() for pair in _OPTIONS.findall(question) for word in pair} - STOPWORDS
    return bool(options & decision_words)


def near_duplicate(left: set[str], right: set[str]) -> bool:
    return bool(left and right) and len(left & right) / len(left | right) >= 0.5
