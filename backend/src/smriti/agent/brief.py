"""The hand-off brief: a Space's HEAD as Markdown that an agent can paste into its own prompt.

The brief holds the Checkpoint's state (summary, decisions, assumptions, tasks, open questions,
entities, artifacts), where it sits in the history, and how to hand the work back: commit on top of
this HEAD with a compare-and-swap, so that a concurrent hand-off is refused instead of lost.
"""

from __future__ import annotations

import datetime
import re
import shlex
from typing import Any, Literal

from smriti.checkpoints.schemas import Checkpoint
from smriti.spaces.schemas import Space

ARTIFACT_CAP = 2000
"""Characters of each artifact shown in the brief: the same cap the chat context uses."""
SHORT_HASH = 12

Via = Literal["cli", "mcp"]


def short(commit_hash: str) -> str:
    return commit_hash[:SHORT_HASH]


def when(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def author_of(checkpoint: Checkpoint) -> str | None:
    """`agent planner`, `human Asha`, or None when the Checkpoint does not say who saved it."""
    author: Any = checkpoint.metadata.get("author")
    if not isinstance(author, dict):
        return None
    name, kind = author.get("name"), author.get("kind")
    if not isinstance(name, str) or not name.strip():
        return None
    return f"{kind} {name}" if isinstance(kind, str) and kind.strip() else name


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _item(text: str) -> str:
    """A list item's text, with further lines indented so they stay inside the item."""
    return text.strip().replace("\n", "\n  ")


def _fence(content: str) -> str:
    """A backtick fence longer than any run of backticks in `content`."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    return "`" * max(3, longest + 1)


def _continue_cli(space: Space, head: Checkpoint | None) -> list[str]:
    target = shlex.quote(space.name)
    expect = head.id if head else "none"
    return [
        "Save your work as a new Checkpoint on top of this one, so whoever comes next can continue from it. "
        "A Checkpoint is the whole state, not a change: repeat the decisions, assumptions, tasks and questions "
        "that still hold.",
        "",
        f"    smriti commit {target} --expect-head {expect} \\",
        '        --message "What you did" --decision "…" --assumption "…" --task "…" --question "…"',
        "",
        "`--expect-head` makes the save a compare-and-swap: if someone saved in the meantime, nothing is "
        f"written and the command exits with 4. Then read the new state with `smriti context {target}`, "
        "reconcile, and commit again on top of it.",
    ]


def _continue_mcp(space: Space, head: Checkpoint | None) -> list[str]:
    expect = f'"{head.id}"' if head else '"none"'
    return [
        "Save your work as a new Checkpoint on top of this one, so whoever comes next can continue from it: "
        f'call the `commit_checkpoint` tool with `space` = "{space.name}", `expected_head` = {expect}, a '
        "`message`, and the decisions, assumptions, tasks and open questions as they stand now (a Checkpoint is "
        "the whole state, not a change: repeat what still holds).",
        "",
        "`expected_head` makes the save a compare-and-swap: if someone saved in the meantime, nothing is written "
        "and the tool reports a conflict. Then call `handoff_brief` again, reconcile, and commit on top of the "
        "new HEAD.",
    ]


def _state(head: Checkpoint, via: Via) -> list[str]:
    """The Checkpoint's state as Markdown sections; empty fields are left out."""
    lines: list[str] = []
    if head.summary.strip():
        lines += ["## Summary", "", head.summary.strip(), ""]
    for title, items in (
        ("Decisions", head.decisions),
        ("Assumptions", head.assumptions),
    ):
        if items:
            lines += [f"## {title}", "", *(f"- {_item(text)}" for text in items), ""]
    if head.tasks:
        lines += ["## Tasks", "", *(f"- [{'x' if t.done else ' '}] {_item(t.text)}" for t in head.tasks), ""]
    if head.open_questions:
        lines += ["## Open questions", "", *(f"- {_item(q)}" for q in head.open_questions), ""]
    if head.entities:
        lines += ["## Entities", ""]
        for entity in head.entities:
            line = f"- **{_one_line(entity.name)}**"
            if entity.kind:
                line += f" ({_one_line(entity.kind)})"
            if entity.description:
                line += f": {_item(entity.description)}"
            lines.append(line)
        lines.append("")
    if head.artifacts:
        lines += ["## Artifacts", ""]
        for artifact in head.artifacts:
            content = artifact.content
            shown = content[:ARTIFACT_CAP]
            fence = _fence(shown)
            lines += [f"### {_one_line(artifact.name)} ({artifact.media_type})", "", fence, shown.rstrip("\n"), fence]
            if len(content) > ARTIFACT_CAP:
                where = (
                    f"`smriti show {short(head.commit_hash)} --json`"
                    if via == "cli"
                    else f'the `get_checkpoint` tool with ref "{head.id}"'
                )
                lines.append(
                    f"[cut: the first {ARTIFACT_CAP} of {len(content)} characters are shown; {where} has all of it]"
                )
            lines.append("")
    return lines


def handoff_brief(
    space: Space,
    head: Checkpoint | None,
    *,
    earlier: list[Checkpoint] | None = None,
    total: int = 0,
    via: Via = "cli",
) -> str:
    """The Markdown brief for `space` at `head` (None when the Space has no Checkpoint yet).

    `earlier` are the Checkpoints before HEAD, newest first (a few are enough), and `total` the
    number of Checkpoints in the Space.
    """
    lines = [f"# Hand-off: {_one_line(space.name)}", ""]
    if space.description.strip():
        lines += [_item(space.description), ""]
    if head is None:
        lines += [
            "This Space has no Checkpoint yet: there is no saved state to continue from. Start fresh.",
            "",
            "## When you hand back",
            "",
            *(_continue_cli(space, None) if via == "cli" else _continue_mcp(space, None)),
            "",
        ]
        return "\n".join(lines)

    lines += [
        "You are continuing work saved in Smriti, where the state of a line of work is kept as versioned "
        "Checkpoints. Below is this Space's HEAD, the latest Checkpoint. Take its decisions as settled unless "
        "you find a reason to revisit them, keep its assumptions in view, and continue with its open tasks "
        "and questions.",
        "",
        f"- Space: {_one_line(space.name)} (`{space.id}`)",
        f"- HEAD: `{short(head.commit_hash)}` “{_one_line(head.message)}”, saved {when(head.created_at)}"
        + (f" by {author_of(head)}" if author_of(head) else ""),
        f"- Checkpoint id: `{head.id}`",
    ]
    before = [c for c in (earlier or []) if c.id != head.id]
    if total > 1 or before:
        history = f"- History: {max(total, len(before) + 1)} Checkpoints"
        if before:
            history += "; earlier: " + ", ".join(f"`{short(c.commit_hash)}` “{_one_line(c.message)}”" for c in before)
        lines.append(history)
    lines.append("")

    lines += _state(head, via)
    lines += ["## When you hand back", ""]
    lines += _continue_cli(space, head) if via == "cli" else _continue_mcp(space, head)
    lines.append("")
    return "\n".join(lines)
