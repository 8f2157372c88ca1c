"""A ChatGPT conversation (an item of its data export's conversations.json): what was said.

ChatGPT keeps a conversation as a `mapping` of message nodes, every edited or regenerated branch
included, and `current_node`, the end of the branch the person last saw: that branch is the
conversation (`messages.tree_path`). On it, a message is a Turn when it is from the user or the
assistant and addressed to everyone (`recipient` "all", or none):

- a message addressed to a tool (`recipient` "browser", "python", "web.run", "dalle.text2im", …)
  is a tool call: the browsing commands (`search("…")`, `mclick([…])`) and the code the model
  ran. Left out and counted (`tool_calls`); the tools' own messages (role `tool`), their
  results, are left out with them;
- the model's reasoning (`content_type` "thoughts", its recap "reasoning_recap", or the
  "analysis" channel) is left out and counted (`thinking`);
- a message ChatGPT does not show (`metadata.is_visually_hidden_from_conversation`: custom
  instructions, context it adds) is left out and counted (`hidden`);
- system messages are left out, as before.

Images (`image_asset_pointer` parts) and other files (audio, uploads in `metadata.attachments`)
are counted on every message of the branch; the text beside them stays, and so does what a voice
conversation said (`audio_transcription` parts).
"""

from __future__ import annotations

from typing import Any

from smriti.core.text import is_blank
from smriti.transcripts.messages import (
    LeftOut,
    ParsedTurn,
    TranscriptError,
    object_at,
    role_of,
    text_at,
    text_of,
    tree_path,
)

_THINKING = frozenset({"thoughts", "reasoning_recap"})


def read_chatgpt(conversation: dict[str, Any]) -> tuple[list[ParsedTurn], LeftOut]:
    mapping = object_at(conversation["mapping"], "mapping")
    path = tree_path(
        mapping,
        conversation.get("current_node"),
        current_key="current_node",
        parent="parent",
        children="children",
        where="mapping",
    )
    left = LeftOut()
    turns = []
    for index, key in enumerate(path):
        message = mapping[key].get("message")
        if message is not None:
            turn = _turn(message, f"the branch's node {index + 1}'s message", left)
            if turn is not None:
                turns.append(turn)
    on_path = set(path)
    left.branches = sum(1 for key, node in mapping.items() if key not in on_path and _said(node))
    return turns, left


def _turn(message: Any, where: str, left: LeftOut) -> ParsedTurn | None:
    """The message as a Turn, or None when it is not one (what it was is counted in `left`)."""
    message = object_at(message, where)
    author = message.get("author")
    role = role_of(object_at(author, f"{where}.author").get("role")) if author is not None else None
    content = message.get("content")
    metadata = message.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    _count_files(content, metadata, left)
    if role is None:
        return None  # a system message, or a tool's (a result goes with its call)
    recipient = message.get("recipient")
    if recipient is not None and recipient != "all":
        left.tool_calls += 1
        return None
    if (isinstance(content, dict) and content.get("content_type") in _THINKING) or message.get("channel") == "analysis":
        left.thinking += 1
        return None
    text = _text(content, f"{where}.content")
    if metadata.get("is_visually_hidden_from_conversation") is True:
        if not is_blank(text):
            left.hidden += 1
        return None
    return ParsedTurn(role, text)


def _said(node: Any) -> bool:
    """Whether a node off the branch holds something that would have been a Turn on it."""
    if not isinstance(node, dict) or node.get("message") is None:
        return False
    try:
        turn = _turn(node["message"], "message", LeftOut())
    except TranscriptError:
        return False  # a malformed message off the branch is not read, so it stops nothing
    return turn is not None and not is_blank(turn.content)


def _text(content: Any, where: str) -> str:
    """The text of `{content_type, parts}` or `{content_type, text}`: text parts and what a voice
    conversation transcribed, one a line; other parts (images, audio) have none."""
    if not isinstance(content, dict):
        return text_of(content, where)
    parts = content.get("parts")
    if parts is None:
        return text_at(content.get("text"), f"{where}.text")
    if not isinstance(parts, list):
        raise TranscriptError(f"{where}.parts must be a list.")
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("content_type") == "audio_transcription":
            texts.append(text_at(part.get("text"), f"{where}.parts[…].text"))
    return "\n".join(texts)


def _count_files(content: Any, metadata: dict[str, Any], left: LeftOut) -> None:
    parts = content.get("parts") if isinstance(content, dict) else None
    for part in parts if isinstance(parts, list) else ():
        if not isinstance(part, dict):
            continue
        kind = part.get("content_type")
        if kind == "image_asset_pointer":
            left.images += 1
        elif isinstance(kind, str) and kind.endswith("asset_pointer"):  # audio, video
            left.attachments += 1
    attachments = metadata.get("attachments")
    for attachment in attachments if isinstance(attachments, list) else ():
        # An uploaded image is also an image part of the message: counted there.
        mime = attachment.get("mime_type") if isinstance(attachment, dict) else None
        if not (isinstance(mime, str) and mime.startswith("image/")):
            left.attachments += 1
