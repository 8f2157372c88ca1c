"""Pasted transcripts in the shapes people have at hand.

- Speaker-prefixed text: lines starting `User:` / `Assistant:` (also `Human:`, `Me:`, `You:`,
  `AI:`, `ChatGPT:`, `Claude:`, `Model:`, `Bot:`), with `**bold**` prefixes allowed; a message
  runs until the next prefixed line.
- A ChatGPT conversation export (one conversation with a `mapping` of nodes, or a one-element list
  of them): the branch that ends at `current_node`, oldest first.
- A Claude conversation export (an object with `chat_messages`, or a one-element list of them).
  Both are read as the data export's conversations are (`chatgpt.py`, `claude.py`): the model's
  reasoning, its tool calls and hidden messages are left out.
- A plain list of `{role, content}` messages.
System and tool messages are left out: a Turn is from the user or the assistant.

The JSON shapes come from whoever pasted them, so nothing here trusts them: every value is
checked for its type before use, a shape that is wrong says where (`TranscriptError`, a 400),
and the walk over ChatGPT's node graph visits each node at most once, so a cycle in `children`
or `parent` ends the walk instead of the server (`messages.tree_path`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from smriti.transcripts.chatgpt import read_chatgpt
from smriti.transcripts.claude import read_claude
from smriti.transcripts.messages import (
    ASSISTANT_NAMES,
    USER_NAMES,
    ParsedTurn,
    TranscriptError,
    merge,
    object_at,
    role_of,
    storable,
    text_of,
)

_PREFIX = re.compile(
    r"^\s*(?:\*\*|__)?(?P<who>"
    + "|".join(USER_NAMES + ASSISTANT_NAMES)
    + r")(?:\*\*|__)?\s*:(?:\*\*|__)?\s?(?P<rest>.*)$",
    re.IGNORECASE,
)

EXPECTED_SHAPES = (
    "Expected lines starting with 'User:' and 'Assistant:' (or Human:/AI:/Me:), a ChatGPT or Claude "
    "conversation export (JSON), or a JSON list of {role, content} messages."
)


def _from_prefixed_text(text: str) -> list[ParsedTurn]:
    turns: list[ParsedTurn] = []
    role: str | None = None
    lines: list[str] = []
    for line in text.splitlines():
        match = _PREFIX.match(line)
        if match:
            if role is not None:
                turns.append(ParsedTurn(role, "\n".join(lines)))
            role = role_of(match.group("who"))
            lines = [match.group("rest")]
        elif role is not None:
            lines.append(line)
    if role is not None:
        turns.append(ParsedTurn(role, "\n".join(lines)))
    return turns


def _from_messages(messages: list[Any], where: str) -> list[ParsedTurn]:
    turns = []
    for index, item in enumerate(messages):
        if item is None:
            continue  # says nothing, as a null message of an export (it refused the whole paste)
        message = object_at(item, f"{where}[{index}]")
        role = role_of(message.get("role"))
        if role is not None:
            turns.append(ParsedTurn(role, text_of(message.get("content"), f"{where}[{index}].content")))
    return turns


def _from_json(document: Any) -> list[ParsedTurn]:
    if isinstance(document, list) and any(isinstance(item, dict) for item in document):
        if all(isinstance(item, dict) and ("mapping" in item or "chat_messages" in item) for item in document):
            if len(document) != 1:
                raise TranscriptError(
                    f"This export holds {len(document)} conversations; paste one conversation at a time."
                )
            document = document[0]
        else:
            return _from_messages(document, "the list")
    if isinstance(document, dict):
        if "mapping" in document:
            return read_chatgpt(document)[0]
        if "chat_messages" in document:
            if not isinstance(document["chat_messages"], list):
                raise TranscriptError("chat_messages must be a list.")
            return read_claude(document)[0]
        if isinstance(document.get("messages"), list):
            return _from_messages(document["messages"], "messages")
    return []


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None  # not JSON after all: read it as text
    except RecursionError:
        raise TranscriptError("The JSON is nested too deeply to read.") from None


def parse_transcript(text: str) -> list[ParsedTurn]:
    stripped = text.strip()
    turns: list[ParsedTurn] = []
    if stripped[:1] in ("{", "["):
        document = _load(stripped)
        if document is not None:
            turns = _from_json(document)
    if not turns:
        turns = _from_prefixed_text(text)
    turns = merge(turns)
    if not turns:
        raise TranscriptError(f"No conversation turns found. {EXPECTED_SHAPES}")
    return storable(turns)
