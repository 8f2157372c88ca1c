"""V1 transcript ingestion, kept for backfilling: parse, summarise, optionally store as a Session."""

from __future__ import annotations

from dataclasses import dataclass

from smriti.core.cpu import off_loop
from smriti.core.errors import BadRequest
from smriti.rules.extract import Extraction, SourceTurn, extract
from smriti.sessions.turns import TurnStore
from smriti.transcripts.parse import ParsedTurn, TranscriptError, parse_transcript
from smriti.transcripts.schemas import ImportedTurn, TranscriptImport, TranscriptResult

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
class TranscriptService:
    turns: TurnStore

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
