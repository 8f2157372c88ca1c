"""A context that would not fit the model's window is refused before the provider is called,
and one that fills three quarters of it brings a recommendation to save a Checkpoint (docs/api.md,
"Sending and the exact context"). Nothing is ever cut to fit: the person decides what the model
receives."""

from __future__ import annotations

from typing import NamedTuple

from smriti.chat.context import AssembledContext
from smriti.chat.schemas import TOKEN_ESTIMATE, Suggestion
from smriti.providers.base import ProviderRequest
from smriti.providers.tokenizers import LONG_RUNS_ESTIMATED, count_off_loop, encoding_for
from smriti.providers.windows import NUDGE_SHARE, refuse_overflow, request_texts


def context_tokens(assembled: AssembledContext) -> int:
    """The context's size in tokens, estimated (`Section.tokens`)."""
    return sum(section.tokens for section in assembled.sections)


class SectionTokens(NamedTuple):
    tokens: list[int]
    """Each section's tokens, in order."""
    tokenizer: str | None
    """The encoding that counted them exactly; None when (any of) it is an estimate."""
    how: str
    """How they were counted, in words (`ContextPreview.token_estimate`)."""


async def section_tokens(assembled: AssembledContext, provider: str, model: str) -> SectionTokens:
    """Each section's tokens: with the model's tokenizer where Smriti has it
    (`providers/tokenizers.py`), else estimated. A system part is counted by its text, the
    history by its messages, the new message by its own."""
    encoding = encoding_for(provider, model)
    if encoding is None:
        return SectionTokens([section.tokens for section in assembled.sections], None, TOKEN_ESTIMATE)
    system = [section.text for section in assembled.sections if section.part == "system"]
    texts = [*system, *(m.content for m in assembled.messages)]
    counted = await count_off_loop(encoding, texts)
    counts = iter(counted.counts)
    tokens = []
    for section in assembled.sections:
        # The history section stands for its `items` messages; every other section is one text.
        tokens.append(sum(next(counts) for _ in range(section.items)) if section.name == "history" else next(counts))
    if counted.exact:
        return SectionTokens(tokens, encoding, f"counted with {encoding}, {model}'s tokenizer")
    return SectionTokens(tokens, None, f"counted with {encoding}, {model}'s tokenizer, {LONG_RUNS_ESTIMATED}")


async def check_fits(request: ProviderRequest, provider: str, window: int) -> None:
    """400 when the context, plus room for the reply it asks for, is more than the model's window."""
    await refuse_overflow(
        request_texts(request),
        provider,
        request.model,
        window,
        room=request.max_tokens,
        what="This send",
        then="Nothing was sent or stored. Save a Checkpoint of this Session and mount it (or fork from it) to "
        "continue from a smaller context, or choose a model with a larger window.",
        field="content",
    )


def window_nudge(suggestion: Suggestion, used: int, window: int) -> Suggestion:
    """The suggestion, or a recommendation to save a Checkpoint once the context is at
    `NUDGE_SHARE` of the window (the other reasons, when there are some, stay first)."""
    if used < NUDGE_SHARE * window:
        return suggestion
    why = (
        f"The context is about {used * 100 // window}% of the model's window ({used:,} of {window:,} tokens, "
        "estimated): save a Checkpoint and continue from it before it is full."
    )
    reason = why if suggestion.reason is None else f"{suggestion.reason} {why}"
    return Suggestion(True, reason)
