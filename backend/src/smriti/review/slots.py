"""Two values for one slot: "Stay in Baixa" / "Stay in Graca", "Budget is 2000 euros" / "The
budget is 3000 euros", "Set the pool size to 20" / "… to 50".

Two statements fill the same slot with rival values when they are the same words but for one
run in each (the value), and both values name one thing:
- a number, with at most one unit word ("20", "3000 euros", "95%"): the same act or quantity
  with two amounts ("Recruit 40 participants" / "Recruit 60 participants"; "item00042" is an
  identifier, not an amount);
- a name (every word capitalised, or a number: "Graca", "Saturday 14", "Fly.io"), when the slot
  takes one name only: a copula ("The database is PostgreSQL"), a time ("in October", "on
  Saturday 14 June"), a place to be ("Stay in", "Host on", "Deploy to"), a title ("Title the
  book 'Salt Roads'"), or a tool for a stated purpose ("Use PostgreSQL for storage").

Everything else is left alone on purpose: many slots take many values ("Invite Alice" / "Invite
Bob", "Use React" / "Use PostgreSQL", "Submit to Granta" / "Submit to the Paris Review"), and
lowercase values are mostly qualities that can both hold ("The API is public" / "The API is
versioned"). Items that merely share words differ in more than one run, or in runs longer than a
value, and are not compared at all.

Cost: a statement has a slot form only when it is short (`MAX_SLOT_TOKENS`), so comparing two is
a few dozen steps, whatever the statements' length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SLOT_TOKENS = 24
"""Tokens of the longest statement read as a slot and its value: longer items say more than one
thing, and this bounds what comparing two of them costs."""

MAX_VALUE_TOKENS = 4

_TOKEN = re.compile(r"[^\W_][\w'’+#.%/&-]*|[:=]|[€$£]\s?\d[\d,.]*", re.UNICODE)
_ARTICLES = frozenset("a an the".split())
_LEAD = frozenset("we i let's lets let us will shall should must also just then so and".split())
_COPULAS = {"is": "=", "are": "=", "be": "=", "was": "=", ":": "=", "=": "=", "stays": "=", "remains": "="}
_NEGATIONS = frozenset("not no never don't doesn't won't shouldn't can't cannot without instead rather".split())
_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty "
    "hundred thousand million half dozen".split()
)
_TIMES = frozenset(
    "january february march april may june july august september october november december jan feb mar apr "
    "jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday spring summer "
    "autumn fall winter".split()
)
# A number after one of these names one of many ("chapter 3", "phase 2"), not an amount.
_ENUMERATING = frozenset(
    "chapter section part step phase stage sprint milestone issue ticket item task question page episode "
    "lesson module unit round figure appendix level version v".split()
)
# Slots that hold one place: where to be, to run, to meet.
_PLACING = frozenset(
    "stay live move relocate host deploy base locate hold meet launch sleep settle camp dock park".split()
)
# Slots that hold one name.
_NAMING = frozenset("title name call rename brand".split())
# A tool is one per purpose: "Use PostgreSQL for storage" / "Use MongoDB for storage".
_CHOOSING = frozenset("use adopt pick choose select".split())


@dataclass(frozen=True, slots=True)
class SlotForm:
    keys: tuple[str, ...]
    """The statement's tokens as compared: lower case, articles and "we will" left out, "is",
    "are" and ":" one copula, thousands separators gone."""
    words: tuple[str, ...]
    """The same tokens as written (a name is told by its capitals)."""


def slot_form(text: str) -> SlotForm | None:
    """The statement as a slot and its value, or None when it cannot be one (negated, or long)."""
    keys: list[str] = []
    words: list[str] = []
    for match in _TOKEN.finditer(text):  # token by token: a long statement stops being read at once
        token = match[0].strip("'’\"")
        lower = token.lower()
        if not token or lower in _ARTICLES or (not keys and lower in _LEAD):
            continue
        if lower in _NEGATIONS or lower.endswith("n't"):
            return None  # a negated statement is the negation rule's
        keys.append(_COPULAS.get(lower) or re.sub(r"(?<=\d),(?=\d{3}\b)", "", lower))
        words.append(token)
        if len(keys) > MAX_SLOT_TOKENS:
            return None
    if len(keys) < 2 or not _may_hold_one(keys):
        return None
    return SlotForm(tuple(keys), tuple(words))


def _may_hold_one(keys: list[str]) -> bool:
    """Whether any value of this statement could be one of rival values (`_one_name`, `_amount`):
    most statements cannot, and then no pair with them is compared at all (9,000 decisions that
    differ in an identifier each cost a second of comparisons for nothing)."""
    return (
        keys[0] in _PLACING
        or keys[0] in _NAMING
        or keys[0] in _CHOOSING
        or "=" in keys
        or any(_is_number(key) or key in _TIMES for key in keys)
    )


def _is_number(key: str) -> bool:
    """An amount: "2000", "95%", "€2,000", "3.12", "five". Not an identifier that holds digits
    ("item00042", "v2"): two of those are two things, not two values for one."""
    return key[:1].isdigit() or (key[:1] in "€$£" and key[1:2].isdigit()) or key in _NUMBER_WORDS


def _amount(keys: tuple[str, ...]) -> bool:
    """A number and at most one unit word: "20", "3000 euros", "five minutes"."""
    numbers = sum(map(_is_number, keys))
    return numbers >= 1 and len(keys) - numbers <= 1 and len(keys) <= 2


def _name(words: tuple[str, ...]) -> bool:
    return all(word[:1].isupper() or any(ch.isdigit() for ch in word) for word in words)


def rival_values(a: SlotForm, b: SlotForm) -> tuple[str, str] | None:
    """The two values when `a` and `b` fill one slot with different ones, else None."""
    left, right = a.keys, b.keys
    shortest = min(len(left), len(right))
    prefix = 0
    while prefix < shortest and left[prefix] == right[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and left[-1 - suffix] == right[-1 - suffix]:
        suffix += 1
    left_value, right_value = left[prefix : len(left) - suffix], right[prefix : len(right) - suffix]
    if not left_value or not right_value or max(len(left_value), len(right_value)) > MAX_VALUE_TOKENS:
        return None
    frame = left[:prefix] + left[len(left) - suffix :]
    if not any(key not in _COPULAS.values() and not _is_number(key) for key in frame):
        return None  # "20" / "50": nothing says what the numbers are
    left_words = a.words[prefix : len(left) - suffix]
    right_words = b.words[prefix : len(right) - suffix]
    if _amount(left_value) and _amount(right_value):
        if prefix and frame[prefix - 1] in _ENUMERATING:
            return None
    elif not (_one_name(frame, prefix, left_value, left_words) and _one_name(frame, prefix, right_value, right_words)):
        return None
    return " ".join(left_words), " ".join(right_words)


def _one_name(frame: tuple[str, ...], prefix: int, value: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether `value` is a name and the frame around it holds one name only."""
    if prefix == 0 or not _name(words):
        return False  # a capital at the start is the sentence's, not a name's
    verb = frame[0]
    return (
        "=" in frame[:prefix]
        or any(key in _TIMES for key in value)
        or verb in _PLACING
        or verb in _NAMING
        or (verb in _CHOOSING and len(frame) > prefix and frame[prefix] in ("for", "as"))
    )
