"""The hand-off brief: a Space's HEAD as Markdown that an agent can paste into its own prompt.

The brief holds the Checkpoint's state (summary, decisions, assumptions, tasks, open questions,
entities, artifacts), where it sits in the history, and how to hand the work back: commit on top of
this HEAD with a compare-and-swap, so that a concurrent hand-off is refused instead of lost.
"""

from __future__ import annotations

import datetime
import re
import shlex
from collections.abc import Sequence
from typing import Any, Literal

from smriti.checkpoints.schemas import Checkpoint
from smriti.checkpoints.text import checkbox
from smriti.lines.schemas import Line
from smriti.spaces.schemas import Space

OTHER_LINES_SHOWN = 10
"""Other lines named in the brief; a Space with more says how many there are."""
ARTIFACT_CAP = 2000
"""Characters of each artifact shown in the brief: the same cap the chat context uses."""
SHORT_HASH = 7
"""As the web app shows a hash, and the shortest prefix the API takes (it asks for more when one is ambiguous)."""

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


def _continue_cli(space: Space, head: Checkpoint | None, line: Line | None) -> list[str]:
    target = shlex.quote(space.name)
    expect = short(head.commit_hash) if head else "none"
    on_line = f" --line {shlex.quote(line.name)}" if line is not None and not line.is_default else ""
    return [
        "Save your work as a new Checkpoint on top of this one, so whoever comes next can continue from it. "
        "The new Checkpoint starts from this one's state: give only what changed (items to add, items to "
        "remove, tasks completed, a new summary); everything you do not name is carried forward.",
        "",
        f"    smriti commit {target}{on_line} --expect-head {expect} \\",
        '        --message "What you did" --decision "…" --task "…" --complete-task "…" --remove-question "…"',
        "",
        "`--expect-head` makes the save a compare-and-swap: if someone saved in the meantime, nothing is "
        f"written and the command exits with 4. Then read the new state with `smriti context {target}{on_line}`, "
        "reconcile, and commit again on top of it. The command prints what changed against the parent.",
    ]


def _continue_mcp(space: Space, head: Checkpoint | None, line: Line | None) -> list[str]:
    expect = f'"{head.id}"' if head else '"none"'
    on_line = f', `line` = "{line.name}"' if line is not None and not line.is_default else ""
    return [
        "Save your work as a new Checkpoint on top of this one, so whoever comes next can continue from it: "
        f'call the `commit_checkpoint` tool with `space` = "{space.name}"{on_line}, `expected_head` = {expect}, '
        "a `message`, and only what changed: decisions, assumptions, tasks and open questions to add, `remove` "
        "for items that no longer hold, `complete_tasks` for tasks done. The new Checkpoint starts from this "
        "one's state; everything you do not name is carried forward.",
        "",
        "`expected_head` makes the save a compare-and-swap: if someone saved in the meantime, nothing is written "
        "and the tool reports a conflict. Then call `handoff_brief` again, reconcile, and commit on top of the "
        "new HEAD.",
    ]


def _lines(line: Line | None, lines: Sequence[Line]) -> list[str]:
    """Which line the brief is of, and the Space's other lines."""
    if line is None:
        return []
    default = next((item for item in lines if item.is_default), None)
    if line.is_default:
        where = f"- Line: `{_one_line(line.name)}`, the Space's default line"
    else:
        where = (
            f"- Line: `{_one_line(line.name)}` (the Space's default line is `{_one_line(default.name)}`)"
            if default
            else f"- Line: `{_one_line(line.name)}`"
        )
    others = [item for item in lines if item.name != line.name]
    if not others:
        return [where]
    shown = ", ".join(
        f"`{_one_line(item.name)}` (HEAD `{short(item.head_commit_hash)}`)"
        if item.head_commit_hash
        else f"`{_one_line(item.name)}` (empty)"
        for item in others[:OTHER_LINES_SHOWN]
    )
    more = f", and {len(others) - OTHER_LINES_SHOWN} more" if len(others) > OTHER_LINES_SHOWN else ""
    return [where, f"- Other lines: {shown}{more}"]


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
        lines += ["## Tasks", "", *(f"- {checkbox(t.done)} {_item(t.text)}" for t in head.tasks), ""]
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
    line: Line | None = None,
    lines: Sequence[Line] = (),
) -> str:
    """The Markdown brief for `space` at `head`, the HEAD of `line` (None when it has no Checkpoint yet).

    `earlier` are the Checkpoints before HEAD on its line, newest first (a few are enough), and
    `total` the number of Checkpoints in the line's history. `lines` are the Space's lines.
    """
    out = [f"# Hand-off: {_one_line(space.name)}", ""]
    if space.description.strip():
        out += [_item(space.description), ""]
    continuing = _continue_cli(space, head, line) if via == "cli" else _continue_mcp(space, head, line)
    where = _lines(line, lines)
    if head is None:
        what = "line" if line is not None and not line.is_default else "Space"
        out += [f"This {what} has no Checkpoint yet: there is no saved state to continue from. Start fresh.", ""]
        out += [*where, ""] if where else []
        out += ["## When you hand back", "", *continuing, ""]
        return "\n".join(out)

    whose = f"line `{_one_line(line.name)}`" if line is not None and not line.is_default else "this Space"
    out += [
        "You are continuing work saved in Smriti, where the state of a line of work is kept as versioned "
        f"Checkpoints. Below is the HEAD of {whose}, its latest Checkpoint. Take its decisions as settled unless "
        "you find a reason to revisit them, keep its assumptions in view, and continue with its open tasks "
        "and questions.",
        "",
        f"- Space: {_one_line(space.name)} (`{space.id}`)",
        *where,
        f"- HEAD: `{short(head.commit_hash)}` “{_one_line(head.message)}”, saved {when(head.created_at)}"
        + (f" by {author_of(head)}" if author_of(head) else ""),
        f"- Checkpoint id: `{head.id}`",
    ]
    before = [c for c in (earlier or []) if c.id != head.id]
    if total > 1 or before:
        history = f"- History: {max(total, len(before) + 1)} Checkpoints"
        if before:
            history += "; earlier: " + ", ".join(f"`{short(c.commit_hash)}` “{_one_line(c.message)}”" for c in before)
        out.append(history)
    out.append("")

    out += _state(head, via)
    out += ["## When you hand back", "", *continuing, ""]
    return "\n".join(out)
