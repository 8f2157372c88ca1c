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


class ImportedConversation(msgspec.Struct, kw_only=True):
    session_id: UUID
    title: str
    turns: int
    """How many Turns it holds (numbered 1..n)."""


class SkippedConversation(msgspec.Struct, kw_only=True):
    title: str
    reason: str


class ConversationImportResult(msgspec.Struct, kw_only=True):
    """`POST /v5/repos/{repo_id}/import/conversations`: one Session per conversation read, in the
    export's order, and each conversation that could not be read with the reason."""

    format: Literal["chatgpt", "claude"]
    sessions: list[ImportedConversation]
    skipped: list[SkippedConversation]
