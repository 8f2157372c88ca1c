"""The offline provider: deterministic, no network, always available, and no model.

It only renders: its reply says exactly what context it received, which makes it useful for
demos and for checking a mount without any key. Drafting and review know it has no model
(`model_backed = False`) and use their rule-based strategies instead of asking it for JSON.
Its stored replies are no one's answers, so no model is sent them as its own (`is_offline_reply`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from smriti.providers.base import DEFAULT_REPLY_TOKENS, ProviderRequest, ReplyEnd, ReplyPiece

OFFLINE_PROVIDER = "offline"
OFFLINE_MODEL = "offline-1"
OFFLINE_MARK = "[offline provider:"

# Headers start after a newline (the preamble comes first). A literal "\n##" lets the regex
# engine jump from one candidate to the next, where "^" in MULTILINE mode tries every position:
# ~2.5 µs instead of ~14 per 4 KB Checkpoint, on every mounted send.
_CHECKPOINT_HEADER = re.compile(r"\n## Checkpoint (\S+): ([^\n]*)")
_SECTION = re.compile(r"\n### ([^\n]+?) \((\d+)\)(?=\n|\Z)")

# One piece per line: a stream all the same (the web app shows it arrive), and few enough pieces
# that a plain send, which collects them, costs what it did.
_PIECE = re.compile(r"[^\n]*\n?")

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


def is_offline_reply(role: str, provider: str | None) -> bool:
    """Whether a stored Turn is this provider's reply: a description of what it was sent, which
    no model wrote. Known by the provider the Turn records, not by its words, which a person or a
    model can write too."""
    return role == "assistant" and provider == OFFLINE_PROVIDER


class OfflineProvider:
    name = OFFLINE_PROVIDER
    label = "Offline (built in)"
    default_model = OFFLINE_MODEL
    models: tuple[str, ...] = (OFFLINE_MODEL,)
    lists_every_name = True  # its one model
    reply_tokens = DEFAULT_REPLY_TOKENS  # its description is not cut to any count
    configured = True
    model_backed = False
    networked = False
    unavailable_reason = None

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ReplyPiece]:
        for piece in _PIECE.findall(describe_context(request)):
            if piece:
                yield piece
        yield ReplyEnd(model=request.model)

    async def list_models(self) -> list[str]:
        return list(self.models)

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
        # Previewed like the message: a Checkpoint's message can be as long as a request body,
        # and a reply that repeated it could pass SMRITI_MAX_REPLY_BYTES (a 502 for a reply
        # that only describes its context).
        message = _preview(header.group(2))
        lines.append(f"Mounted Checkpoint: {header.group(1)} «{message}» with {', '.join(parts)}.")
    lines.append(f"History: {len(history)} Turn{'s' if len(history) != 1 else ''} before your message.")
    lines.append(f"Your message: «{_preview(latest)}»")
    return "\n".join(lines)
