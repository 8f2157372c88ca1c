"""Conversations brought in from elsewhere, read as Sessions (docs/api.md, "Importing conversations"): the formats, and
what every conversation of any of them is read into.

- ChatGPT's data export (Settings → Data controls → Export): `conversations.json`, a JSON list of
  conversations, each a `mapping` of message nodes (`chatgpt.py`);
- Claude's data export: `conversations.json`, a JSON list of conversations, each with
  `chat_messages` (`claude.py`);
- Open WebUI's chat export: a JSON list of chats, each with `chat.history` (`open_webui.py`);
- a Claude Code session: its JSONL transcript, one event a line (`claude_code.py`).

The format of a JSON list is the one its first conversation has; titles, times and the order of
the list are kept, and so is each conversation's own id, by which one imported before is known
again. A conversation that cannot be read (a malformed message, text PostgreSQL cannot store,
nothing but system or tool messages, a conversation of another format) is not a reason to refuse
the rest: it is skipped with its reason, and the others are imported. A file that is not such
an export at all is refused, and so is a list holding something that is no conversation of any
of these kinds (`export_file.py`, `session_file.py` read the file, one conversation at a time).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Literal

from smriti.core.text import is_blank, unstorable_reason
from smriti.transcripts.chatgpt import read_chatgpt
from smriti.transcripts.claude import read_claude
from smriti.transcripts.messages import LeftOut, ParsedTurn, TranscriptError, merge, moment, storable
from smriti.transcripts.open_webui import read_open_webui

ExportFormat = Literal["chatgpt", "claude", "claude_code", "open_webui"]
ListFormat = Literal["chatgpt", "claude", "open_webui"]
"""The formats that come as a JSON list of conversations."""
NAMES: dict[ExportFormat, str] = {
    "chatgpt": "ChatGPT",
    "claude": "Claude",
    "claude_code": "Claude Code",
    "open_webui": "Open WebUI",
}
MAX_TITLE_CHARS = 200
MAX_ID_CHARS = 200
UNTITLED = "Untitled conversation"

# What holds a conversation's messages, in each format of a list.
_MESSAGES: dict[ListFormat, str] = {"chatgpt": "mapping", "claude": "chat_messages", "open_webui": "chat"}
_TITLE: dict[ListFormat, str] = {"chatgpt": "title", "claude": "name", "open_webui": "title"}
_TIMES: dict[ListFormat, tuple[str, str]] = {
    "chatgpt": ("create_time", "update_time"),
    "claude": ("created_at", "updated_at"),
    "open_webui": ("created_at", "updated_at"),
}
_IDS: dict[ListFormat, tuple[str, ...]] = {
    "chatgpt": ("conversation_id", "id"),
    "claude": ("uuid",),
    "open_webui": ("id",),
}


@dataclass(frozen=True, slots=True)
class Conversation:
    title: str
    turns: list[ParsedTurn]
    created_at: datetime.datetime | None = None
    """When the conversation began, as the source says; None when it does not say (or says
    something that is not a time), and the Session is then as new as the import."""
    updated_at: datetime.datetime | None = None
    source_id: str | None = None
    """The conversation's own id in its source (`source_id`), by which a later import of the same
    file knows it; None when it has none usable."""
    left_out: LeftOut = field(default_factory=LeftOut)
    number: int = 1
    """Its place in the file, counted from 1."""


@dataclass(frozen=True, slots=True)
class Skipped:
    title: str
    reason: str


def format_of(item: Any) -> ListFormat | None:
    """The format of one item of a JSON list, by the key that holds its messages (a ChatGPT
    conversation without its `mapping` still names its `conversation_id`)."""
    if isinstance(item, dict):
        if "mapping" in item or "conversation_id" in item:
            return "chatgpt"
        if "chat_messages" in item:
            return "claude"
        if isinstance(item.get("chat"), dict):
            return "open_webui"
    return None


def read_conversation(item: Any, number: int, export: ListFormat) -> Conversation | Skipped:
    """Conversation `number` (counted from 1) of a list in `export`'s format, or why it is skipped."""
    found = format_of(item)
    title = _title(item, number, found or export)  # a conversation of another format: its own title
    if found != export:
        kind = f"a {NAMES[found]} conversation" if found is not None else "no conversation"
        return Skipped(title, f"conversation {number} is {kind}, and this export is {NAMES[export]}'s.")
    try:
        turns, left = _read(item, export)
    except TranscriptError as exc:
        return Skipped(title, f"conversation {number}: {exc}")
    except RecursionError:
        return Skipped(title, f"conversation {number} is nested too deeply to read.")
    return Conversation(
        title, turns, *_times(item, export), source_id=source_id(item, _IDS[export]), left_out=left, number=number
    )


def _read(item: dict[str, Any], export: ListFormat) -> tuple[list[ParsedTurn], LeftOut]:
    key = _MESSAGES[export]
    if key not in item:
        raise TranscriptError(f"a {NAMES[export]} conversation without its messages (`{key}`).")
    if export == "chatgpt":
        turns, left = read_chatgpt(item)
    elif export == "claude":
        if not isinstance(item["chat_messages"], list):
            raise TranscriptError("chat_messages must be a list.")
        turns, left = read_claude(item)
    else:
        turns, left = read_open_webui(item)
    return turns_of(turns), left


def turns_of(turns: list[ParsedTurn]) -> list[ParsedTurn]:
    """A conversation's messages as its Turns: one side's consecutive messages joined, and checked
    for what cannot be stored. Nothing to keep (only system or tool messages, or none) is a
    TranscriptError."""
    merged = merge(turns)
    if not merged:
        raise TranscriptError("no message from the user or the assistant.")
    return storable(merged)


def title_or(raw: Any, fallback: str) -> str:
    """A title as the source names it, on one line and cut to a Session title's length; one it
    lacks (or that cannot be stored) is `fallback`."""
    if not isinstance(raw, str) or is_blank(raw) or unstorable_reason(raw) is not None:
        return fallback
    title = " ".join(raw.split())
    return title if len(title) <= MAX_TITLE_CHARS else title[: MAX_TITLE_CHARS - 1] + "…"


def _title(item: Any, number: int, export: ListFormat) -> str:
    raw = item.get(_TITLE[export]) if isinstance(item, dict) else None
    if raw is None and export == "open_webui" and isinstance(item, dict) and isinstance(item.get("chat"), dict):
        raw = item["chat"].get("title")
    return title_or(raw, f"{UNTITLED} {number}")


def source_id(item: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    """The first of `keys` that is an id a Space can keep: text of 1 to 200 characters."""
    for key in keys:
        value = item.get(key)
        if isinstance(value, str) and 0 < len(value) <= MAX_ID_CHARS and unstorable_reason(value) is None:
            return value
    return None


def times(
    created: datetime.datetime | None, updated: datetime.datetime | None
) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    """A Session's times from the source's: none without a start, and never changed before it."""
    if created is None:
        return None, None
    return created, updated if updated is not None and updated >= created else created


def _times(item: dict[str, Any], export: ListFormat) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    created, updated = _TIMES[export]
    return times(moment(item.get(created)), moment(item.get(updated)))
