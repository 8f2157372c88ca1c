"""How many tokens each known model takes in: its context window (SYSTEM.md §9).

One table, kept current for the default models (`core/config.py`); `SMRITI_CONTEXT_WINDOWS`
(`model=tokens,…`, read by `core/config.py`) adds or overrides entries. A model with no entry has an unknown window:
nothing is refused for it, and the context panel says the window is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping

from smriti.core.errors import BadRequest
from smriti.providers.base import ProviderRequest

# From the providers' model pages (2026-12): input and output share the window.
KNOWN_CONTEXT_WINDOWS: Mapping[str, int] = {
    "gpt-5": 400_000,
    "gpt-5-mini": 400_000,
    "gpt-5-nano": 400_000,
    "gpt-4.1": 1_047_576,
    "gpt-4.1-mini": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude-sonnet-4-5": 200_000,
    "claude-opus-4-1": 200_000,
    "claude-haiku-4-5": 200_000,
    "claude-sonnet-4-0": 200_000,
    "claude-3-7-sonnet-latest": 200_000,
    "claude-3-5-haiku-latest": 200_000,
}

REPLY_ROOM_TOKENS = 1024
"""A send must leave room for a reply of this many tokens, or a quarter of the window if less."""

NUDGE_SHARE = 0.75
"""At this share of the window, the suggestion recommends a Checkpoint."""


def reply_room(window: int) -> int:
    return min(REPLY_ROOM_TOKENS, window // 4)


def estimated_tokens(chars: int) -> int:
    """About four characters a token: the estimate every count of Smriti's uses (the context
    panel, a send's context), provider-independent."""
    return -(-chars // 4)


def request_tokens(request: ProviderRequest) -> int:
    """A provider request's size in tokens, estimated: its system text and its messages."""
    return estimated_tokens(len(request.system or "")) + sum(estimated_tokens(len(m.content)) for m in request.messages)


def refuse_overflow(used: int, model: str, window: int | None, *, what: str, then: str, field: str) -> None:
    """400 (naming `field`) when `used` tokens, plus room for a reply, are more than the model's
    window: said before the provider is called, with what to do instead (`then`), never cut. An
    unknown window (None) refuses nothing."""
    if window is None:
        return
    room = reply_room(window)
    over = used + room - window
    if over > 0:
        raise BadRequest(
            f"{what} would not fit {model}'s context window: about {used:,} tokens of context (estimated) "
            f"plus {room:,} for the reply is {over:,} over its {window:,}. {then}",
            field=field,
        )
