"""Pasted transcripts in the shapes people have at hand.

- Speaker-prefixed text: lines starting `User:` / `Assistant:` (also `Human:`, `Me:`, `You:`,
  `AI:`, `ChatGPT:`, `Claude:`, `Model:`, `Bot:`), with `**bold**` prefixes allowed; a message
  runs until the next prefixed line.
- A ChatGPT conversation export (one conversation with a `mapping` of nodes, or a one-element list
  of them): the branch that ends at `current_node`, oldest first.
- A Claude conversation export (an object with `chat_messages`, or a one-element list of them).
- A plain list of `{role, content}` messages.
System and tool messages are left out: a Turn is from the user or the assistant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

USER_NAMES = ("user", "human", "me", "you")
ASSISTANT_NAMES = ("assistant", "ai", "chatgpt", "gpt", "claude", "model", "bot")

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


class TranscriptError(ValueError):
    """The text is not a transcript in any shape Smriti knows."""


@dataclass(frozen=True, slots=True)
class ParsedTurn:
    role: str
    content: str


def _role(name: str) -> str | None:
    name = name.strip().lower()
    if name in USER_NAMES:
        return "user"
    if name in ASSISTANT_NAMES:
        return "assistant"
    return None


def _merge(turns: list[ParsedTurn]) -> list[ParsedTurn]:
    """Drop empty messages and join consecutive messages from the same side."""
    merged: list[ParsedTurn] = []
    for turn in turns:
        content = turn.content.strip()
        if not content:
            continue
        if merged and merged[-1].role == turn.role:
            merged[-1] = ParsedTurn(turn.role, merged[-1].content + "\n\n" + content)
        else:
            merged.append(ParsedTurn(turn.role, content))
    return merged


def _from_prefixed_text(text: str) -> list[ParsedTurn]:
    turns: list[ParsedTurn] = []
    role: str | None = None
    lines: list[str] = []
    for line in text.splitlines():
        match = _PREFIX.match(line)
        if match:
            if role is not None:
                turns.append(ParsedTurn(role, "\n".join(lines)))
            role = _role(match.group("who"))
            lines = [match.group("rest")]
        elif role is not None:
            lines.append(line)
    if role is not None:
        turns.append(ParsedTurn(role, "\n".join(lines)))
    return turns


def _text_of(content: Any) -> str:
    """Message text from the several content shapes the exports use."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        if isinstance(content.get("parts"), list):
            return "\n".join(part for part in content["parts"] if isinstance(part, str))
        if isinstance(content.get("text"), str):
            return str(content["text"])
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content)
    return ""


def _from_chatgpt(conversation: dict[str, Any]) -> list[ParsedTurn]:
    mapping: dict[str, Any] = conversation["mapping"]
    node_id = conversation.get("current_node")
    if node_id not in mapping:
        # No pointer to the last message: follow the first child from the root.
        node_id = next((key for key, node in mapping.items() if not node.get("parent")), None)
        while node_id is not None and mapping[node_id].get("children"):
            node_id = mapping[node_id]["children"][-1]
    chain = []
    seen: set[str] = set()
    while node_id is not None and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        chain.append(mapping[node_id])
        node_id = mapping[node_id].get("parent")
    turns = []
    for node in reversed(chain):
        message = node.get("message") or {}
        role = _role(str((message.get("author") or {}).get("role", "")))
        if role is not None:
            turns.append(ParsedTurn(role, _text_of(message.get("content"))))
    return turns


def _from_claude(conversation: dict[str, Any]) -> list[ParsedTurn]:
    turns = []
    for message in conversation["chat_messages"]:
        role = _role(str(message.get("sender", "")))
        if role is not None:
            text = message.get("text") or _text_of(message.get("content"))
            turns.append(ParsedTurn(role, str(text)))
    return turns


def _from_messages(messages: list[Any]) -> list[ParsedTurn]:
    turns = []
    for message in messages:
        if isinstance(message, dict):
            role = _role(str(message.get("role", "")))
            if role is not None:
                turns.append(ParsedTurn(role, _text_of(message.get("content"))))
    return turns


def _from_json(document: Any) -> list[ParsedTurn]:
    if isinstance(document, list) and document and all(isinstance(item, dict) for item in document):
        if all("mapping" in item or "chat_messages" in item for item in document):
            if len(document) != 1:
                raise TranscriptError(
                    f"This export holds {len(document)} conversations; paste one conversation at a time."
                )
            document = document[0]
        else:
            return _from_messages(document)
    if isinstance(document, dict):
        if isinstance(document.get("mapping"), dict):
            return _from_chatgpt(document)
        if isinstance(document.get("chat_messages"), list):
            return _from_claude(document)
        if isinstance(document.get("messages"), list):
            return _from_messages(document["messages"])
    return []


def parse_transcript(text: str) -> list[ParsedTurn]:
    stripped = text.strip()
    turns: list[ParsedTurn] = []
    if stripped[:1] in ("{", "["):
        try:
            document = json.loads(stripped)
        except json.JSONDecodeError:
            document = None
        if document is not None:
            turns = _from_json(document)
    if not turns:
        turns = _from_prefixed_text(text)
    turns = _merge(turns)
    if not turns:
        raise TranscriptError(f"No conversation turns found. {EXPECTED_SHAPES}")
    return turns
