"""A ChatGPT or Claude data export's `conversations.json`, read as Sessions (SYSTEM.md §10).

Both exports are one JSON list of conversations. ChatGPT's (Settings → Data controls → Export)
hold a `mapping` of message nodes each, every edited or regenerated branch kept, and
`current_node`, the end of the branch the person last saw: that branch is the Session
(`parse.chatgpt_branch`, which visits each node at most once). Claude's hold `chat_messages`, in
order. The format is the one the first conversation has; titles (`title`, `name`) and the order
of the list are kept.

A conversation that cannot be read (a malformed node, text PostgreSQL cannot store, nothing but
system or tool messages) is not a reason to refuse the rest: it is listed in `skipped` with
its reason, and the others are imported. A file that is not such an export at all is refused,
and so is a list holding something that is no conversation of either kind (`export_file.py`
reads the file, one conversation at a time).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any, Literal

from smriti.core.text import is_blank, unstorable_reason
from smriti.transcripts.parse import ParsedTurn, TranscriptError, parse_conversation

ExportFormat = Literal["chatgpt", "claude"]
MAX_TITLE_CHARS = 200
UNTITLED = "Untitled conversation"
_NAMES: dict[ExportFormat, str] = {"chatgpt": "ChatGPT", "claude": "Claude"}


@dataclass(frozen=True, slots=True)
class Conversation:
    title: str
    turns: list[ParsedTurn]
    created_at: datetime.datetime | None = None
    """When the conversation began, as the export says; None when it does not say (or says
    something that is not a time), and the Session is then as new as the import."""
    updated_at: datetime.datetime | None = None


@dataclass(frozen=True, slots=True)
class Skipped:
    title: str
    reason: str


def format_of(item: Any) -> ExportFormat | None:
    if isinstance(item, dict):
        if "mapping" in item:
            return "chatgpt"
        if "chat_messages" in item:
            return "claude"
    return None


def _title(item: Any, index: int, export: ExportFormat) -> str:
    """The conversation's title as the export names it, on one line and cut to a Session title's
    length; one it lacks (or cannot be stored) is named by its place in the file."""
    raw = item.get("title" if export == "chatgpt" else "name") if isinstance(item, dict) else None
    if not isinstance(raw, str) or is_blank(raw) or unstorable_reason(raw) is not None:
        return f"{UNTITLED} {index + 1}"
    title = " ".join(raw.split())
    return title if len(title) <= MAX_TITLE_CHARS else title[: MAX_TITLE_CHARS - 1] + "…"


_EARLIEST = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
_LATEST = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)


def _time(value: Any) -> datetime.datetime | None:
    """ChatGPT's seconds since 1970 or Claude's ISO 8601 text, as an aware time between 2000 and
    2100; anything else is no time at all."""
    moment: datetime.datetime | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        try:
            moment = datetime.datetime.fromtimestamp(value, tz=datetime.UTC)
        except (OverflowError, OSError, ValueError):
            return None
    elif isinstance(value, str):
        try:
            moment = datetime.datetime.fromisoformat(value)
        except ValueError:
            return None
        if moment.tzinfo is None:
            return None
    return moment if moment is not None and _EARLIEST <= moment < _LATEST else None


def _times(item: dict[str, Any], export: ExportFormat) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    keys = ("create_time", "update_time") if export == "chatgpt" else ("created_at", "updated_at")
    created, updated = _time(item.get(keys[0])), _time(item.get(keys[1]))
    if created is None:
        return None, None
    return created, updated if updated is not None and updated >= created else created


def read_conversation(item: Any, number: int, export: ExportFormat) -> Conversation | Skipped:
    """Conversation `number` (counted from 1) of an export in `export`'s format, or why it is skipped."""
    title = _title(item, number - 1, export)
    if format_of(item) != export:
        return Skipped(title, f"conversation {number} is not a {_NAMES[export]} conversation, as the first is.")
    try:
        return Conversation(title, parse_conversation(item), *_times(item, export))
    except TranscriptError as exc:
        return Skipped(title, f"conversation {number}: {exc}")
    except RecursionError:
        return Skipped(title, f"conversation {number} is nested too deeply to read.")
