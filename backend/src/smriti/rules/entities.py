"""Entities of a conversation: the people, places, products and code it is about.

A name counts when it recurs capitalised in the middle of sentences (so "Great" opening a reply is
not one), or when it is part of the work itself: a single "we'll do Sintra on day 3" makes Sintra
an entity, as "Joana will send the form" makes Joana one; a passing "Portugal uses type F
sockets" does not. Code counts when it looks like
code: snake_case, camelCase, a file name, or backticked text that is not plain words (an LLM's
`adapter type F` is emphasis, not an identifier).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from smriti.rules.words import CODE_BLOCK, sentences

MAX_ENTITIES = 12

_UPPER = "A-ZÀ-ÖØ-Þ"
# "Quinta da Regaleira", "Farrow & Ball", "São Bento": lowercase joiners inside one name.
_JOINER = r"(?:[ -]|\s(?:da|do|de|dos|das|del|di|du|von|van|of|&)\s)"
_CAPITALISED = re.compile(rf"\b[{_UPPER}][^\W_]*(?:{_JOINER}[{_UPPER}][^\W_]*)*\b")
_BACKTICKED = re.compile(r"`([^`\n]{2,60})`")
_IDENTIFIERS = (
    re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]+)+\b"),
    re.compile(r"\b[\w-]+\.(?:py|ts|tsx|js|md|sql|json|yaml|yml|toml|css|html|txt|csv)\b"),
)
# Backticked text with none of these is words set in code font, not code.
_CODE_CHARS = re.compile(r"^\S+$|[_./()=<>\[\]{}$@#:|\\]| -")
NOT_ENTITIES = frozenset(
    "I I'm I'll I've I'd We We'll We're We've You You'll It It's This That These Those The A An And "
    "But So Yes No Ok OK Okay Also Then If What How Why When Where Which Who Should Can Could Would "
    "Will Let Let's Great Sure Thanks Thank Hi Hello Hey Maybe Next First Second Third Finally "
    "However Good Perfect Right Here There Now Please Agreed Done Note Plan Step Option Decision "
    "Assumption Task Question Todo TODO Open Monday Tuesday Wednesday Thursday Friday Saturday "
    "Sunday January February March April May June July August September October November December My "
    "Our Your Their In On At For With To Of From By As Is Are Do Not One Two Three Both Each All Any "
    "Some Most More After Before Since Because Sounds Cool Nice Fine True False Assistant User Day ".split()
)


def _names(sentence: str) -> Iterable[tuple[str, bool]]:
    """Capitalised names in a sentence, each with whether it stands mid-sentence."""
    for match in _CAPITALISED.finditer(sentence):
        name = match.group(0)
        words = [w for w in re.split(r"[ -]", name) if w not in NOT_ENTITIES]
        if not words or not words[0][:1].isupper():
            continue
        # "Hi Marta" is Marta: a greeting or a sentence opener is not part of the name.
        yield (" ".join(words) if len(words) < len(name.split()) else name), match.start() > 0


def _code(content: str, code: Counter[str]) -> None:
    # Backticks are only looked for outside fenced blocks, whose fences are backticks too.
    for match in _BACKTICKED.finditer(CODE_BLOCK.sub("\n", content)):
        if _CODE_CHARS.search(match.group(1).strip()):
            code[match.group(1).strip()] += 2  # a backticked identifier is a clear signal
    for pattern in _IDENTIFIERS:
        for match in pattern.finditer(content):
            code[match.group(0)] += 1


def _in_work(work: Iterable[str]) -> set[str]:
    """The names the extracted items use, and each of their words ("Lisboa" of "Lisboa Card")."""
    named: set[str] = set()
    for item in work:
        # An item's first word is capitalised anyway ("Book the hotel"); past it, a capital is a name.
        rest = item.split(" ", 1)[1] if " " in item else ""
        for name, _ in _names(f"- {rest}"):
            named.add(name)
            named.update(re.split(r"[ -]", name))
    return named


def entities(contents: Iterable[str], work: Iterable[str]) -> list[tuple[str, str | None]]:
    """Entities of the messages `contents`; `work` is the text of the extracted items, whose names
    count even when said once."""
    counts: Counter[str] = Counter()
    mid_sentence: set[str] = set()
    code: Counter[str] = Counter()
    for content in contents:
        for sentence in sentences(content):
            for name, mid in _names(sentence):
                counts[name] += 1
                if mid:
                    mid_sentence.add(name)
        _code(content, code)
    named = _in_work(work)
    found: dict[str, tuple[int, str | None]] = {
        name: (count, None)
        for name, count in counts.items()
        if len(name) > 1 and ((count >= 2 and name in mid_sentence) or name in named)
    }
    for identifier, count in code.items():
        if count >= 2:
            found.setdefault(identifier, (count, "code"))
    ranked = sorted(found.items(), key=lambda item: (-item[1][0], item[0]))
    return [(name, kind) for name, (_, kind) in ranked[:MAX_ENTITIES]]
