"""What a decision or an assumption says, read closely enough to tell when two cannot both hold.

A statement is cut into clauses ("Avoid Redux; keep state in React Query" is two), and each clause
keeps its head verb, its content words (stemmed, with antonyms and synonyms folded: "hire a DJ"
and "book the DJ" are one act) and whether it is negated. The options it rules out are kept
apart: "Stay in Baixa, not Alfama" chooses Baixa and rules out Alfama; "Skip the JR Pass" rules
out the JR Pass.

Two statements contradict, as rival choices of one of three kinds (`RivalKind`), when (the
checks are narrow on purpose: a wrong finding costs more than a missed one):
- negation: one says nearly what the other says, with the opposite polarity ("Cache API
  responses" / "Do not cache API responses"); or a negated clause is contained in a positive one
  with the same verb, a few words apart or more ("Don't rent a car" / "Rent a car for the Sintra
  day trip"), or acting on the same thing ("Do not use PostgreSQL" / "Use PostgreSQL as the only
  database");
- ruled_out: one rules out an option the other chooses ("Stay in Baixa, not Alfama" / "Stay in
  Alfama for the last night"; "Skip the JR Pass" / "Buy the 7-day JR Pass"; "Order pizza instead
  of a caterer" / "Book a caterer for the dessert");
- same_slot: both pick a different option for the same purpose ("Use PostgreSQL for storage" /
  "Use MongoDB for storage"), or give one slot two values (`slots`: "Stay in Baixa" / "Stay in
  Graca", "Budget is 2000" / "Budget is 3000").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from smriti.review.schemas import RivalKind
from smriti.review.slots import SlotForm, rival_values, slot_form
from smriti.rules.words import STOPWORDS, stem, stems

_NEGATIONS = frozenset("not no never don't doesn't won't shouldn't can't cannot without against".split())
# A clause that opens with one of these rules out what follows: "Skip the JR Pass".
_REJECTING = frozenset("avoid skip drop stop ditch".split())
# Word pairs that flip a statement's meaning: "Send emails synchronously" vs "… asynchronously".
_ANTONYM_PAIRS = (
    "sync/async synchronous/asynchronous synchronously/asynchronously enable/disable enabled/disabled "
    "include/exclude allow/deny permit/forbid increase/decrease always/never required/optional "
    "public/private online/offline accept/reject add/remove open/closed keep/replace "
    "maximum/minimum early/late monolith/microservices manual/automatic manually/automatically cheap/expensive"
).split()
# Each word maps to the first of its pair; the second words are the ones that flip polarity.
_CANONICAL = {word: pair.split("/")[0] for pair in _ANTONYM_PAIRS for word in pair.split("/")}
_CANONICAL_STEMS = {stem(word): stem(canonical) for word, canonical in _CANONICAL.items()}
_FLIPPING_STEMS = {stem(word) for word, canonical in _CANONICAL.items() if word != canonical}
# Verbs for one act, folded so "hire a DJ" meets "book the DJ".
_SYNONYMS = {
    stem(w): stem(c) for c, words in {"book": "hire reserve", "buy": "purchase"}.items() for w in words.split()
}
# Past forms, so a passive "emails are sent" meets "send emails".
_IRREGULAR = {
    past: stem(verb)
    for verb, forms in {
        "send": "sent",
        "buy": "bought",
        "take": "took taken",
        "keep": "kept",
        "hold": "held",
        "pay": "paid",
        "run": "ran",
        "build": "built",
        "choose": "chose chosen",
        "write": "wrote written",
        "fly": "flew flown",
        "drive": "drove driven",
    }.items()
    for past in forms.split()
}
_PHRASES = (
    (re.compile(r"\bask(?:s|ed|ing)? for\b", re.IGNORECASE), "request"),
    (re.compile(r"\b(?:go(?:es|ing)? with|opt(?:ing)? for|pick|choose|select|adopt)\b", re.IGNORECASE), "use"),
)
# Words before the verb that say who or how sure, not what: "We will not ship…", "Let's also…".
_LEAD = frozenset(
    "we i you they let's lets let us also just only then so and please will 'll shall should must would "
    "could can do does to definitely probably still always a an the this that these those our my".split()
)
# Verbs that choose or do something: a clause led by one of them can take up a ruled-out option.
_CHOOSING = frozenset(
    stem(word)
    for word in "use book buy take add keep stay install introduce rent order visit do include get switch hold "
    "serve publish ship deploy run stream record have bring eat fly drive store host move request report try "
    "enable allow accept sleep spend start join offer require support pay send invite".split()
)
_PREPOSITIONS = frozenset(
    "for as to near on at with by from in into of before after during until without about across around under "
    "over between via instead rather than so because since if along through per".split()
)
_CLAUSE_SPLIT = re.compile(r";|\s+but\s+|,?\s+and\s+(?=\w+ )", re.IGNORECASE)
_RULED_OUT = re.compile(
    r"^(?P<x>.+?)(?:,\s*not|\s+(?P<instead>instead of|rather than))\s+"
    r"(?P<y>(?!only\b|just\b|yet\b|now\b|necessarily\b).+)$",
    re.IGNORECASE,
)
_CHOICE = re.compile(
    r"^(?P<verb>use|stay (?:at|in)|host (?:on|at)|deploy (?:to|on)|fly (?:to|with)|book|store (?:\w+ )?in) "
    r"(?P<option>.+?) (?P<link>for|as) (?P<purpose>.+)$",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'+#.-]*")


@dataclass(frozen=True, slots=True)
class Clause:
    head: str
    """The stem of the clause's verb (its first word once "we will not" and the like are gone)."""
    core: frozenset[str]
    negated: bool
    flipped: bool = False
    """Whether an antonym ("asynchronously", "disabled") is in it: a polarity that needs no verb."""
    object: frozenset[str] = frozenset()
    """What the verb acts on, up to the next preposition: "hotel" in "Book the hotel near the train
    station", so a ruled-out "trains" is not taken up by it."""


@dataclass(frozen=True, slots=True)
class RuledOut:
    head: str
    """The verb the option was ruled out for: "stay" in "Stay in Baixa, not Alfama"."""
    option: frozenset[str]
    text: str
    by_verb: bool
    """Ruled out by "skip", "avoid"…: any choosing verb can take the option up again."""


@dataclass(frozen=True, slots=True)
class Choice:
    verb: str
    option: frozenset[str]
    purpose: frozenset[str]
    purpose_text: str


@dataclass(frozen=True, slots=True)
class Statement:
    whole: Clause
    clauses: tuple[Clause, ...]
    ruled_out: tuple[RuledOut, ...]
    choice: Choice | None
    slot: SlotForm | None
    words: frozenset[str]
    """Every word any check compares: two statements that share none cannot contradict."""


@dataclass(frozen=True, slots=True)
class Contradiction:
    kind: RivalKind
    how: str
    """The words between the two statements: "…a… HOW …b…"."""


Words = dict[str, tuple[bool, str]]
"""A token's reading, once per statement (its clauses and the whole read the same tokens): whether
it flips polarity, and the word it counts as."""


def _read(token: str) -> tuple[bool, str]:
    stemmed = stem(token)
    canonical = _IRREGULAR.get(token, stemmed)
    canonical = _CANONICAL_STEMS.get(canonical, canonical)
    return stemmed in _FLIPPING_STEMS, _SYNONYMS.get(canonical, canonical)


def _clause(text: str, words: Words) -> Clause:
    negated = flipped = False
    core: set[str] = set()
    head = ""
    acted_on: set[str] = set()
    in_object: bool | None = None  # None: before the object; True: in it; False: past it
    for token in _TOKEN.findall(text.lower()):
        if token in _NEGATIONS or token.endswith("n't"):
            negated = not negated
            continue
        reading = words.get(token)
        if reading is None:
            reading = words[token] = _read(token)
        flips, word = reading
        if flips:
            negated, flipped = not negated, True
        if not head and token not in _LEAD:
            head = word
        elif head and in_object is not False:
            if token in _PREPOSITIONS:
                in_object = None if in_object is None else False  # "stay in Alfama": the frame's own
            elif token not in _LEAD:
                in_object = True
                acted_on.add(word)
        if token not in STOPWORDS:
            core.add(word)
    return Clause(head, frozenset(core), negated, flipped, frozenset(acted_on))


def _normalised(text: str) -> str:
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    return text.strip(" .")


def statement(text: str) -> Statement:
    """What a decision or an assumption says: read once per review, then compared with the others.
    (Not kept across reviews: a cache of them held any text a client sent for as long as it lived.)"""
    text = _normalised(text)
    read: Words = {}
    clauses: list[Clause] = []
    ruled_out: list[RuledOut] = []
    for part in filter(None, (p.strip(" ,") for p in _CLAUSE_SPLIT.split(text))):
        if part.lower().startswith("not ") and clauses:
            # "Stay in Baixa but not Alfama": the second clause rules out a place for the first's verb.
            option = _clause(part[4:], read)
            ruled_out.append(RuledOut(clauses[-1].head, option.core, part[4:], by_verb=False))
            continue
        match = _RULED_OUT.match(part)
        main = _clause(match["x"] if match else part, read)
        if main.head in _REJECTING and not main.negated:
            rest = part.split(None, 1)[1] if " " in part else ""
            option = _clause(rest, read)
            ruled_out.append(RuledOut(option.head, option.core, rest, by_verb=True))
            continue
        clauses.append(main)
        if match:
            option = _clause(match["y"], read)
            # "…instead of hiring movers" rules out an act; "…, not Alfama" a place to do the same act
            # in; "…instead of a caterer" a thing, which any choosing verb takes up again ("Book a
            # caterer for the dessert").
            act = match["y"].split()[0].lower().endswith("ing")
            head = option.head if act else main.head
            thing = bool(match["instead"]) and not act
            ruled_out.append(RuledOut(head, option.core - {head}, match["y"], by_verb=thing))
    found = _CHOICE.match(text)
    choice = (
        Choice(
            found["verb"].lower(),
            frozenset(stems(found["option"])),
            frozenset(stems(found["purpose"])),
            found["purpose"],
        )
        if found
        else None
    )
    whole = _clause(text, read)
    slot = slot_form(text)
    words = whole.core.union(*(c.core for c in clauses), *(r.option for r in ruled_out), slot.keys if slot else ())
    return Statement(whole, tuple(clauses), tuple(ruled_out), choice, slot, words)


def _opposite(left: Clause, right: Clause) -> bool:
    """A negated clause contained (all but one word, when long) in a positive one with its verb, or
    with its verb and what the verb acts on.

    An antonym carries its own polarity, so "Password reset emails are sent synchronously" (no verb
    first) still opposes "Send password reset emails asynchronously"; it then takes three words."""
    if left.negated == right.negated:
        return False
    same_verb = bool(left.head) and left.head == right.head
    negated, positive = (left, right) if left.negated else (right, left)
    if same_verb and negated.object and negated.object == positive.object and negated.core <= positive.core:
        # The same verb on the same thing: "Do not use PostgreSQL" / "Use PostgreSQL as the only
        # database" ("use" is a stop word: each has one word of its own, too few for the rule below).
        return True
    small, large = sorted((left.core, right.core), key=len)
    if len(small) < (2 if same_verb else 3) or not (same_verb or left.flipped or right.flipped):
        return False
    return small <= large or (len(small) >= 4 and len(small - large) <= 1)


def _takes_up(ruled: RuledOut, clause: Clause) -> bool:
    """Whether the clause chooses what was ruled out: the option is what its verb acts on."""
    if clause.negated or not ruled.option or not ruled.option <= clause.core or ruled.option.isdisjoint(clause.object):
        return False
    return clause.head == ruled.head or (ruled.by_verb and clause.head in _CHOOSING)


def _quote(text: str) -> str:
    return f"“{text}”"


def _negates(a: Statement, b: Statement) -> bool:
    whole_a, whole_b = a.whole.core, b.whole.core
    # Nearly the same words, opposite polarity: "Cache API responses" / "Do not cache API responses".
    opposite_polarity = a.whole.negated != b.whole.negated and min(len(whole_a), len(whole_b)) >= 2
    if opposite_polarity:
        shared = len(whole_a & whole_b)
        if shared / (len(whole_a) + len(whole_b) - shared) >= 0.75:  # the share of their union
            return True
    return any(_opposite(left, right) for left in a.clauses for right in b.clauses)


def _ruled_out(a: Statement, b: Statement) -> str | None:
    for ruled in a.ruled_out:
        if any(_takes_up(ruled, clause) for clause in b.clauses):
            return f"rules out {_quote(ruled.text)}, which is chosen by"
    for ruled in b.ruled_out:
        if any(_takes_up(ruled, clause) for clause in a.clauses):
            return f"chooses {_quote(ruled.text)}, which is ruled out by"
    return None


def cost(a: Statement, b: Statement) -> int:
    """What `contradicts(a, b)` may take, in clauses compared (plus one for the pair): the unit of
    the contradiction rule's budget (`review.rules.MAX_CLAUSE_COMPARISONS`). Two statements of
    many clauses each cost their product, however short the texts."""
    if a.words.isdisjoint(b.words):
        return 1
    slots = 1 if a.slot and b.slot else 0  # two short token lists: about one clause's comparison
    return 1 + slots + (len(a.clauses) + len(a.ruled_out)) * len(b.clauses) + len(b.ruled_out) * len(a.clauses)


def contradicts(a: Statement, b: Statement) -> Contradiction | None:
    """How `a` contradicts `b`, or None."""
    if a.words.isdisjoint(b.words):
        return None  # the common case on a large Checkpoint: nothing to compare
    how = _ruled_out(a, b)
    if how:
        return Contradiction("ruled_out", how)
    if _negates(a, b):
        return Contradiction("negation", "says the opposite of")
    left, right = a.choice, b.choice
    if left and right and left.verb == right.verb and left.purpose == right.purpose and left.option != right.option:
        return Contradiction("same_slot", f"picks a different option for the same purpose (“{left.purpose_text}”) than")
    values = rival_values(a.slot, b.slot) if a.slot and b.slot else None
    if values:
        return Contradiction(
            "same_slot", f"gives the same choice another value ({_quote(values[0])}, not {_quote(values[1])}) than"
        )
    return None
