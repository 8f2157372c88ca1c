"""Context assembly: the mounted Checkpoint as the system part, then the Turns after the boundary.

Pure functions; no I/O. What `POST /v4/chat/context` shows and what `POST /v4/chat/send` sends
come from the same function, so the preview cannot drift from the real request; so does the
rebuild of a past reply's context (`answered.py`), which its receipt is checked against.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from operator import attrgetter
from typing import Literal

from smriti.chat.schemas import LeftOut
from smriti.checkpoints.schemas import Checkpoint
from smriti.checkpoints.text import checkbox, entity_text
from smriti.providers.base import ChatMessage
from smriti.providers.offline import OFFLINE_PROVIDER
from smriti.providers.windows import estimated_tokens

ARTIFACT_PROMPT_LIMIT = 2000
_content = attrgetter("content")

OFFLINE_REPLIES_LEFT_OUT = (
    "The offline provider's replies are left out: they only describe the context it received, and no model "
    "wrote them, so no other provider is sent them as its own earlier answers."
)
"""Why Turns in scope are not sent (`AssembledContext.left_out`), in words for the preview."""

PREAMBLE = (
    "You are continuing a line of work saved in Smriti. The Checkpoint below is the saved state of "
    "that work, chosen by the user: rely on it, and treat anything it does not contain as unknown."
)


class HistoryTurn(ChatMessage, frozen=True):
    """A stored Turn in context: the message as the provider gets it, plus its place in the Session.

    Being a `ChatMessage`, it goes into the provider request as it is; a long Session's history
    is not copied into new objects on every send.
    """

    sequence_number: int


@dataclass(frozen=True, slots=True)
class Section:
    name: str
    part: Literal["system", "history"]
    items: int
    text: str
    chars: int = -1
    """Length of the section's text; given instead of the text for the history, which is never joined."""

    @property
    def tokens(self) -> int:
        """A rough, provider-independent estimate: about four characters per token."""
        return estimated_tokens(self.chars if self.chars >= 0 else len(self.text))


@dataclass(frozen=True, slots=True)
class MountedCheckpoint:
    """A Checkpoint rendered as the system part. Checkpoints never change, so this is rendered
    once per Checkpoint and kept (`ChatStore`), not on every send."""

    system: str
    sections: tuple[Section, ...]

    @classmethod
    def render(cls, checkpoint: Checkpoint) -> MountedCheckpoint:
        sections = checkpoint_sections(checkpoint)
        return cls("\n\n".join(section.text for section in sections), tuple(sections))


@dataclass(frozen=True, slots=True)
class AssembledContext:
    system: str | None
    messages: list[ChatMessage]
    sections: list[Section]
    history: Sequence[HistoryTurn]
    """The Turns sent, oldest first: `messages` without the new message."""
    left_out: list[int]
    """The sequence numbers of the Turns in scope that were not sent (`left_out_for`)."""

    def left_out_note(self) -> LeftOut | None:
        """What a preview or a rebuild says of the Turns in scope that were not sent."""
        return LeftOut(self.left_out, OFFLINE_REPLIES_LEFT_OUT) if self.left_out else None


def left_out_for(provider: str, offline_replies: Set[int]) -> Set[int]:
    """The Turns in scope that `provider` is not sent: the offline provider's replies
    (`offline_replies`, by sequence number), to every other provider. A model would take them
    for its own earlier answers, and they answer nothing. The offline provider itself is sent
    them: it is no model, and a reply of its that describes its context counts every Turn the
    Session holds in scope."""
    return frozenset() if provider == OFFLINE_PROVIDER else offline_replies


def cut_artifact(content: str, limit: int = ARTIFACT_PROMPT_LIMIT) -> str:
    if len(content) <= limit:
        return content
    return f"{content[:limit]}\n[artifact cut: showing {limit:,} of {len(content):,} characters]"


def _numbered(items: Sequence[str]) -> str:
    return "\n".join(f"{index}. {item}" for index, item in enumerate(items, start=1))


def checkpoint_sections(checkpoint: Checkpoint) -> list[Section]:
    """The Checkpoint as prompt sections; empty fields are left out."""
    sections = [
        Section(
            "checkpoint",
            "system",
            1,
            f"{PREAMBLE}\n\n## Checkpoint {checkpoint.commit_hash[:7]}: {checkpoint.message}",
        )
    ]

    def add(name: str, title: str, count: int, body: str) -> None:
        if count:
            sections.append(Section(name, "system", count, f"### {title} ({count})\n{body}"))

    if checkpoint.summary.strip():
        sections.append(Section("summary", "system", 1, f"### Summary\n{checkpoint.summary}"))
    add("decisions", "Decisions", len(checkpoint.decisions), _numbered(checkpoint.decisions))
    add("assumptions", "Assumptions", len(checkpoint.assumptions), _numbered(checkpoint.assumptions))
    add(
        "tasks",
        "Tasks",
        len(checkpoint.tasks),
        "\n".join(f"- {checkbox(task.done)} {task.text}" for task in checkpoint.tasks),
    )
    add(
        "open_questions",
        "Open questions",
        len(checkpoint.open_questions),
        _numbered(checkpoint.open_questions),
    )
    add(
        "entities",
        "Entities",
        len(checkpoint.entities),
        "\n".join(f"- {entity_text(e)}" for e in checkpoint.entities),
    )
    add(
        "artifacts",
        "Artifacts",
        len(checkpoint.artifacts),
        "\n\n".join(f"#### {a.name} ({a.media_type})\n{cut_artifact(a.content)}" for a in checkpoint.artifacts),
    )
    return sections


def assemble(
    mounted: MountedCheckpoint | None,
    history: Sequence[HistoryTurn],
    new_message: str | None = None,
    *,
    leave_out: Set[int] = frozenset(),
) -> AssembledContext:
    """The provider's whole input. `history` must already be cut at the boundary by the caller;
    the Turns numbered in `leave_out` are not sent (`left_out_for`)."""
    left_out: list[int] = []
    if leave_out:
        left_out = [turn.sequence_number for turn in history if turn.sequence_number in leave_out]
        if left_out:
            history = [turn for turn in history if turn.sequence_number not in leave_out]
    sections = list(mounted.sections) if mounted is not None else []
    system = mounted.system if mounted is not None else None
    messages: list[ChatMessage] = list(history)
    history_chars = sum(map(len, map(_content, history)))
    sections.append(Section("history", "history", len(history), "", chars=history_chars))
    if new_message is not None:
        messages.append(ChatMessage(role="user", content=new_message))
        sections.append(Section("message", "history", 1, new_message))
    return AssembledContext(system, messages, sections, history, left_out)
