"""How many tokens each known model takes in: its context window (docs/api.md, "Sending and the exact context").

One table, kept current for the default models (`core/config.py`); `SMRITI_CONTEXT_WINDOWS`
(`model=tokens,…`, read by `core/config.py`) adds or overrides entries. A model with no entry has an unknown window:
nothing is refused for it, and the context panel says the window is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from smriti.core.errors import BadRequest
from smriti.providers.base import DEFAULT_REPLY_TOKENS, ProviderRequest
from smriti.providers.tokenizers import LONG_RUNS_ESTIMATED, count_off_loop, encoding_for

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


NUDGE_SHARE = 0.75
"""At this share of the window, the suggestion recommends a Checkpoint."""


def reply_room(window: int | None, limit: int = DEFAULT_REPLY_TOKENS) -> int:
    """The most tokens a reply is asked for (`ProviderRequest.max_tokens`), which is also the
    room a request keeps for it in the model's window: the provider's `limit`, or a quarter of
    the window if less. One number for both, so that what is sent always fits what was checked."""
    return limit if window is None else max(1, min(limit, window // 4))


def estimated_tokens(chars: int) -> int:
    """About four characters a token: the estimate every count of Smriti's uses where the
    model's tokenizer cannot be had offline (`tokenizers.py`), provider-independent."""
    return -(-chars // 4)


def request_texts(request: ProviderRequest) -> list[str]:
    """What a provider request holds to count: its system text, then its messages."""
    return [request.system or "", *(message.content for message in request.messages)]


async def refuse_overflow(
    texts: Sequence[str],
    provider: str,
    model: str,
    window: int | None,
    *,
    room: int,
    what: str,
    then: str,
    field: str,
) -> None:
    """400 (naming `field`) when `texts`, plus `room` for a reply, are more than the model's window:
    said before the provider is called, with what to do instead (`then`), never cut. Counted with
    the model's tokenizer where Smriti has it, estimated otherwise, and the message says which. An
    unknown window (None) refuses nothing."""
    if window is None:
        return
    encoding = encoding_for(provider, model)
    if encoding is None:
        used = sum(estimated_tokens(len(text)) for text in texts)
        size = f"about {used:,} tokens of context (estimated)"
    elif 4 * sum(map(len, texts)) + room <= window:
        return  # a token is a byte at least and a character four at most: it fits, however it counts
    else:
        counted = await count_off_loop(encoding, texts)
        used = sum(counted.counts)
        how = f"counted with {encoding}" if counted.exact else f"counted with {encoding}, {LONG_RUNS_ESTIMATED}"
        size = f"{used:,} tokens of context ({how})"
    over = used + room - window
    if over > 0:
        raise BadRequest(
            f"{what} would not fit {model}'s context window: {size} plus {room:,} for the reply is {over:,} over "
            f"its {window:,}. {then}",
            field=field,
        )
