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
