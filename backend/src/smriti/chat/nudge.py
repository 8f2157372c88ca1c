"""The "consider checkpointing" hint. It only ever recommends; it never creates a Checkpoint."""

from __future__ import annotations

import re

from smriti.chat.schemas import Suggestion

# Phrases that usually mean something was just settled (the nudge's; drafting's decision cues,
# which also say what was decided, are `rules/extract.DECISION_CUES`).
SETTLED_PHRASES = re.compile(
    r"\b(we(?:'ve| have)? decided|decided to|let'?s go with|we(?:'ll| will) go with|going with|"
    r"final answer|settled on|we agreed|agreed on|the decision is|decision:)",
    re.IGNORECASE,
)
# Every cue contains one of these words. Looking for them first is several times cheaper than the
# case-insensitive regex on the usual exchange with no cue; the regex still decides when one is there.
# "decision is" and "decision:" rather than "decision": a Checkpoint's "12 decisions" (which the
# offline provider's replies mention) is no cue and should not cost the regex.
_CUE_WORDS = ("decided", "go with", "going with", "final answer", "settled on", "agreed", "decision is", "decision:")


def find_decision_cue(text: str) -> str | None:
    folded = text.casefold()
    if not any(word in folded for word in _CUE_WORDS):
        return None
    match = SETTLED_PHRASES.search(text)
    return match.group(0) if match else None


def suggest(*, turns_since: int, since_what: str, threshold: int, latest_exchange: str) -> Suggestion:
    """Recommend a Checkpoint after `threshold` Turns since `since_what`, or on decision language."""
    cue = find_decision_cue(latest_exchange)
    if cue is not None:
        return Suggestion(True, f"The latest exchange sounds like a decision (“{cue}”).")
    if turns_since >= threshold:
        return Suggestion(True, f"{turns_since} Turns since {since_what}.")
    return Suggestion(False, None)
