"""A draft's title and summary, written from what was extracted."""

from __future__ import annotations

from collections.abc import Sequence

from smriti.rules.words import sentences, tidy


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def end(text: str) -> str:
    """The text as a sentence: a full stop unless it already ends like one ("staying in?" stays)."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!", "…")) else text + "."


def opening(first_user_content: str | None) -> str:
    """The first sentence the person wrote, tidied: what the conversation started from."""
    first = sentences(first_user_content)[:1] if first_user_content else []
    return tidy(first[0]) if first else ""


def title_and_summary(
    first_sequence: int | None, last_sequence: int | None, start: str, decisions: Sequence[str], counts: tuple[int, int]
) -> tuple[str, str]:
    title = decisions[0] if decisions else start or "Checkpoint"
    title = title if len(title) <= 72 else title[:71].rstrip() + "…"
    span = f"Turns {first_sequence}–{last_sequence}" if first_sequence is not None else "No Turns"
    parts = [f"{span}."]
    if start:
        parts.append(end(f"Started from: {start if len(start) <= 160 else start[:159] + '…'}"))
    if decisions:
        parts.append(end("Decided: " + "; ".join(decisions[:3])))
    tasks, questions = counts
    parts.append(f"{_count(tasks, 'task')} and {_count(questions, 'open question')} noted.")
    return title, " ".join(parts)
