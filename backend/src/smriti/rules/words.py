"""Text helpers for the rule-based features: sentences, content words and their stems.

Extraction (`extract`), review's rules and the transcripts' context packs all read text through
these, so they agree on what a sentence and a word are."""

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
    # "Let's stay in Baixa then": a closing "then" points back at the conversation, not the item.
    text = re.sub(r"(?<=\w)\s+then$", "", text, flags=re.IGNORECASE) if text.count(" ") >= 2 else text
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
    # "meal." at a sentence's end is "meal"; dots inside ("node.js", "v1.2") stay.
    words = (word.rstrip(".") for word in re.findall(r"[a-z0-9][a-z0-9'+#.-]*", text.lower()))
    return {word for word in words if word and word not in STOPWORDS}


def stem(word: str) -> str:
    """A crude stem, so "staying"/"stay", "Fridays"/"Friday" and "hiring"/"hire" compare equal.

    Deliberately simple and applied to both sides of every comparison: it only has to map the
    forms of one word together, not to produce a real root."""
    word = word.lower().removesuffix("'s").removesuffix("’s").rstrip("'’")
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix in ("ing", "ies", "ied", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)] + ("y" if suffix in {"ies", "ied"} else "")
            break
    word = word.removesuffix("e")
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "running" loses "ing", then its doubled "n"
    return word


def stems(text: str) -> set[str]:
    """Content words of a text, stemmed: what two statements are compared on."""
    return {stem(word) for word in content_words(text)}


def near_duplicate(left: set[str], right: set[str]) -> bool:
    return bool(left and right) and len(left & right) / len(left | right) >= 0.5
