"""V1 transcript ingestion, kept for backfilling: parse, summarise, optionally store as a Session."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec

from smriti.core.cpu import off_loop
from smriti.core.errors import BadRequest
from smriti.core.json_checks import duplicate_key
from smriti.core.uploads import within
from smriti.rules.extract import Extraction, SourceTurn, extract
from smriti.sessions.turns import ImportedSession, TurnStore
from smriti.transcripts.conversations import ExportContents, read_export
from smriti.transcripts.parse import ParsedTurn, TranscriptError, parse_transcript
from smriti.transcripts.schemas import (
    ConversationImportResult,
    ImportedConversation,
    ImportedTurn,
    SkippedConversation,
    TranscriptImport,
    TranscriptResult,
)

IMPORT_PROVIDER = "import"
_RECENT_TURNS = 6


def context_pack(turns: list[ParsedTurn], found: Extraction) -> str:
    users = sum(1 for t in turns if t.role == "user")
    lines = [
        "# Context pack",
        f"From a pasted transcript of {len(turns)} messages ({users} from the user, {len(turns) - users} from the "
        "assistant).",
        "",
        "## Summary",
        found.summary,
    ]

    def section(title: str, items: list[str]) -> None:
        if items:
            lines.extend(["", f"## {title}", *(f"- {item}" for item in items)])

    section("Decisions", found.decisions)
    section("Assumptions", found.assumptions)
    section("Tasks", [f"[{'x' if done else ' '}] {text}" for text, done in found.tasks])
    section("Open questions", found.open_questions)
    section("Entities", [name + (f" ({kind})" if kind else "") for name, kind in found.entities])
    lines.extend(["", f"## Last {min(_RECENT_TURNS, len(turns))} messages"])
    for turn in turns[-_RECENT_TURNS:]:
        text = " ".join(turn.content.split())
        lines.append(f"{turn.role.capitalize()}: {text if len(text) <= 400 else text[:399] + '…'}")
    return "\n".join(lines) + "\n"


def _export_of(raw: bytes) -> ExportContents:
    """The export read: valid JSON with no name twice in one object, then its conversations."""
    try:
        document: Any = msgspec.json.decode(raw)
        repeated = duplicate_key(raw)
    except msgspec.DecodeError as exc:
        raise TranscriptError(f"The file is not JSON: {exc}.") from None
    except RecursionError:
        raise TranscriptError("The JSON is nested too deeply to read.") from None
    if repeated is not None:
        raise TranscriptError(f"The name {repeated!r} appears twice in one object.")
    return read_export(document)


@dataclass(frozen=True, slots=True)
class TranscriptService:
    turns: TurnStore
    max_import_bytes: int

    async def import_conversations(
        self, repo_id: UUID, chunks: AsyncIterator[bytes], *, declared_bytes: int | None
    ) -> ConversationImportResult:
        """A data export's conversations as Sessions of the Space, all in one transaction: either
        every conversation that could be read is stored, or (an error) none is."""
        raw = b"".join(
            [
                chunk
                async for chunk in within(chunks, self.max_import_bytes, "The export", declared_bytes=declared_bytes)
            ]
        )
        try:
            contents = await off_loop(lambda: _export_of(raw))
        except TranscriptError as exc:
            raise BadRequest(str(exc), field="body") from None
        # Called with no conversation too: an unknown Space is a 404 whatever the file held.
        ids = await self.turns.import_sessions(
            repo_id,
            IMPORT_PROVIDER,
            [
                ImportedSession(c.title, [(t.role, t.content) for t in c.turns], c.created_at, c.updated_at)
                for c in contents.conversations
            ],
        )
        return ConversationImportResult(
            format=contents.format,
            sessions=[
                ImportedConversation(session_id=session_id, title=c.title, turns=len(c.turns))
                for session_id, c in zip(ids, contents.conversations, strict=True)
            ],
            skipped=[SkippedConversation(title=s.title, reason=s.reason) for s in contents.skipped],
        )

    async def ingest(self, data: TranscriptImport) -> TranscriptResult:
        def read() -> tuple[list[ParsedTurn], str]:
            turns = parse_transcript(data.transcript)
            found = extract([SourceTurn(n, t.role, t.content) for n, t in enumerate(turns, start=1)])
            return turns, context_pack(turns, found)

        try:
            turns, pack = await off_loop(read)
        except TranscriptError as exc:
            raise BadRequest(str(exc), field="transcript") from None
        session_id = (
            await self.turns.import_session(
                data.repo_id,
                data.title.strip() or "Imported transcript",
                IMPORT_PROVIDER,
                [(t.role, t.content) for t in turns],
            )
            if data.repo_id
            else None
        )
        return TranscriptResult(
            turns=[ImportedTurn(role=t.role, content=t.content) for t in turns],  # type: ignore[arg-type]
            context_pack=pack,
            session_id=session_id,
        )
