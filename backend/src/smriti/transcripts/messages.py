"""What every conversation format is read into, and the checks each reader shares.

The JSON shapes come from whoever sent them, so nothing here trusts them: every value is checked
for its type before use, and a shape that is wrong says where (`TranscriptError`, a 400 or a
skipped conversation). A format's messages become `ParsedTurn`s, user or assistant, and what a
reader leaves out of them is counted in `LeftOut`, so that the answer says what is not there.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from smriti.core.text import is_blank, unstorable_reason

USER_NAMES = ("user", "human", "me", "you")
ASSISTANT_NAMES = ("assistant", "ai", "chatgpt", "gpt", "claude", "model", "bot")


class TranscriptError(ValueError):
    """The text is not a transcript in any shape Smriti knows, or a JSON export is malformed."""


@dataclass(frozen=True, slots=True)
class ParsedTurn:
    role: str
    content: str


@dataclass(slots=True)
class LeftOut:
    """What a conversation held that its Turns do not, counted (docs/api.md says what each is)."""

    branches: int = 0
    """Messages on branches other than the one imported (edits, regenerated replies)."""
    images: int = 0
    attachments: int = 0
    """Files other than images: documents, audio, their extracted text."""
    tool_calls: int = 0
    """Calls the model made to a tool (searches, code it ran); their results go with them."""
    thinking: int = 0
    """The model's reasoning, and its summaries."""
    hidden: int = 0
    """Messages the source marks as not shown in the conversation."""


def role_of(name: Any) -> str | None:
    """ "user" or "assistant" for the names the formats give them; None for anyone else."""
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    if name in USER_NAMES:
        return "user"
    if name in ASSISTANT_NAMES:
        return "assistant"
    return None


def merge(turns: list[ParsedTurn]) -> list[ParsedTurn]:
    """Drop empty (or invisible-only) messages and join consecutive messages from the same side.
    The parts of a run are joined once, at its end: joining as they came was quadratic."""
    runs: list[tuple[str, list[str]]] = []
    for turn in turns:
        content = turn.content.strip()
        if is_blank(content):
            continue
        if runs and runs[-1][0] == turn.role:
            runs[-1][1].append(content)
        else:
            runs.append((turn.role, [content]))
    return [ParsedTurn(role, "\n\n".join(parts)) for role, parts in runs]


def storable(turns: list[ParsedTurn]) -> list[ParsedTurn]:
    for number, turn in enumerate(turns, start=1):
        # JSON escapes can spell what PostgreSQL cannot store (\u0000) or UTF-8 cannot hold (\ud800).
        reason = unstorable_reason(turn.content)
        if reason is not None:
            raise TranscriptError(f"Message {number} {reason}.")
    return turns


def kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def object_at(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where} must be an object, not {kind(value)}.")
    return value


def text_at(value: Any, where: str) -> str:
    """Text, or "" for null; anything else is an error naming `where`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TranscriptError(f"{where} must be text.")
    return value


def text_of(content: Any, where: str) -> str:
    """Message text from the content shapes the exports use: a string, `{parts: […]}`,
    `{text: …}`, or a list of those. Anything else (images, tool payloads) contributes nothing;
    a value of the wrong kind where text is expected is an error."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        parts = content.get("parts")
        if parts is not None:
            if not isinstance(parts, list):
                raise TranscriptError(f"{where}.parts must be a list.")
            return "\n".join(part for part in parts if isinstance(part, str))
        return text_at(content.get("text"), f"{where}.text")
    if isinstance(content, list):
        # Parts are flat in every export: a part that is itself a list is not followed.
        parts = [text_of(part, f"{where}[{i}]") for i, part in enumerate(content) if not isinstance(part, list)]
        return "\n".join(parts)
    raise TranscriptError(f"{where} must be text, an object or a list, not {kind(content)}.")


def tree_path(
    nodes: Mapping[str, Any], current: Any, *, current_key: str, parent: str, children: str, where: str
) -> list[str]:
    """The keys of the nodes from the root to `current` (the conversation's `current_key`), oldest
    first: a conversation kept as a tree of messages (ChatGPT's `mapping`, Open WebUI's
    `history.messages`) holds every edited or regenerated branch, and `current` ends the one the
    person last saw.

    Without a usable `current`, the path runs from the root down the last child of each node.
    Either walk visits a node at most once, so it takes at most `len(nodes)` steps whatever the
    links say (a cycle ends it). A node that is null is no node: a link to it ends a walk."""
    nodes = {name: node for name, node in nodes.items() if node is not None}
    for name, node in nodes.items():
        object_at(node, f"{where}[{name!r}]")
        up, down = node.get(parent), node.get(children)
        if up is not None and not isinstance(up, str):
            raise TranscriptError(f"{where}[{name!r}].{parent} must be a node id (text) or null.")
        if down is not None and not (isinstance(down, list) and all(isinstance(c, str) for c in down)):
            raise TranscriptError(f"{where}[{name!r}].{children} must be a list of node ids.")
    if current is not None and not isinstance(current, str):
        raise TranscriptError(f"{current_key} must be a node id (text), not {kind(current)}.")
    if current is None or current not in nodes:
        current = _last_leaf(nodes, parent=parent, children=children, where=where)
    path: list[str] = []
    seen: set[str] = set()
    key: Any = current
    while isinstance(key, str) and key in nodes and key not in seen:
        seen.add(key)
        path.append(key)
        key = nodes[key].get(parent)
    path.reverse()
    return path


def _last_leaf(nodes: Mapping[str, Any], *, parent: str, children: str, where: str) -> str | None:
    """The end of the last-child path from the root (a node whose parent is not in `nodes`);
    a child seen before ends the path where it turned back."""
    key = next((key for key, node in nodes.items() if node.get(parent) not in nodes), None)
    seen: set[str] = set()
    while key is not None:
        seen.add(key)
        below = nodes[key].get(children) or []  # checked by tree_path
        if not below or below[-1] in seen:
            return key
        child = below[-1]
        if child not in nodes:
            raise TranscriptError(f"{where}[{key!r}] names the child {child!r}, which is not in {where}.")
        key = child
    return None


_EARLIEST = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
_LATEST = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)


def moment(value: Any) -> datetime.datetime | None:
    """Seconds since 1970 (ChatGPT, Open WebUI) or ISO 8601 text with its offset (Claude, Claude
    Code), as an aware time between 2000 and 2100; anything else is no time at all."""
    found: datetime.datetime | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        try:
            found = datetime.datetime.fromtimestamp(value, tz=datetime.UTC)
        except (OverflowError, OSError, ValueError):
            return None
    elif isinstance(value, str):
        try:
            found = datetime.datetime.fromisoformat(value)
        except ValueError:
            return None
        if found.tzinfo is None:
            return None
    return found if found is not None and _EARLIEST <= found < _LATEST else None
