"""Token counts of long pieces in time linear in their length (issue 42, item 1).

A tokenizer first splits text into pieces (a word, a run of spaces, of punctuation, up to three
digits), then merges each piece's bytes pair by pair, lowest rank first. tiktoken's merge rescans
the whole piece after every merge: quadratic in the piece's length. Real text keeps pieces short,
but a run with no break is one piece (a DNA sequence, a line of dashes, a paragraph of Chinese or
Thai), and 32,000 such characters took 20 s; a megabyte, hours.

Here a long piece is encoded left to right by backtracking, as GitHub's `bpe` crate does (its
README, "Backtracking"): take the longest token at the current position; keep it if it is
*compatible* with the token before it (byte-pair encoding the two tokens' bytes gives back those
two tokens), else try the next shorter token there, and when none fits, drop the token before and
try a shorter one in its place. Byte-pair encoding has exactly one valid encoding of a text, a
sequence is valid when each pair of neighbours is, and positions from which no valid rest exists
are remembered, so the walk is linear and its result is tiktoken's own (held equal to the
quadratic merge by `tests/providers/test_tokenizers.py`).

Whether two tokens are compatible is decided without encoding their bytes again: each token's own
merges are recorded once (`_history`), and the two sides' merges are replayed in the order the
whole would make them, watching the pair across the boundary (`_no_join`).

A few texts (long runs of one repeated character are the usual ones) make the walk try many
alignments before it finds the right one. So the walk has a budget of steps linear in the text's
length; past it, a piece is counted by taking the longest token at each position (no
backtracking), which is close but not exact, and the count says it is estimated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

STEPS_PER_CHARACTER = 12
"""The walk's budget for a whole text: steps (positions looked at, pairs tried) per character of
the text, plus `BASE_STEPS`. Real text takes 2-5 a byte of its long pieces; a long run of one
character, up to 200 (those are estimated)."""

BASE_STEPS = 16_384
"""Steps any text may take, however short: every run up to a few hundred characters is exact."""

PAIRS_KEPT = 200_000
"""Pairs whose compatibility is remembered between counts (~30 MB), then forgotten and learnt again."""

CHECK_EVERY = 4096
"""Steps between two calls of the caller's `keep_going` (the server may be stopping)."""


_History = tuple[list[int], list[bytes], list[bytes]]


class _OverBudget(Exception):
    pass


class LongPieces:
    """Counts long pieces' tokens under one encoding's vocabulary (`ranks`: token bytes → rank)."""

    def __init__(self, ranks: Mapping[bytes, int]) -> None:
        self._ranks = ranks
        self._longest_token = max(map(len, ranks))
        # Every proper prefix of a token, a token itself or not: a match can still grow while its
        # text is one of them. About 0.4 s and 25 MB, once, the first time a long piece is counted.
        self._extendable = frozenset(token[:end] for token in ranks for end in range(1, len(token)))
        self._histories: dict[bytes, _History | None] = {}  # at most one a token of the vocabulary
        self._shorter_than: dict[bytes, int] = {}
        self._pairs: dict[tuple[bytes, bytes], bool] = {}

    def count(self, piece: bytes, allowance: int, keep_going: Callable[[], None]) -> tuple[int, bool, int]:
        """The piece's tokens; whether that is the exact count (else the longest-match estimate,
        when the walk would take more than `allowance` steps); the steps it took."""
        try:
            tokens, steps = self._backtrack(piece, allowance, keep_going)
        except _OverBudget:
            return self._longest_matches(piece, keep_going), False, allowance
        return tokens, True, steps

    def _backtrack(self, piece: bytes, budget: int, keep_going: Callable[[], None]) -> tuple[int, int]:
        n = len(piece)
        steps = 0
        next_check = CHECK_EVERY
        no_way_on = bytearray(n + 1)  # 1: no valid encoding of the rest starts here
        starts: list[int] = []  # where each token taken so far starts
        position = 0
        length, walked = self._longest(piece, 0)
        steps += walked
        before: bytes | None = None  # the last token taken
        while position < n:
            end = position + length
            token = piece[position:end]
            steps += 1
            if not no_way_on[end] and (self._fits(before, token) if before is not None else self._valid(token)):
                starts.append(position)
                before, position = token, end
                if position < n:
                    length, walked = self._longest(piece, position)
                    steps += walked
            else:
                length = self._shorter(token)
                if length == 0:  # nothing fits here: this position is a dead end; undo the last token
                    if not starts:  # cannot happen (every text has an encoding): count it another way
                        raise _OverBudget
                    no_way_on[position] = 1
                    start = starts.pop()
                    # Retried at once: its end is now marked, so the next try is a shorter token.
                    length, position = position - start, start
                    before = piece[starts[-1] : position] if starts else None
            if steps > budget:
                raise _OverBudget
            if steps >= next_check:
                keep_going()
                next_check += CHECK_EVERY
        return len(starts), steps

    def _longest_matches(self, piece: bytes, keep_going: Callable[[], None]) -> int:
        """Tokens if each were the longest one at its position: a close estimate, in linear time."""
        position = tokens = 0
        while position < len(piece):
            length, _ = self._longest(piece, position)
            position += length
            tokens += 1
            if tokens % CHECK_EVERY == 0:
                keep_going()
        return tokens

    def _longest(self, piece: bytes, position: int) -> tuple[int, int]:
        """The longest token at `position` (every single byte is one), and the steps it took."""
        ranks, extendable = self._ranks, self._extendable
        best = 1
        limit = min(len(piece) - position, self._longest_token)
        length = 1
        while length <= limit:
            text = piece[position : position + length]
            if text in ranks:
                best = length
            if text not in extendable:
                break
            length += 1
        return best, length

    def _shorter(self, token: bytes) -> int:
        """The length of the longest token that begins `token` and is shorter (0: none)."""
        shorter = self._shorter_than.get(token)
        if shorter is None:
            ranks = self._ranks
            shorter = len(token) - 1
            while shorter > 0 and token[:shorter] not in ranks:
                shorter -= 1
            self._shorter_than[token] = shorter
        return shorter

    def _valid(self, token: bytes) -> bool:
        """Whether the token's bytes, encoded alone, give the token (a few tokens never appear)."""
        return self._history(token) is not None

    def _fits(self, left: bytes, right: bytes) -> bool:
        """Whether `left` then `right` is how their bytes together are encoded: whether merging
        `left + right` would ever join a part of one with a part of the other.

        Until such a join, each side merges exactly as it does alone, so their merges are replayed
        in the order the whole would make them (lowest rank first, the left side on a tie), and
        before each, the pair across the boundary is checked: it would be merged first if its rank
        is lower than the left side's next merge (which is left of it) and no higher than the
        right side's (which is right of it)."""
        key = (left, right)
        fits = self._pairs.get(key)
        if fits is None:
            if len(self._pairs) >= PAIRS_KEPT:
                self._pairs.clear()
            fits = self._pairs[key] = self._no_join(left, right)
        return fits

    def _no_join(self, left: bytes, right: bytes) -> bool:
        left_history, right_history = self._history(left), self._history(right)
        if left_history is None or right_history is None:
            return False
        left_merges, left_edges, _ = left_history
        right_merges, _, right_edges = right_history
        ranks = self._ranks
        done = len(ranks) + 1_000_000  # above every rank: a side with no merge left
        i = j = 0
        while True:
            next_left = left_merges[i] if i < len(left_merges) else done
            next_right = right_merges[j] if j < len(right_merges) else done
            across = ranks.get(left_edges[i] + right_edges[j])
            if across is not None and across < next_left and across <= next_right:
                return False
            if next_left == next_right == done:
                return True
            if next_left <= next_right:
                i += 1
            else:
                j += 1

    def _history(self, token: bytes) -> _History | None:
        """How the token's bytes merge when encoded alone: each merge's rank in order, and after
        0, 1, … merges the rightmost and the leftmost part. None when they do not end as the
        token (it never appears in an encoding). Quadratic in the token's length (at most 128)."""
        if token in self._histories:
            return self._histories[token]
        ranks = self._ranks
        bounds = list(range(len(token) + 1))  # where each part starts, and the end
        merges: list[int] = []
        rightmost, leftmost = [token[-1:]], [token[:1]]
        history: _History | None = (merges, rightmost, leftmost)
        while len(bounds) > 2:
            lowest, at = None, -1
            for k in range(len(bounds) - 2):
                rank = ranks.get(token[bounds[k] : bounds[k + 2]])
                if rank is not None and (lowest is None or rank < lowest):
                    lowest, at = rank, k
            if lowest is None:
                history = None
                break
            del bounds[at + 1]
            merges.append(lowest)
            rightmost.append(token[bounds[-2] :])
            leftmost.append(token[: bounds[1]])
        self._histories[token] = history
        return history
