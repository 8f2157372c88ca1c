"""Deterministic Checkpoint extraction: rule-based drafting and the V1 transcripts' context packs.

It reads only the Turns it is given and keeps only what is stated with a clear cue ("we decided
to…", "assuming…", "I'll book…", "open question: …"), so it prefers missing an item to
inventing one. The cues are in `cues`, entities in `entities`, the title and summary in
`summary`; this module walks the Turns and collects.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from smriti.core.cpu import keep_going
from smriti.rules.cues import (
    AND_TASK,
    ASSUMPTION_CUES,
    CLAUSES,
    COMMITMENT,
    CONFIRMATION,
    DECISION_CUES,
    DIRECT_QUESTION,
    NAMED_COMMITMENT,
    NEGATED,
    QUESTION_CUES,
    TASK_CUES,
    first_match,
)
from smriti.rules.entities import NOT_ENTITIES, entities
from smriti.rules.questions import Asked, Said, answer_score
from smriti.rules.summary import opening, title_and_summary
from smriti.rules.words import BULLET, CODE_BLOCK, content_words, key, near_duplicate, plain, sentences, tidy

_CHECKBOX = re.compile(r"^\s*(?:[-*]\s*)?\[( |x|X)\]\s+(?P<text>.+)$")

MAX_ITEMS = 20


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
        self.suggested: set[str] = set()
        """The content words of the latest assistant Turn: what a "Yes, …" can take up."""
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
        question = first_match(flat, QUESTION_CUES)
        if question:
            self.add("q", question if question.endswith("?") else question + "?")
            return
        if flat.endswith("?"):
            if DIRECT_QUESTION.match(flat):
                direct_questions.append((index, tidy(flat)))
            # "Assuming we stay small, one server is enough, right?" still states an assumption.
            self.add("a", first_match(flat, ASSUMPTION_CUES))
            return
        if flat.lower().startswith(("if ", "what if", "unless ")) or NEGATED.search(flat):
            return
        for kind, cues in (("d", DECISION_CUES), ("a", ASSUMPTION_CUES), ("t", TASK_CUES)):
            item = first_match(flat, cues)
            if item:
                self.add(kind, item)
                return
        if role == "user" and self._confirms(flat):
            return
        for clause in CLAUSES.split(flat):
            self._commitments(clause, role)

    def _confirms(self, flat: str) -> bool:
        """ "Yes, X" where X repeats the assistant's last suggestion (most of its words, at least two)
        is a decision; "Yes, that works" repeats nothing and is left alone."""
        match = CONFIRMATION.match(flat)
        if not match or COMMITMENT.search(match["x"]):
            return False
        words = content_words(match["x"])
        if len(words) < 2 or 5 * len(words & self.suggested) < 4 * len(words):
            return False
        self.add("d", tidy(match["x"]))
        return True

    def _commitments(self, clause: str, role: str) -> None:
        commitment = COMMITMENT.search(clause)
        # An assistant's "I'll …" is about its own reply; the user's, or anyone's "we'll …", is work to do.
        parts = [clause]
        if commitment and not (role == "assistant" and commitment["who"].lower() == "i"):
            first, *parts = AND_TASK.split(commitment["x"])
            self.add("t", tidy(first))
        for part in parts:
            named = NAMED_COMMITMENT.match(part) or NAMED_COMMITMENT.search(part)
            if named and named["who"] not in NOT_ENTITIES:
                self.add("t", f"{tidy(named['x'])} ({named['who']})")
            elif part is not clause:
                self.add("t", tidy(part))


def extract(turns: Sequence[SourceTurn]) -> Extraction:
    """Extract Checkpoint fields from the given Turns only."""
    collector = _Collector()
    direct_questions: list[tuple[int, str]] = []
    for index, turn in enumerate(turns):
        if turn.role == "user" and index > 0 and turns[index - 1].role == "assistant":
            collector.suggested = content_words(turns[index - 1].content)
        elif turn.role != "user":
            collector.suggested = set()
        section: str | None = None
        for line in CODE_BLOCK.sub("\n", turn.content).splitlines():
            keep_going()  # a long Session's draft ends when the server stops
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
    # A direct question stays open unless a decision answers it (`questions.answer_score`).
    decisions = [Said.of(decision) for decision in result.decisions]
    for _, question in direct_questions:
        asked = Asked.of(question)
        if not any(answer_score(decision, asked) > 0 for decision in decisions):
            collector.add("q", question)
    first_user = next((t for t in turns if t.role == "user"), turns[0] if turns else None)
    start = opening(first_user.content if first_user else None)
    work = [*result.decisions, *result.assumptions, *(t for t, _ in result.tasks), *result.open_questions, start]
    result.entities = entities((t.content for t in turns), work)
    result.message, result.summary = title_and_summary(
        turns[0].sequence_number if turns else None,
        turns[-1].sequence_number if turns else None,
        start,
        result.decisions,
        (len(result.tasks), len(result.open_questions)),
    )
    return result
