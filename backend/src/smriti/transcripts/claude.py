"""A Claude conversation (an item of its data export's conversations.json): what was said.

Each of `chat_messages` has a `sender` ("human" or "assistant"), its blocks in `content` and a
`text` that flattens every block into one string: the model's reasoning (`thinking` blocks) and
the placeholders of its tool calls ("This block is not supported on your current device yet.")
included. So a message's text is its `text` blocks only, and `text` is read only where there is
no `content` (older exports). Text blocks that follow each other are one text (a block ends where
a citation does, mid-sentence); a block left out between them ends a paragraph. `thinking`,
`tool_use` and image blocks are counted; tool results go with their calls; files and attachments
are counted.

Real exports are not in time order, and keep every edited and regenerated branch: each message
names the one it follows (`parent_message_uuid`), so the conversation is the branch last seen
(`_branch`), in the order its links give, and the messages off it are counted (`branches`).
Messages that are not linked (older exports) are put in the order of their `created_at` (stably:
a message without one stays after the one before it in the file). Only then are consecutive
messages of one side joined into a Turn. A message that is null is left out; the conversation is
not.
"""

from __future__ import annotations

import datetime
from typing import Any

from smriti.core.text import is_blank
from smriti.transcripts.messages import (
    LeftOut,
    ParsedTurn,
    TranscriptError,
    kind,
    moment,
    object_at,
    role_of,
    text_at,
    text_of,
)

_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".heic", ".bmp", ".tiff", ".svg")
_TOOL_CALLS = frozenset({"tool_use", "server_tool_use"})
_THINKING = frozenset({"thinking", "redacted_thinking"})
_BEFORE_EVERY_TIME = datetime.datetime.min.replace(tzinfo=datetime.UTC)


def read_claude(conversation: dict[str, Any]) -> tuple[list[ParsedTurn], LeftOut]:
    left = LeftOut()
    messages = [
        (index, object_at(item, f"chat_messages[{index}]"))
        for index, item in enumerate(conversation["chat_messages"])
        if item is not None  # real exports hold null messages: they say nothing
    ]
    branch = _branch(messages, conversation.get("current_leaf_message_uuid"))
    said: list[tuple[int, datetime.datetime, ParsedTurn]] = []
    last_time = _BEFORE_EVERY_TIME
    for index, message in messages:
        where = f"chat_messages[{index}]"
        if branch is not None and index not in branch:
            left.branches += _said_off_branch(message, where)
            continue
        _count_files(message, left)
        role = role_of(message.get("sender"))
        if role is None:
            continue
        text = _text(message, where, left)
        last_time = moment(message.get("created_at")) or last_time
        said.append((index, last_time, ParsedTurn(role, text)))
    if branch is not None:
        said.sort(key=lambda entry: branch[entry[0]])  # root first, as the links say
    else:
        said.sort(key=lambda entry: entry[1])  # stable: equal times keep the file's order
    return [turn for _, _, turn in said], left


def _branch(messages: list[tuple[int, dict[str, Any]]], current: Any) -> dict[int, int] | None:
    """The messages on the branch last seen: for each, by its place in `chat_messages`, its place
    on the branch from the root. None when the messages are not linked (older exports), and their
    times order them.

    Claude keeps every edited and regenerated branch in `chat_messages`, each message naming the
    one it follows (`parent_message_uuid`; a first message names a root that is no message). The
    branch is the one that ends at `current_leaf_message_uuid` when the conversation names it,
    else at the newest message that nothing follows. The walk visits each message at most once."""
    nodes: dict[str, tuple[int, str, datetime.datetime]] = {}
    for index, message in messages:
        key, parent = message.get("uuid"), message.get("parent_message_uuid")
        if not (isinstance(key, str) and isinstance(parent, str)):
            return None
        nodes[key] = (index, parent, moment(message.get("created_at")) or _BEFORE_EVERY_TIME)
    if not (isinstance(current, str) and current in nodes):
        followed = {parent for _, parent, _ in nodes.values()}
        leaves = [key for key in nodes if key not in followed]
        if not leaves:
            return None  # no messages, or links that only go round: no branch to follow
        current = max(leaves, key=lambda key: (nodes[key][2], nodes[key][0]))
    path: list[int] = []
    seen: set[str] = set()
    key = current
    while key in nodes and key not in seen:
        seen.add(key)
        index, key, _ = nodes[key]
        path.append(index)
    return {index: place for place, index in enumerate(reversed(path))}


def _said_off_branch(message: dict[str, Any], where: str) -> int:
    """1 when a message off the branch holds something that would have been a Turn on it."""
    if role_of(message.get("sender")) is None:
        return 0
    try:
        text = _text(message, where, LeftOut())
    except TranscriptError:
        return 0  # a malformed message off the branch is not read, so it stops nothing
    return 0 if is_blank(text) else 1


def _text(message: dict[str, Any], where: str, left: LeftOut) -> str:
    content = message.get("content")
    if isinstance(content, list) and content:
        return blocks_text(content, f"{where}.content", left)
    text = text_at(message.get("text"), f"{where}.text")
    return text or text_of(content, f"{where}.content")


def blocks_text(blocks: list[Any], where: str, left: LeftOut) -> str:
    """The text blocks, joined as Claude shows them; every other block counted or passed over."""
    paragraphs: list[str] = []
    run: list[str] = []
    for index, block in enumerate(blocks):
        if isinstance(block, str):
            run.append(block)
            continue
        if isinstance(block, dict) and block.get("type", "text") == "text":
            run.append(text_at(block.get("text"), f"{where}[{index}].text"))
            continue
        if block is not None and not isinstance(block, (dict, list)):
            raise TranscriptError(f"{where}[{index}] must be an object, not {kind(block)}.")
        kind_of_block = block.get("type") if isinstance(block, dict) else None
        if kind_of_block in _THINKING:
            left.thinking += 1
        elif kind_of_block in _TOOL_CALLS:
            left.tool_calls += 1
        elif kind_of_block == "image":
            left.images += 1
        if run:
            paragraphs.append("".join(run))
            run = []
    if run:
        paragraphs.append("".join(run))
    return "\n\n".join(paragraph.strip() for paragraph in paragraphs if paragraph.strip())


def _count_files(message: dict[str, Any], left: LeftOut) -> None:
    files = message.get("files")
    for file in files if isinstance(files, list) else ():
        name = file.get("file_name") if isinstance(file, dict) else None
        if isinstance(name, str) and name.lower().endswith(_IMAGE_SUFFIXES):
            left.images += 1
        else:
            left.attachments += 1
    attachments = message.get("attachments")
    left.attachments += len(attachments) if isinstance(attachments, list) else 0
