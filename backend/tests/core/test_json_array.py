"""The items of a JSON list read from a file in pieces (core/json_array.py)."""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.core.json_array import ArrayError, ArrayItems, ItemTooLarge

# Strings full of what the scanner must not take for structure: brackets, commas, quotes and
# backslashes inside them, escapes, and text that is not ASCII.
_TEXT = st.text(alphabet=st.sampled_from(["a", '"', "\\", "[", "]", "{", "}", ",", " ", "é", "\n", "😀"]), max_size=8)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_TEXT, children, max_size=3),
    max_leaves=10,
)
_SPACE = st.sampled_from(["", " ", "\n", "\t\r\n "])


def _read(raw: bytes, *, piece: int, limit: int = 1 << 20) -> list[Any]:
    return [msgspec.json.decode(item) for item in ArrayItems(io.BytesIO(raw), limit=limit, piece=piece)]


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUES, max_size=5), st.lists(_SPACE, min_size=12, max_size=12), st.integers(1, 9))
def test_every_item_is_found_whatever_the_pieces(items: list[Any], spaces: list[str], piece: int) -> None:
    encoded = [msgspec.json.encode(item).decode() for item in items]
    text = spaces[0] + "[" + spaces[1] + ("," + spaces[2]).join(encoded) + spaces[3] + "]" + spaces[4]
    assert _read(text.encode(), piece=piece) == items


@settings(max_examples=500, deadline=None)
@given(st.lists(_VALUES, min_size=1, max_size=4), st.integers(0, 200), st.binary(max_size=3), st.integers(1, 9))
def test_a_damaged_list_is_never_read_as_a_valid_one(items: list[Any], at: int, junk: bytes, piece: int) -> None:
    """Whatever is cut out of a list or put into it, the items read (each decoded on its own)
    are the list's exactly when the whole is valid JSON: the framing and the items' own checks
    together refuse everything else."""
    raw = msgspec.json.encode(items)
    at %= len(raw)
    damaged = raw[:at] + junk + raw[at + len(junk) // 2 :]
    try:
        whole = msgspec.json.decode(damaged)
    except msgspec.DecodeError:
        whole = None
    try:
        read: list[Any] | None = _read(damaged, piece=piece)
    except (ArrayError, msgspec.DecodeError):
        read = None
    if isinstance(whole, list):
        assert read == whole
    else:
        assert read is None, (damaged, read)


class _Counting(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int | None = -1) -> bytes:
        piece = super().read(size)
        self.taken += len(piece)
        return piece


@pytest.mark.parametrize(
    "item",
    [b'"' + b"x" * 1_000_000 + b'"', b'{"a": "' + b"[" * 1_000_000 + b'"}', b"[" * 1_000_000 + b"]" * 1_000_000],
    ids=["a string", "an object", "nested lists"],
)
def test_an_item_over_the_limit_is_refused_before_it_is_read_whole(item: bytes) -> None:
    source = _Counting(b'[1, "two", ' + item + b"]")
    with pytest.raises(ItemTooLarge) as refused:
        list(ArrayItems(source, limit=10_000, piece=4096))
    assert (refused.value.number, refused.value.limit) == (3, 10_000)
    assert source.taken < 10_000 + 3 * 4096


def test_an_item_of_exactly_the_limit_is_read() -> None:
    item = b'"' + b"x" * 98 + b'"'
    assert _read(b"[" + item + b"," + item + b"]", piece=7, limit=100) == ["x" * 98] * 2
    with pytest.raises(ItemTooLarge):
        _read(b"[" + item + b"]", piece=7, limit=99)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"", "the file is empty"),
        (b"  {}", "begins with '{}', not '['"),
        (b"[1 2]", "expected ',' or ']' after item 1, found '2'"),
        (b"[1,]", "item 2 is missing"),
        (b"[,]", "item 1 is missing"),
        (b"[1", "ends after item 1"),
        (b'["a', "ends inside item 1"),
        (b"[[1", "ends inside item 1"),
        (b"[[1]", "ends after item 1"),
        (b"[1] 2", "something follows"),
    ],
)
def test_a_broken_frame_says_where(raw: bytes, words: str) -> None:
    with pytest.raises(ArrayError, match=words.replace("[", r"\[")):
        _read(raw, piece=2)
