"""The checkpoint nudge, pure (chat/nudge.py): when a send suggests a Checkpoint."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from smriti.chat.nudge import SETTLED_PHRASES, find_decision_cue, suggest


def test_nudge() -> None:
    quiet = suggest(turns_since=4, since_what="x", threshold=12, latest_exchange="just chatting")
    assert quiet.checkpoint_recommended is False
    assert quiet.reason is None
    many = suggest(turns_since=12, since_what="the mounted Checkpoint", threshold=12, latest_exchange="ok")
    assert many.checkpoint_recommended is True
    assert many.reason == "12 Turns since the mounted Checkpoint."
    for phrase in ("OK, let's go with Lisbon.", "We decided to use Postgres", "Final answer: 42"):
        cue = suggest(turns_since=2, since_what="x", threshold=12, latest_exchange=phrase)
        assert cue.checkpoint_recommended is True, phrase


_CUES = [
    "we decided", "We've decided", "we have decided", "decided to", "let's go with", "lets go with",
    "we'll go with", "we will go with", "going with", "final answer", "settled on", "we agreed",
    "agreed on", "the decision is", "Decision:",
]  # fmt: skip


@given(st.text(max_size=40), st.sampled_from([*_CUES, "12 decisions", "decision", ""]), st.text(max_size=40))
def test_the_cheap_cue_check_never_changes_what_the_regex_finds(before: str, cue: str, after: str) -> None:
    for phrase in (cue, cue.upper(), cue.title()):
        text = before + phrase + after
        match = SETTLED_PHRASES.search(text)
        assert find_decision_cue(text) == (match.group(0) if match else None)


def test_every_cue_is_found_and_a_count_of_decisions_is_none() -> None:
    for cue in _CUES:
        assert find_decision_cue(f"So, {cue.upper()} that.") is not None, cue
    assert find_decision_cue("Mounted Checkpoint: abc «x» with 12 decisions, 1 task.") is None
