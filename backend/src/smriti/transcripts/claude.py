"""A Claude conversation (an item of its data export's conversations.json): what was said.

Each of `chat_messages` has a `sender` ("human" or "assistant"), its blocks in `content` and a
`text` that flattens every block into one string: the model's reasoning (`thinking` blocks) and
the placeholders of its tool calls ("This block is not supported on your current device yet.")
included. So a message's text is its `text` blocks only, and `text` is read only where there is
no `content` (older exports). Text blocks that follow each other are one text (a block ends where
a citation does, mid-sentence); a block left out between them ends a paragraph. `thinking`,
`tool_use` and image blocks are counted; tool results go with their calls; files and attachments
are counted.

Real exports are not in time order, so the messages are put in the order of their `created_at`
(stably: a message without one stays after the one before it in the file), and only then are
consecutive messages of one side joined into a Turn. A message that is null is left out; the
conversation is not.
"""

from __future__ import annotations

import datetime
from typing import Any

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
    said: list[tuple[datetime.datetime, ParsedTurn]] = []
    last_time = _BEFORE_EVERY_TIME
    for index, item in enumerate(conversation["chat_messages"]):
        if item is None:
            continue  # real exports hold null messages: they say nothing
        where = f"chat_messages[{index}]"
        message = object_at(item, where)
        _count_files(message, left)
        role = role_of(message.get("sender"))
        if role is None:
            continue
        text = _text(message, where, left)
        last_time = moment(message.get("created_at")) or last_time
        said.append((last_time, ParsedTurn(role, text)))
    said.sort(key=lambda entry: entry[0])  # stable: equal times keep the file's order
    return [turn for _, turn in said], left


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
