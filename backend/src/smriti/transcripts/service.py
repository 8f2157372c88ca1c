"""Conversations brought in from elsewhere: an export's conversations (a ChatGPT or Claude data
export, or its ZIP; an Open WebUI chat export; a Claude Code session) as Sessions, and the v1
transcript ingestion, kept for backfilling (parse, summarise, optionally store as a Session)."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import IO
from uuid import UUID

from smriti.access.caller import Agent
from smriti.core.cpu import Lane, holding_a_connection, off_loop
from smriti.core.errors import BadRequest, TooLarge
from smriti.core.json_array import ItemTooLarge
from smriti.core.uploads import within
from smriti.rules.extract import Extraction, SourceTurn, extract
from smriti.sessions.imports import ImportedSession
from smriti.sessions.turns import TurnStore
from smriti.transcripts.answer import ImportAnswer
from smriti.transcripts.conversations import Conversation, ExportFormat, Skipped
from smriti.transcripts.export_file import ExportFile
from smriti.transcripts.messages import ParsedTurn, TranscriptError
from smriti.transcripts.parse import parse_transcript
from smriti.transcripts.schemas import ImportedTurn, TranscriptImport, TranscriptResult
from smriti.transcripts.session_file import LineTooLong, SessionFile
from smriti.transcripts.upload import UploadText

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


@dataclass(frozen=True, slots=True)
class ConversationFile:
    """What an import reads, and the reader of its kind (`ExportFile` or `SessionFile`)."""

    text: UploadText
    reader: ExportFile | SessionFile

    @property
    def format(self) -> ExportFormat | None:
        return self.reader.format

    def check(self) -> bool:
        return self.reader.check()

    def batches(self) -> Iterator[list[Conversation | Skipped]]:
        return self.reader.batches()

    def close(self) -> None:
        self.text.close()


@dataclass(frozen=True, slots=True)
class TranscriptService:
    turns: TurnStore
    max_import_bytes: int
    max_item_bytes: int
    """SMRITI_MAX_BUNDLE_LINE_BYTES: the largest conversation an import reads."""

    async def import_conversations(
        self,
        repo_id: UUID,
        chunks: AsyncIterator[bytes],
        *,
        declared_bytes: int | None,
        copies: bool = False,
        agent: Agent | None = None,
    ) -> ImportAnswer:
        """An export's conversations as Sessions of the Space, all in one transaction: either every
        conversation that could be read is stored, or (an error) none is. The body is spooled to a
        file and read from there a conversation at a time (`export_file.py`, `session_file.py`).
        A conversation this Space already holds (by its own id) is skipped, naming its Session,
        unless `copies` asks for it again."""
        with tempfile.TemporaryFile() as spool:
            async for chunk in within(chunks, self.max_import_bytes, "The export", declared_bytes=declared_bytes):
                spool.write(chunk)
            export = await self._check(spool)
            try:
                return await self._write(repo_id, export, copies=copies, agent=agent)
            finally:
                export.close()

    async def _check(self, spool: IO[bytes]) -> ConversationFile:
        """The whole file checked before anything is written, a step at a time in a worker thread."""
        try:
            export = await off_loop(lambda: self._opened(spool), lane=Lane.IMPORT)
            try:
                while not await off_loop(export.check, lane=Lane.IMPORT):
                    pass
            except BaseException:
                export.close()
                raise
        except TranscriptError as exc:
            raise BadRequest(str(exc), field="body") from None
        except ItemTooLarge as exc:
            raise TooLarge(
                f"Conversation {exc.number} of the export is larger than SMRITI_MAX_BUNDLE_LINE_BYTES "
                f"({exc.limit} bytes), the most one conversation may hold; nothing was imported.",
                limit_bytes=exc.limit,
                field="body",
            ) from None
        except LineTooLong as exc:
            raise TooLarge(
                f"Line {exc.number} of the session is longer than SMRITI_MAX_BUNDLE_LINE_BYTES ({exc.limit} "
                "bytes), the longest line this server reads; nothing was imported.",
                limit_bytes=exc.limit,
                field=f"line {exc.number}",
            ) from None
        return export

    def _opened(self, spool: IO[bytes]) -> ConversationFile:
        """The reader for what was sent: a JSON list (`[`), or a Claude Code session (`{`)."""
        text = UploadText(spool, import_limit=self.max_import_bytes)
        try:
            reader = SessionFile if text.first_byte() == ord("{") else ExportFile
            return ConversationFile(text, reader(text, item_limit=self.max_item_bytes))
        except BaseException:
            text.close()
            raise

    async def _write(
        self, repo_id: UUID, export: ConversationFile, *, copies: bool, agent: Agent | None
    ) -> ImportAnswer:
        """Each batch read in a worker thread, then written; the answer written as they go."""
        assert export.format is not None  # check() found it, or refused the file
        answer = ImportAnswer(export.format)
        try:
            # Opened before the first batch: an unknown Space is a 404 whatever the file holds.
            async with self.turns.importing(
                repo_id, IMPORT_PROVIDER, source=export.format, copies=copies, repo_id_in="path", agent=agent
            ) as sessions:
                batches = export.batches()
                while batch := await holding_a_connection(lambda: next(batches, None)):
                    read = [c for c in batch if isinstance(c, Conversation)]
                    added = await sessions.add(
                        [
                            ImportedSession(
                                c.title,
                                [(t.role, t.content) for t in c.turns],
                                c.created_at,
                                c.updated_at,
                                source_id=c.source_id,
                            )
                            for c in read
                        ]
                    )
                    answer.add(batch, iter(added))
        except BaseException:
            answer.close()
            raise
        return answer

    async def ingest(self, data: TranscriptImport, *, agent: Agent | None = None) -> TranscriptResult:
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
                agent=agent,
            )
            if data.repo_id
            else None
        )
        return TranscriptResult(
            turns=[ImportedTurn(role=t.role, content=t.content) for t in turns],  # type: ignore[arg-type]
            context_pack=pack,
            session_id=session_id,
        )
