"""The cue phrases that mark an item in a conversation: "we decided to…", "assuming…", "I'll
book…", "open question: …". Each pattern captures the item; its builder turns the match into the
item's text. Only clear cues are here, so the extractor prefers missing an item to inventing one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from smriti.rules.words import tidy

Builder = Callable[[re.Match[str]], str]


def _rest(match: re.Match[str]) -> str:
    return match.group("x")


def _verb(verb: str) -> Builder:
    return lambda match: f"{verb} {match.group('x')}"


def _verb_and_rest(match: re.Match[str]) -> str:
    return f"{match.group('v')} {match.group('x')}"


_I = r"(?:we|i)"
# One to three capitalised words opening the sentence: "OK, Hiroshima is in" (not "The car is in").
_NAMED_SUBJECT = (
    r"^(?:ok(?:ay)?,? |so,? |yes,? |fine,? )?(?P<x>(?!(?:the|it|this|that|he|she|they)\b)"
    r"(?-i:[A-ZÀ-ÖØ-Þ][\w'-]*(?: [A-ZÀ-ÖØ-Þ][\w'-]*){0,2}))"
)
_CALENDAR = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
    r"august|september|october|november|december)\b"
)
NEGATED = re.compile(
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
    # "OK, Hiroshima is in." / "Nara is out.": a place or thing added to or dropped from the plan.
    (
        re.compile(rf"{_NAMED_SUBJECT} is in[.!]?$", re.I),
        _verb("Include"),
    ),
    (
        re.compile(rf"{_NAMED_SUBJECT} is out[.!]?$", re.I),
        _verb("Skip"),
    ),
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
    # "we'll do Sintra on day 3", "let's spend day 2 in Belém": a shared plan for a named place or a
    # numbered day is a choice. "I'll do the laundry" stays a task: the object must be a name (not a
    # weekday or a month, "we'll do Monday's report" is work) or a day, and the plan must be "we".
    (
        re.compile(
            r"\b(?:let'?s|we(?:'ll| will| are going to|'re going to)) (?P<v>do|visit|spend|tour|explore|hike) "
            rf"(?P<x>(?!{_CALENDAR})(?-i:[A-ZÀ-ÖØ-Þ])[^,;]*|(?:day \d+|the (?:first|second|third|last) day)\b[^,;]*)",
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
COMMITMENT = re.compile(
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
    "set|put|call|invite|pay|clean|merge|release|sign|pick up|drop off|look into|follow up|reach out|talk to|"
    "sort out|sort|exchange|grab|look up|cancel|charge|top up|rent|hire|double-check|chase|scan|post|return|"
    "label|transfer|withdraw|download|bring|text|message|ring|phone|finish|tell|remind|fill in|fill out|"
    "write up|set aside|mail|visit|try out"
)
NAMED_COMMITMENT = re.compile(
    rf"\b(?P<who>[A-Z][a-z]+) (?:will|'ll|can|should|is going to|needs to|has to|is to) (?P<x>(?:{_TASK_VERBS}) .+)"
)
# "…and send it to my writing group": a second task joined with "and".
AND_TASK = re.compile(
    rf",?\s+and (?:then |also )?(?=(?:{_TASK_VERBS})\b)"
    r"|,?\s+and (?=[A-Z][a-z]+ (?:will|'ll|is going to) )"
    rf"|,\s+then (?=(?:{_TASK_VERBS})\b)",
    re.IGNORECASE,
)
# "Marta will check the slots, and I'll pack the adapters": two people's commitments in one sentence.
CLAUSES = re.compile(r",?\s+and (?=(?:we|I|[A-Z][a-z]+)(?:'ll| will| can| should| is going to| needs to)\b)|;\s+")

TASK_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(r"\b(?:todo|to-do|action item|task)s?:? (?P<x>.+)", re.I), _rest),
    (re.compile(r"\bnext steps?(?: is| are)?:? (?:to )?(?P<x>.+)", re.I), _rest),
    (re.compile(r"\b(?:remember|don't forget|do not forget) to (?P<x>.+)", re.I), _rest),
]

QUESTION_CUES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(r"\bopen questions?(?: is)?:? (?P<x>.+)", re.I), _rest),
    (
        re.compile(
            rf"\b(?:{_I}(?:'re| are| am|'m)? )?(?:still )?(?:not sure|unsure|undecided)(?: yet)? "
            r"(?P<x>(?:whether|if|about|how|what|which|when|where|who) .+)",
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

DIRECT_QUESTION = re.compile(
    r"^(?:so,? |and |but )?(?:should we|shall we|do we|are we|can we|will we|which|what about|how (?:should|do|will|"
    r"can) we|when (?:should|do|will) we|where (?:should|do|will) we|who (?:should|will))\b.+\?$",
    re.IGNORECASE,
)


# "Yes, vegetarian option at every meal": the person takes up what the assistant just suggested.
CONFIRMATION = re.compile(r"^(?:yes|yep|yeah|sure|ok|okay|right|good idea|great idea),\s+(?P<x>[^?]+?)[.!]?$", re.I)


def first_match(sentence: str, cues: Sequence[tuple[re.Pattern[str], Builder]]) -> str | None:
    for pattern, build in cues:
        match = pattern.search(sentence)
        if match:
            item = tidy(build(match))
            if len(item) >= 3:
                return item
    return None
