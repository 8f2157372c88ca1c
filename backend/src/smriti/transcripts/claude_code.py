"""A Claude Code session (its JSONL transcript, `~/.claude/projects/<project>/<sessionId>.jsonl`):
what was said, read one event at a time.

Each line is one event: `{type, uuid, parentUuid, sessionId, timestamp, message, …}`. The user's
and the assistant's are `type` "user" and "assistant", with `message: {role, content}` as the
Messages API has it: a string, or blocks (`text`, `thinking`, `tool_use`, `tool_result`,
`image`). A Turn is the text of those messages, in the file's order (the order they were
written; the branches `parentUuid` makes when a session is rewound are not followed: that would
hold a link for every event, not only the Turns); one reply comes as several events, one a
block, and consecutive ones are joined:

- `tool_use` blocks are counted (`tool_calls`), `thinking` blocks too (`thinking`); the tools'
  results, which come back as the user's messages, go with their calls;
- events Claude Code does not show as said: its own notes (`isMeta`), the summary a compacted
  session goes on from (`isCompactSummary`), a sub-agent's conversation (`isSidechain`), and
  local commands and their output (`/clear`, `!ls`: text that begins `<command-`,
  `<local-command-` or `<bash-`), are counted (`hidden`);
- other events (`summary`, `system`, `file-history-snapshot`, …) are no one's words. The last
  `summary` line, when there is one, is the title; else the first thing the user said.

The whole file is one conversation, its id the last message's `sessionId`: the file's own session
writes its last lines, and a session resumed into a new file may begin with the earlier session's
messages under that session's id (taking the first, the longer file was skipped as the earlier
one). What the session keeps of it (its Turns, the title) is counted as it grows, by what Python
holds, and refused past SMRITI_MAX_BUNDLE_LINE_BYTES, as a conversation of a JSON export is
(`ItemTooLarge`).
"""

from __future__ import annotations

import datetime
import sys
from typing import Any

from smriti.core.json_array import ItemTooLarge
from smriti.core.text import is_blank
from smriti.transcripts.claude import blocks_text
from smriti.transcripts.conversations import UNTITLED, Conversation, Skipped, times, title_or, turns_of
from smriti.transcripts.messages import LeftOut, ParsedTurn, TranscriptError, moment, object_at, text_at

_SAID = ("user", "assistant")
_LOCAL = ("<command-", "<local-command-", "<bash-")
_NOT_SHOWN = ("isMeta", "isCompactSummary", "isSidechain")
_TITLE_SOURCE_CHARS = 1000  # a title is cut to 200 characters: more of the first message is not needed


def is_message(entry: dict[str, Any]) -> bool:
    """Whether an event is one of the user's or the assistant's messages."""
    return entry.get("type") in _SAID and "message" in entry


class ClaudeCodeSession:
    """The session's events, added one at a time (`add`), as one conversation (`conversation`)."""

    def __init__(self, *, limit: int) -> None:
        self._limit = limit
        self._held = 0
        self._turns: list[ParsedTurn] = []
        self._left = LeftOut()
        self._problem: str | None = None
        self._summary: str | None = None
        self._first_said: str | None = None
        self._began: datetime.datetime | None = None
        self._ended: datetime.datetime | None = None
        self.session_id: str | None = None
        self.messages = 0
        """How many of the events are messages (of the user or the assistant)."""

    def add(self, number: int, entry: dict[str, Any]) -> None:
        """Event `number` (its line, from 1). A malformed message makes the conversation a skipped
        one (`conversation`), as in an export; the rest is still counted, to say what it was."""
        if entry.get("type") == "summary" and isinstance(entry.get("summary"), str):
            if self._summary is not None:
                self._held -= sys.getsizeof(self._summary)  # replaced by this one
            self._summary = self._held_text(entry["summary"])
        if not is_message(entry):
            return
        self.messages += 1
        session_id = entry.get("sessionId")
        if isinstance(session_id, str):
            self.session_id = session_id
        when = moment(entry.get("timestamp"))
        if when is not None:
            self._began = self._began or when
            self._ended = when
        if self._problem is None:
            try:
                self._message(entry, f"line {number}")
            except TranscriptError as exc:
                self._problem = f"conversation 1: {exc}"

    def conversation(self) -> Conversation | Skipped:
        title = title_or(self._summary or self._first_said, f"{UNTITLED} 1")
        if self._problem is not None:
            return Skipped(title, self._problem)
        try:
            turns = turns_of(self._turns)
        except TranscriptError as exc:
            return Skipped(title, f"conversation 1: {exc}")
        return Conversation(title, turns, *times(self._began, self._ended), self.session_id, self._left)

    def _message(self, entry: dict[str, Any], where: str) -> None:
        message = object_at(entry["message"], f"{where}: message")
        content = message.get("content")
        role = "user" if entry["type"] == "user" else "assistant"
        shown = not any(entry.get(flag) is True for flag in _NOT_SHOWN)
        left = self._left if shown else LeftOut()  # what a hidden message did is not counted twice
        if isinstance(content, list):
            text = blocks_text(content, f"{where}: message.content", left)
        else:
            text = text_at(content, f"{where}: message.content")
        if is_blank(text):
            return
        if not shown or (role == "user" and text.lstrip().startswith(_LOCAL)):
            self._left.hidden += 1
            return
        if role == "user" and self._first_said is None:
            self._first_said = text.lstrip()[:_TITLE_SOURCE_CHARS].split("\n", 1)[0]
        self._turns.append(ParsedTurn(role, self._held_text(text)))

    def _held_text(self, text: str) -> str:
        """`text`, counted against the limit by what Python holds for it."""
        self._held += sys.getsizeof(text)
        if self._held > self._limit:
            raise ItemTooLarge(1, self._limit)
        return text
