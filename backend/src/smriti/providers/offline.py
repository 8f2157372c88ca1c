"""The offline provider: deterministic, no network, always available.

Its reply says exactly what context it received, which makes it useful for demos and for
checking a mount without any key.
"""

from __future__ import annotations

import json
import re

from smriti.core.cpu import off_loop
from smriti.drafting.prompt import DRAFT_SCHEMA_NAME, parse_transcript
from smriti.providers.base import ProviderReply, ProviderRequest
from smriti.rules.extract import Extraction, extract

OFFLINE_MODEL = "offline-1"
OFFLINE_MARK = "[offline provider:"

# Headers start after a newline (the preamble comes first). A literal "\n##" lets the regex
# engine jump from one candidate to the next, where "^" in MULTILINE mode tries every position:
# ~2.5 µs instead of ~14 per 4 KB Checkpoint, on every mounted send.
_CHECKPOINT_HEADER = re.compile(r"\n## Checkpoint (\S+): ([^\n]*)")
_SECTION = re.compile(r"\n### ([^\n]+?) \((\d+)\)(?=\n|\Z)")

_KINDS = (
    ("decisions", "decision"),
    ("assumptions", "assumption"),
    ("tasks", "task"),
    ("open questions", "open question"),
    ("entities", "entity"),
    ("artifacts", "artifact"),
)


def _preview(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class OfflineProvider:
    name = "offline"
    label = "Offline (built in)"
    default_model = OFFLINE_MODEL
    models: tuple[str, ...] = (OFFLINE_MODEL,)
    configured = True
    unavailable_reason = None

    async def complete(self, request: ProviderRequest) -> ProviderReply:
        if request.json_schema_name == DRAFT_SCHEMA_NAME and request.messages:
            # Drafting offline: the same deterministic rules, applied to the Turns it was sent.
            # Its own earlier replies describe what it was sent, not the work: leave them out.
            # A long Session takes a while to read, so it is read off the event loop.
            transcript = request.messages[-1].content

            def draft() -> str:
                turns = [t for t in parse_transcript(transcript) if not t.content.startswith(OFFLINE_MARK)]
                return draft_json(extract(turns))

            return ProviderReply(content=await off_loop(draft), model=request.model)
        return ProviderReply(content=describe_context(request), model=request.model)

    async def close(self) -> None:
        return None


def describe_context(request: ProviderRequest) -> str:
    history = request.messages[:-1]
    latest = request.messages[-1].content if request.messages else ""
    lines = [f"{OFFLINE_MARK} no model was called; this reply describes the context it received]"]
    header = _CHECKPOINT_HEADER.search(request.system or "")
    if header is None:
        lines.append("Mounted Checkpoint: none (the whole Session history is in context).")
    else:
        counts = {name.lower(): int(count) for name, count in _SECTION.findall(request.system or "")}
        parts = [f"{counts.get(kind, 0)} {kind if counts.get(kind, 0) != 1 else one}" for kind, one in _KINDS]
        lines.append(f"Mounted Checkpoint: {header.group(1)} «{header.group(2)}» with {', '.join(parts)}.")
    lines.append(f"History: {len(history)} Turn{'s' if len(history) != 1 else ''} before your message.")
    lines.append(f"Your message: «{_preview(latest)}»")
    return "\n".join(lines)


def draft_json(extraction: Extraction) -> str:
    return json.dumps(
        {
            "message": extraction.message,
            "summary": extraction.summary,
            "decisions": extraction.decisions,
            "assumptions": extraction.assumptions,
            "tasks": [{"text": text, "done": done} for text, done in extraction.tasks],
            "open_questions": extraction.open_questions,
            "entities": [{"name": name, "kind": kind, "description": None} for name, kind in extraction.entities],
        }
    )
