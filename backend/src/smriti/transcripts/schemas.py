from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

from smriti.core.schemas import NonEmptyText, Request, Text


class TranscriptImport(Request, kw_only=True):
    transcript: NonEmptyText
    """The pasted transcript: speaker-prefixed text, or a ChatGPT/Claude export as JSON text."""
    repo_id: UUID | None = None
    """When given, the Turns are also stored as a new Session of this Space."""
    title: Text = ""


class ImportedTurn(msgspec.Struct):
    role: Literal["user", "assistant"]
    content: str


class TranscriptResult(msgspec.Struct):
    turns: list[ImportedTurn]
    context_pack: str
    """A readable summary with the decisions, tasks and questions found, to paste elsewhere."""
    session_id: UUID | None


class ConversationLeftOut(msgspec.Struct, kw_only=True):
    """What a conversation held that its Turns do not, counted."""

    branches: int
    """Messages on branches other than the one imported (edited messages, regenerated replies)."""
    images: int
    attachments: int
    """Files other than images (documents, audio)."""
    tool_calls: int
    """Calls the model made to a tool (a search, code it ran); their results go with them."""
    thinking: int
    """The model's reasoning, and summaries of it."""
    hidden: int
    """Messages the source does not show as said (custom instructions, a tool's notes)."""


class ImportedConversation(msgspec.Struct, kw_only=True):
    session_id: UUID
    title: str
    turns: int
    """How many Turns it holds (numbered 1..n)."""
    left_out: ConversationLeftOut


class SkippedConversation(msgspec.Struct, kw_only=True):
    title: str
    reason: str
    session_id: UUID | None
    """The Session this Space already holds for the conversation, when that is why it was
    skipped; null otherwise."""


class ConversationImportResult(msgspec.Struct, kw_only=True):
    """`POST /v5/repos/{repo_id}/import/conversations`: one Session per conversation read, in the
    export's order, and each conversation that could not be read, or that the Space already
    holds, with the reason."""

    format: Literal["chatgpt", "claude", "claude_code", "open_webui"]
    sessions: list[ImportedConversation]
    skipped: list[SkippedConversation]
