"""An Open WebUI chat (an item of its export: Settings → Chats → Export, or one chat's "Export
chat (.json)"): what was said.

Each item is `{id, title, chat: {history: {currentId, messages: {id: {parentId, childrenIds,
role, content, files, …}}}, messages: […]}, created_at, updated_at}`. Like ChatGPT's `mapping`,
`history.messages` keeps every edited and regenerated branch, and `currentId` ends the one the
person last saw: that branch is the conversation (`messages.tree_path`). Without `history`, the
flat `chat.messages` list is read in its order.

Open WebUI writes what the model did into the reply's text, each as a `<details type="…">`
block: the model's reasoning (`reasoning`) and its tool calls with their results (`tool_calls`,
`code_interpreter`). Those blocks are cut out and counted (`thinking`, `tool_calls`); the words
around them stay. Before it wrapped a reasoning model's thinking so, the reply began with the
model's own `<think>…</think>` (or `<thinking>`): that is cut out and counted too. Files sent with
a message (`files`, images among them) are counted.
"""

from __future__ import annotations

import re
from typing import Any

from smriti.core.text import is_blank
from smriti.transcripts.messages import (
    LeftOut,
    ParsedTurn,
    TranscriptError,
    object_at,
    role_of,
    text_at,
    tree_path,
)

# Only the opening tag is matched by the expression (a fixed prefix: linear); its end is found
# with str.find, from where the search stands, so the whole text is read once.
_DETAILS = re.compile(r'<details type="(reasoning|tool_calls|code_interpreter)"')
_END = "</details>"
# A reasoning model's raw thinking, which only ever opens its reply (white space before it).
_RAW_THINKING = re.compile(r"\s*+<(think|thinking)>")


def read_open_webui(conversation: dict[str, Any]) -> tuple[list[ParsedTurn], LeftOut]:
    chat = object_at(conversation["chat"], "chat")
    left = LeftOut()
    history = chat.get("history")
    if history is None:
        listed = chat.get("messages")
        if not isinstance(listed, list):
            raise TranscriptError("chat has neither `history` nor a list of `messages`.")
        return _turns(listed, "chat.messages", left), left
    history = object_at(history, "chat.history")
    nodes = object_at(history.get("messages"), "chat.history.messages")
    where = "chat.history.messages"
    path = tree_path(
        nodes,
        history.get("currentId"),
        current_key="chat.history.currentId",
        parent="parentId",
        children="childrenIds",
        where=where,
    )
    turns = _turns([nodes[key] for key in path], where, left)
    on_path = set(path)
    left.branches = sum(1 for key, node in nodes.items() if key not in on_path and _said(node))
    return turns, left


def _turns(messages: list[Any], where: str, left: LeftOut) -> list[ParsedTurn]:
    turns = []
    for index, item in enumerate(messages):
        if item is None:
            continue
        turn = _turn(object_at(item, f"{where}[{index}]"), f"{where}[{index}]", left)
        if turn is not None:
            turns.append(turn)
    return turns


def _turn(message: dict[str, Any], where: str, left: LeftOut) -> ParsedTurn | None:
    files = message.get("files")
    for file in files if isinstance(files, list) else ():
        if isinstance(file, dict) and file.get("type") == "image":
            left.images += 1
        else:
            left.attachments += 1
    role = role_of(message.get("role"))
    if role is None:
        return None
    text = _text(message.get("content"), f"{where}.content", left)
    return ParsedTurn(role, _without_raw_thinking(text, left) if role == "assistant" else text)


def _text(content: Any, where: str, left: LeftOut) -> str:
    """A message's text (a string, or a list of `{type: "text", text}` and image parts), less the
    `<details>` blocks of reasoning and tool calls."""
    if isinstance(content, list):
        texts = []
        for index, part in enumerate(content):
            if isinstance(part, dict) and part.get("type") == "text":
                texts.append(text_at(part.get("text"), f"{where}[{index}].text"))
            elif isinstance(part, dict) and part.get("type") == "image_url":
                left.images += 1
        content = "\n".join(texts)
    return _without_details(text_at(content, where), left)


def _without_details(text: str, left: LeftOut) -> str:
    if "<details" not in text:
        return text
    kept: list[str] = []
    at = 0
    while (found := _DETAILS.search(text, at)) is not None:
        kept.append(text[at : found.start()])
        if found.group(1) == "reasoning":
            left.thinking += 1
        else:
            left.tool_calls += 1
        end = text.find(_END, found.end())
        # A block never closed (a reply stopped while the model was thinking) runs to the end.
        at = len(text) if end == -1 else end + len(_END)
    kept.append(text[at:])
    return "".join(kept)


def _without_raw_thinking(text: str, left: LeftOut) -> str:
    found = _RAW_THINKING.match(text)
    if found is None:
        return text
    left.thinking += 1
    close = f"</{found.group(1)}>"
    end = text.find(close, found.end())
    # Never closed: the reply was stopped while the model was thinking, and holds nothing else.
    return "" if end == -1 else text[end + len(close) :]


def _said(node: Any) -> bool:
    """Whether a message off the branch holds something that would have been a Turn on it."""
    if not isinstance(node, dict):
        return False
    try:
        turn = _turn(node, "message", LeftOut())
    except TranscriptError:
        return False
    return turn is not None and not is_blank(turn.content)
