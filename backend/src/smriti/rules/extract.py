"""Deterministic Checkpoint extraction: rule-based drafting and the V1 transcripts' context packs.

It reads only the Turns it is given and keeps only what is stated with a clear cue ("we decided
to…", "assuming…", "I'll book…", "open question: …"), so it prefers missing an item to
inventing one. Entities are repeated capitalised terms and code identifiers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from smriti.rules.words import (
    BULLET,
    CODE_BLOCK,
    answers,
    content_words,
    key,
    near_duplicate,
    plain,
    sentences,
    tidy,
)

_CHECKBOX = re.compile(r"^\s*(?:[-*]\s*)?\[( |x|X)\]\s+(?P<text>.+)$")

MAX_ITEMS = 20
MAX_ENTITIES = 12


@dataclass(frozen=True, slots=True)
class SourceTurn:
    sequence_number: int
    role: str
    content: str


@dataclass(slots=True)
class Extraction:
    message: str = ""
    summary: str = ""
    decisions: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    tasks: list[tuple[str, bool]] = field(default_factory=list)
    open_questions: list[str] = field(default_factory=list)
    entities: list[tuple[str, str | None]] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# cues: each pattern captures the item; the builder turns the match into the item's text

Builder = Callable[[re.Match[str]], str]


def _rest(match: re.Match[str]) -> str:
    return match.group("x")


def _verb(verb: str) -> Builder:
    return lambda match: f"{verb} {match.group('x')}"


def _verb_and_rest(match: re.Match[str]) -> str:
    return f"{match.group('v')} {match.group('x')}"


_I = r"(?:we|i)"
_NEGATED = re.compile(
    r"\b(?:not|n't|never|haven't|hasn't|no longer)\b.{0,20}\b(?:decided|agreed|settled|go with|use)\b",
    re.IGNORECASE,
)

# Verbs that state a policy or a choice: "we'll exclude grey literature", "let's use PostgreSQL".
_POLICY_VERBS = (
    "use|pick|choose|stick with|keep|stay at|stay in|fly|take|target|ship|exclude|include|skip|avoid|drop|"
    "lead with|open with|start with|prioriti[sz]e|limit|cap|require|allow|default to|standardi[sz]e|adopt|switch to"
)

DECISION_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(rf"\b{_I}(?:'ve| have)? (?:decided|agreed|settled) (?:to |that |on |(?=not ))(?P<x>.+)", re.I), _rest),
    (re.compile(r"\b(?:the )?decision(?: is)?: ?(?P<x>.+)", re.I), _rest),
    (re.compile(r"\bfinal answer(?: is)?[:,]? (?P<x>.+)", re.I), _rest),
    (
        re.compile(rf"\b(?:let'?s|{_I}(?:'ll| will| are going to|'re going to)) go with (?P<x>.+)", re.I),
        _verb("Go with"),
    ),
    (re.compile(rf"\b{_I}(?:'re| are) going with (?P<x>.+)", re.I), _verb("Go with")),
    (re.compile(r"(?:^|[,;:]\s*)go with (?P<x>.+)", re.I), _verb("Go with")),
    (re.compile(r"\block (?:that|it|this) in[,:;—-]\s*(?P<x>.+)", re.I), _rest),
    # "…, so yeah, Redis it is."
    (
        re.compile(r"(?:^|[,;:—-]\s*)(?:so,? )?(?:yeah,? |ok(?:ay)?,? )?(?P<x>[\w .'-]{2,40}?) it is[.!]?$", re.I),
        _verb("Go with"),
    ),
    (
        re.compile(
            rf"\b(?:let'?s|{_I}(?:'ll| will)) (?:also )?(?P<v>{_POLICY_VERBS})"
            r" (?P<x>.+)",
            re.I,
        ),
        _verb_and_rest,
    ),
    (re.compile(rf"\b{_I} (?:chose|picked|went with) (?P<x>.+)", re.I), _verb("Go with")),
    (re.compile(r"^agreed[,:]\s*(?P<x>.+)", re.I), _rest),
    # "…; we'll buy single tickets instead": a choice between alternatives.
    (re.compile(rf"\b{_I}(?:'ll| will) (?P<x>[a-z]+ .+ instead(?: of [^.!]+)?)[.!]?$", re.I), _rest),
]

ASSUMPTION_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(r"\bassumption(?: is)?: ?(?P<x>.+)", re.I), _rest),
    (re.compile(rf"\b(?:{_I}(?:'re|'m| am| are) )?assuming (?:that )?(?P<x>[^,;]+)", re.I), _rest),
    (re.compile(rf"\b{_I} (?:can |will )?assume (?:that )?(?P<x>.+)", re.I), _rest),
    (re.compile(r"^(?:let'?s )?assume (?:that )?(?P<x>.+)", re.I), _rest),
    (re.compile(r"\b(?!it\b)\w+ (?:assumes|relies on) (?:that )?(?P<x>.+)", re.I), _rest),
    (re.compile(r"\bpresumably,? (?P<x>.+)", re.I), _rest),
    (re.compile(rf"\b{_I}(?:'re| are|'m| am) taking (?:it )?for granted (?:that )?(?P<x>.+)", re.I), _rest),
]

# "I'll <verb> …" is a commitment unless the verb is talk about the conversation itself
# ("I'll explain…") or a choice (decisions are matched before tasks).
_NOT_TASK_VERBS = (
    "be|have|explain|walk|summarize|summarise|show|describe|help|discuss|talk|cover|answer|clarify|note|mention|"
    "say|recap|elaborate|provide|give|suggest|recommend|think|consider|see|let|go|use|pick|choose|stick|keep|stay|"
    "fly|ship|target|probably|also|just|still|then|now|likely|definitely|need|want|try to explain|start by|focus|"
    "continue|proceed|assume|guess|bet|leave|do that|do this|do it|get back|come back|worry|care|wait|hope|"
    "agree|decide|figure|know|understand|lean|like|love|prefer|wonder|feel|be able|afford|live with|deal with"
)
_COMMITMENT = re.compile(
    rf"\b(?P<who>we|i)(?:'ll| will| need to| have to| must|'ve got to| should)"
    rf" (?:also |then |first |just |still |quickly )?(?!(?:{_NOT_TASK_VERBS})\b)(?P<x>[a-z]+\b.+)",
    re.IGNORECASE,
)
# "Mark will review the spec": a named person's commitment, for common work verbs only.
_TASK_VERBS = (
    "write|draft|book|send|check|create|update|add|set up|prepare|review|call|email|investigate|benchmark|test|fix|"
    "implement|migrate|research|find|compare|ask|schedule|buy|reserve|outline|measure|deploy|document|read|collect|"
    "build|design|get|confirm|contact|order|plan|pack|renew|apply|file|share|sketch|rewrite|edit|proofread|submit|"
    "draw|register|translate|record|upload|publish|print|organi[sz]e|arrange|handle|pull|run|install|configure|"
    "set|put|call|invite|pay|clean|merge|release|sign|pick up|drop off|look into|follow up|reach out|talk to"
)
_NAMED_COMMITMENT = re.compile(
    rf"\b(?P<who>[A-Z][a-z]+) (?:will|'ll|can|should|is going to|needs to|has to|is to) (?P<x>(?:{_TASK_VERBS}) .+)"
)
# "…and send it to my writing group": a second task joined with "and".
_AND_TASK = re.compile(
    rf"\s+and (?:then |also )?(?=(?:{_TASK_VERBS})\b)|\s+and (?=[A-Z][a-z]+ (?:will|'ll|is going to) )", re.IGNORECASE
)

TASK_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(r"\b(?:todo|to-do|action item|task)s?:? (?P<x>.+)", re.I), _rest),
    (re.compile(r"\bnext steps?(?: is| are)?:? (?:to )?(?P<x>.+)", re.I), _rest),
    (re.compile(r"\b(?:remember|don't forget|do not forget) to (?P<x>.+)", re.I), _rest),
]

QUESTION_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(r"\bopen questions?(?: is)?:? (?P<x>.+)", re.I), _rest),
    (
        re.compile(
            rf"\b(?:{_I}(?:'re| are| am|'m)? )?(?:still )?(?:not sure|unsure|undecided)(?: yet)? (?P<x>(?:whether|if|about|how|"
            r"what|which|when|where|who) .+)",
            re.I,
        ),
        _rest,
    ),
    (
        re.compile(
            rf"\b(?:{_I} )?(?:still )?(?:need to|have to|must) (?:decide|figure out|find out|work out|settle) "
            r"(?P<x>(?:whether|if|how|what|which|when|where|who) .+)",
            re.I,
        ),
        _rest,
    ),
    (
        re.compile(
            r"\b(?:it'?s|it is) (?:still )?(?:unclear|undecided|open|tbd) (?P<x>(?:whether|if|how|what|which|when|"
            r"where|who) .+)",
            re.I,
        ),
        _rest,
    ),
    (re.compile(r"\bthe (?:open |big |remaining )?question is (?P<x>.+)", re.I), _rest),
    (
        re.compile(
            r"\b(?:we|i) (?:haven't|have not|didn't|did not|don't|do not) (?:yet )?(?:figured out|decided|settled|"
            r"know(?: yet)?)(?: yet)?,?(?: is)? (?P<x>(?:whether|if|how|what|which|when|where|who) .+)",
            re.I,
        ),
        _rest,
    ),
    (re.compile(r"\bwhat (?:i|we) don't know (?:yet )?is (?P<x>.+)", re.I), _rest),
    (re.compile(r"^(?P<x>.+?)\s*(?:[-–—(]\s*)?(?:tbd|to be decided|still open)\)?[.!]?$", re.I), _rest),
]

_DIRECT_QUESTION = re.compile(
    r"^(?:so,? |and |but )?(?:should we|shall we|do we|are we|can we|will we|which|what about|how (?:should|do|will|"
    r"can) we|when (?:should|do|will) we|where (?:should|do|will) we|who (?:should|will))\b.+\?$",
    re.IGNORECASE,
)


def _first_match(sentence: str, cues: Sequence[tuple[re.Pattern[str], Builder]]) -> str | None:
    for pattern, build in cues:
        match = pattern.search(sentence)
        if match:
            item = tidy(build(match))
            if len(item) >= 3:
                return item
    return None


# ---------------------------------------------------------------------------------------------
# entities

_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:[ -][A-Z][A-Za-z0-9]*)*\b")
_IDENTIFIERS = (
    re.compile(r"`([^`\n]{2,60})`"),
    re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]+)+\b"),
    re.compile(r"\b[\w-]+\.(?:py|ts|tsx|js|md|sql|json|yaml|yml|toml|css|html|txt|csv)\b"),
)
_NOT_ENTITIES = frozenset(
    "I I'm I'll I've I'd We We'll We're We've You You'll It It's This That These Those The A An And "
    "But So Yes No Ok OK Okay Also Then If What How Why When Where Which Who Should Can Could Would "
    "Will Let Let's Great Sure Thanks Thank Hi Hello Hey Maybe Next First Second Third Finally "
    "However Good Perfect Right Here There Now Please Agreed Done Note Plan Step Option Decision "
    "Assumption Task Question Todo TODO Open Monday Tuesday Wednesday Thursday Friday Saturday "
    "Sunday January February March April May June July August September October November December My "
    "Our Your Their In On At For With To Of From By As Is Are Do Not One Two Three Both Each All Any "
    "Some Most More After Before Since Because Sounds Cool Nice Fine True False Assistant User ".split()
)


def _entities(turns: Iterable[SourceTurn]) -> list[tuple[str, str | None]]:
    counts: Counter[str] = Counter()
    mid_sentence: set[str] = set()
    code: Counter[str] = Counter()
    for turn in turns:
        for sentence in sentences(turn.content):
            for match in _CAPITALISED.finditer(sentence):
                name = match.group(0)
                words = [w for w in re.split(r"[ -]", name) if w not in _NOT_ENTITIES]
                if not words:
                    continue
                name = " ".join(words) if len(words) < len(name.split()) else name
                counts[name] += 1
                if match.start() > 0:
                    mid_sentence.add(name)
        prose = CODE_BLOCK.sub("\n", turn.content)
        for pattern in _IDENTIFIERS:
            # Backticks are only looked for outside fenced blocks, whose fences are backticks too.
            for match in pattern.finditer(prose if pattern.groups else turn.content):
                identifier = match.group(1) if pattern.groups else match.group(0)
                code[identifier] += 2 if pattern.groups else 1  # a backticked name counts as a clear signal
    found: dict[str, tuple[int, str | None]] = {}
    for name, count in counts.items():
        if count >= 2 and name in mid_sentence and len(name) > 1:
            found[name] = (count, None)
    for identifier, count in code.items():
        if count >= 2:
            found.setdefault(identifier, (count, "code"))
    ranked = sorted(found.items(), key=lambda item: (-item[1][0], item[0]))
    return [(name, kind) for name, (_, kind) in ranked[:MAX_ENTITIES]]


_SECTION_HEADING = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*|__)?(?P<name>decisions?|decided|assumptions?|next steps?|to-?dos?|tasks?|action items?|"
    r"open questions?|questions?)(?: so far| made| to resolve| for now)?\s*:?\s*(?:\*\*|__)?\s*:?\s*$",
    re.IGNORECASE,
)
_SECTION_FIELD = {
    "decision": "d",
    "decided": "d",
    "assumption": "a",
    "next step": "t",
    "todo": "t",
    "to-do": "t",
    "task": "t",
    "action item": "t",
    "open question": "q",
    "question": "q",
}


def _section(line: str) -> str | None:
    match = _SECTION_HEADING.match(line)
    if not match:
        return None
    name = match.group("name").lower().rstrip("s")
    return _SECTION_FIELD.get(name)


class _Collector:
    def __init__(self) -> None:
        self.result = Extraction()
        self.seen: dict[str, set[str]] = {name: set() for name in ("d", "a", "t", "q")}

    def add(self, kind: str, item: str | None, *, done: bool = False) -> None:
        words = content_words(item or "")
        if not item or not words or key(item) in self.seen[kind]:
            return
        existing = {"d": self.result.decisions, "a": self.result.assumptions, "q": self.result.open_questions}
        items = [text for text, _ in self.result.tasks] if kind == "t" else existing[kind]
        # "Book the hotel tonight" and "Book the Baixa hotel" are one task said twice.
        if len(items) >= MAX_ITEMS or any(near_duplicate(words, content_words(other)) for other in items):
            return
        self.seen[kind].add(key(item))
        if kind == "t":
            self.result.tasks.append((item, done))
        else:
            existing[kind].append(item)

    def sentence(self, sentence: str, index: int, role: str, direct_questions: list[tuple[int, str]]) -> None:
        flat = plain(sentence)
        question = _first_match(flat, QUESTION_CUES)
        if question:
            self.add("q", question if question.endswith("?") else question + "?")
            return
        if flat.endswith("?"):
            if _DIRECT_QUESTION.match(flat):
                direct_questions.append((index, tidy(flat)))
            # "Assuming we stay small, one server is enough, right?" still states an assumption.
            self.add("a", _first_match(flat, ASSUMPTION_CUES))
            return
        if flat.lower().startswith(("if ", "what if", "unless ")) or _NEGATED.search(flat):
            return
        for kind, cues in (("d", DECISION_CUES), ("a", ASSUMPTION_CUES), ("t", TASK_CUES)):
            item = _first_match(flat, cues)
            if item:
                self.add(kind, item)
                return
        commitment = _COMMITMENT.search(flat)
        # An assistant's "I'll …" is about its own reply; the user's, or anyone's "we'll …", is work to do.
        parts = [flat]
        if commitment and not (role == "assistant" and commitment["who"].lower() == "i"):
            first, *parts = _AND_TASK.split(commitment["x"])
            self.add("t", tidy(first))
        for part in parts:
            named = _NAMED_COMMITMENT.match(part) or _NAMED_COMMITMENT.search(part)
            if named and named["who"] not in _NOT_ENTITIES:
                self.add("t", f"{tidy(named['x'])} ({named['who']})")
            elif part is not flat:
                self.add("t", tidy(part))


def extract(turns: Sequence[SourceTurn]) -> Extraction:
    """Extract Checkpoint fields from the given Turns only."""
    collector = _Collector()
    direct_questions: list[tuple[int, str]] = []
    for index, turn in enumerate(turns):
        section: str | None = None
        for line in CODE_BLOCK.sub("\n", turn.content).splitlines():
            if not line.strip():
                continue
            heading = _section(line)
            if heading:
                section = heading
                continue
            # "Great choice. Next steps:" — a heading at the end of a line opens a list too.
            last = sentences(line)[-1] if sentences(line) else ""
            trailing = _section(last) if last.rstrip().endswith(":") else None
            checkbox = _CHECKBOX.match(line)
            if checkbox:
                collector.add("t", tidy(checkbox.group("text")), done=checkbox.group(1).lower() == "x")
                continue
            if section and BULLET.match(line):
                # An item under a "Decisions:" / "Next steps:" / … heading is that kind of item.
                item = tidy(BULLET.sub("", line))
                collector.add(section, item + "?" if section == "q" and not item.endswith("?") else item)
                continue
            section = trailing
            for sentence in sentences(line)[:-1] if trailing else sentences(line):
                collector.sentence(sentence, index, turn.role, direct_questions)
    result = collector.result
    # A direct question stays open unless a later decision covers most of its words.
    decided = [content_words(d) for d in result.decisions]
    for _, question in direct_questions:
        if not any(answers(d, question) for d in decided):
            collector.add("q", question)
    result.entities = _entities(turns)
    result.message, result.summary = _title_and_summary(turns, result)
    return result


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _title_and_summary(turns: Sequence[SourceTurn], result: Extraction) -> tuple[str, str]:
    first_user = next((t for t in turns if t.role == "user"), turns[0] if turns else None)
    opening = tidy(sentences(first_user.content)[0]) if first_user and sentences(first_user.content) else ""
    title = result.decisions[0] if result.decisions else opening or "Checkpoint"
    title = title if len(title) <= 72 else title[:71].rstrip() + "…"
    span = f"Turns {turns[0].sequence_number}–{turns[-1].sequence_number}" if turns else "No Turns"
    parts = [f"{span}."]
    if opening:
        parts.append(f"Started from: {opening if len(opening) <= 160 else opening[:159] + '…'}.")
    if result.decisions:
        parts.append("Decided: " + "; ".join(result.decisions[:3]) + ".")
    counts = f"{_count(len(result.tasks), 'task')} and {_count(len(result.open_questions), 'open question')} noted."
    parts.append(counts)
    return title, " ".join(parts)
