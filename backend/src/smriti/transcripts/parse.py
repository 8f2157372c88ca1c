"""Pasted transcripts in the shapes people have at hand.

- Speaker-prefixed text: lines starting `User:` / `Assistant:` (also `Human:`, `Me:`, `You:`,
  `AI:`, `ChatGPT:`, `Claude:`, `Model:`, `Bot:`), with `**bold**` prefixes allowed; a message
  runs until the next prefixed line.
- A ChatGPT conversation export (one conversation with a `mapping` of nodes, or a one-element list
  of them): the branch that ends at `current_node`, oldest first.
- A Claude conversation export (an object with `chat_messages`, or a one-element list of them).
- A plain list of `{role, content}` messages.
System and tool messages are left out: a Turn is from the user or the assistant.

The JSON shapes come from whoever pasted them, so nothing here trusts them: every value is
checked for its type before use, a shape that is wrong says where (`TranscriptError`, a 400),
and the walk over ChatGPT's node graph visits each node at most once, so a cycle in `children`
or `parent` ends the walk instead of the server (`chatgpt_branch`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from smriti.core.text import is_blank, unstorable_reason

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
    """The text is not a transcript in any shape Smriti knows, or a JSON export is malformed."""


@dataclass(frozen=True, slots=True)
class ParsedTurn:
    role: str
    content: str


def _role(name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    if name in USER_NAMES:
        return "user"
    if name in ASSISTANT_NAMES:
        return "assistant"
    return None


def _merge(turns: list[ParsedTurn]) -> list[ParsedTurn]:
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


def _text_of(content: Any, where: str) -> str:
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
        text = content.get("text")
        if text is not None and not isinstance(text, str):
            raise TranscriptError(f"{where}.text must be text.")
        return text or ""
    if isinstance(content, list):
        # Parts are flat in every export: a part that is itself a list is not followed.
        parts = [_text_of(part, f"{where}[{i}]") for i, part in enumerate(content) if not isinstance(part, list)]
        return "\n".join(parts)
    raise TranscriptError(f"{where} must be text, an object or a list, not {_kind(content)}.")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where} must be an object, not {_kind(value)}.")
    return value


def chatgpt_branch(mapping: Mapping[str, Any], current_node: Any) -> list[dict[str, Any]]:
    """The nodes from the root to `current_node`, oldest first: ChatGPT keeps every edited or
    regenerated branch, and `current_node` is the one the user last saw.

    Without a usable `current_node`, the branch runs from the root down the last child of each
    node. Either walk visits a node at most once, so it takes at most `len(mapping)` steps
    whatever the links say (a cycle ends it).
    """
    for key, node in mapping.items():
        _object(node, f"mapping[{key!r}]")
        parent, children = node.get("parent"), node.get("children")
        if parent is not None and not isinstance(parent, str):
            raise TranscriptError(f"mapping[{key!r}].parent must be a node id (text) or null.")
        if children is not None and not (isinstance(children, list) and all(isinstance(c, str) for c in children)):
            raise TranscriptError(f"mapping[{key!r}].children must be a list of node ids.")
    if current_node is not None and not isinstance(current_node, str):
        raise TranscriptError(f"current_node must be a node id (text), not {_kind(current_node)}.")
    if current_node is None or current_node not in mapping:
        current_node = _last_leaf(mapping)
    chain: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id: Any = current_node
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        node = mapping[node_id]
        chain.append(node)
        node_id = node.get("parent")
    chain.reverse()
    return chain


def _last_leaf(mapping: Mapping[str, Any]) -> str | None:
    """The end of the last-child path from the root (a node whose parent is not in `mapping`);
    a child seen before ends the path where it turned back."""
    node_id = next((key for key, node in mapping.items() if node.get("parent") not in mapping), None)
    seen: set[str] = set()
    while node_id is not None:
        seen.add(node_id)
        children = mapping[node_id].get("children") or []  # checked by chatgpt_branch
        if not children or children[-1] in seen:
            return node_id
        child = children[-1]
        if child not in mapping:
            raise TranscriptError(f"mapping[{node_id!r}] names the child {child!r}, which is not in mapping.")
        node_id = child
    return None


def _from_chatgpt(conversation: dict[str, Any]) -> list[ParsedTurn]:
    turns = []
    for index, node in enumerate(chatgpt_branch(conversation["mapping"], conversation.get("current_node"))):
        where = f"the branch's node {index + 1}"
        message = node.get("message")
        if message is None:
            continue
        message = _object(message, f"{where}'s message")
        author = message.get("author")
        role = _role(_object(author, f"{where}'s message.author").get("role")) if author is not None else None
        if role is not None:
            turns.append(ParsedTurn(role, _text_of(message.get("content"), f"{where}'s message.content")))
    return turns


def _from_claude(conversation: dict[str, Any]) -> list[ParsedTurn]:
    turns = []
    for index, item in enumerate(conversation["chat_messages"]):
        message = _object(item, f"chat_messages[{index}]")
        role = _role(message.get("sender"))
        if role is not None:
            text = message.get("text")
            if text is not None and not isinstance(text, str):
                raise TranscriptError(f"chat_messages[{index}].text must be text.")
            turns.append(ParsedTurn(role, text or _text_of(message.get("content"), f"chat_messages[{index}].content")))
    return turns


def _from_messages(messages: list[Any], where: str) -> list[ParsedTurn]:
    turns = []
    for index, item in enumerate(messages):
        message = _object(item, f"{where}[{index}]")
        role = _role(message.get("role"))
        if role is not None:
            turns.append(ParsedTurn(role, _text_of(message.get("content"), f"{where}[{index}].content")))
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
            _object(document["mapping"], "mapping")
            return _from_chatgpt(document)
        if "chat_messages" in document:
            if not isinstance(document["chat_messages"], list):
                raise TranscriptError("chat_messages must be a list.")
            return _from_claude(document)
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
    turns = _merge(turns)
    if not turns:
        raise TranscriptError(f"No conversation turns found. {EXPECTED_SHAPES}")
    return _storable(turns)


def parse_conversation(conversation: dict[str, Any]) -> list[ParsedTurn]:
    """One conversation of a ChatGPT or Claude data export (`mapping` or `chat_messages`), its
    Turns merged and checked as a pasted one's are: the unit of `conversations.read_export`.
    Nothing to keep (only system or tool messages, or none) is a TranscriptError too."""
    if "mapping" in conversation:
        _object(conversation["mapping"], "mapping")
        turns = _from_chatgpt(conversation)
    elif isinstance(conversation.get("chat_messages"), list):
        turns = _from_claude(conversation)
    else:
        raise TranscriptError("neither a ChatGPT conversation (mapping) nor a Claude one (chat_messages).")
    turns = _merge(turns)
    if not turns:
        raise TranscriptError("no message from the user or the assistant.")
    return _storable(turns)


def _storable(turns: list[ParsedTurn]) -> list[ParsedTurn]:
    for number, turn in enumerate(turns, start=1):
        # JSON escapes can spell what PostgreSQL cannot store (\u0000) or UTF-8 cannot hold (\ud800).
        reason = unstorable_reason(turn.content)
        if reason is not None:
            raise TranscriptError(f"Message {number} {reason}.")
    return turns
