"""The items of a JSON list read from a file one at a time, each as its own bytes.

A data export's `conversations.json` is one JSON list that may be hundreds of megabytes; decoded
whole it took ~24 times its size in memory. `ArrayItems` finds each item's bytes instead, reading
the file in pieces, so at most one item (up to `limit` bytes) and a piece are held at once; the
caller decodes each item on its own (msgspec validates it then). An item larger than `limit` is
`ItemTooLarge` as soon as `limit` bytes of it are read, never buffered whole.

How an item's end is found without a Python step per byte: inside a container one regular
expression (`_RUN`) takes everything up to the next bracket in one step, whole strings included
(their brackets are not structure), and only the brackets themselves move the depth. A string
cut by the end of what has been read stops the step at its opening quote; it is read again once
the next piece is in, so a long string is scanned at most `limit / piece` times. The framing
around the items (`[`, commas, `]`, nothing after) is checked here; every item is then valid
JSON or refused by its decoder, so a file that passes both is exactly a valid JSON list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

PIECE_BYTES = 1 << 20

# Inside a container: any run of bytes that are not brackets, braces or quotes, and whole strings.
_RUN = re.compile(rb'(?:[^][{}"]++|"(?:[^"\\]++|\\.)*+")*+', re.DOTALL)
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
# A number, true, false or null (or something that is not JSON: its decoder says so).
_SCALAR = re.compile(rb'[^][{}",\s]++')
_SPACE = re.compile(rb"[ \t\n\r]*+")
_OPENERS = frozenset(b"[{")
_QUOTE = ord('"')


class ArrayError(ValueError):
    """The file is not a JSON list: what is wrong with its framing, for a person to read."""


class ItemTooLarge(Exception):
    def __init__(self, number: int, limit: int) -> None:
        super().__init__(f"item {number} is larger than {limit} bytes")
        self.number = number
        """The item's place in the list, counted from 1."""
        self.limit = limit


class ArrayItems:
    """Iterate over the items of the JSON list in `source`, from where it stands, as bytes."""

    def __init__(self, source: IO[bytes], *, limit: int, piece: int = PIECE_BYTES) -> None:
        self._source = source
        self._limit = limit
        self._piece = piece
        self._buffer = b""
        self._at = 0
        self.count = 0
        """How many items have been read."""

    def __iter__(self) -> Iterator[bytes]:
        if self._next_byte() != ord("["):
            raise ArrayError(self._beginning())
        self._at += 1
        if self._next_byte() == ord("]"):
            self._at += 1
        else:
            while True:
                yield self._item()
                after = self._next_byte()
                if after is None:
                    raise ArrayError(f"the file ends after item {self.count}: it was cut short.")
                if after not in b",]":
                    raise ArrayError(f"expected ',' or ']' after item {self.count}, found {chr(after)!r}.")
                self._at += 1
                if after == ord("]"):
                    break
        if self._next_byte() is not None:
            raise ArrayError("something follows the list's closing ']'.")

    def _item(self) -> bytes:
        first = self._next_byte()
        number = self.count + 1
        if first is None:
            raise ArrayError(f"the file ends where item {number} should begin: it was cut short.")
        if first in b",]}":
            raise ArrayError(f"item {number} is missing: {chr(first)!r} where it should begin.")
        end = self._container_end() if first in _OPENERS else self._scalar_end(first)
        if end - self._at > self._limit:
            raise ItemTooLarge(number, self._limit)
        item = self._buffer[self._at : end]
        self._at = end
        self.count = number
        return item

    def _container_end(self) -> int:
        """The end of the array or object that starts at `_at`; more is read until it ends."""
        depth = 0
        scan = self._at
        while True:
            buffer = self._buffer
            run = _RUN.match(buffer, scan)
            stop = run.end() if run is not None else scan  # it always matches, if only ""
            if stop < len(buffer) and buffer[stop] != _QUOTE:
                scan = stop + 1
                depth += 1 if buffer[stop] in _OPENERS else -1
                if depth == 0:
                    return scan
                continue
            # The end of what was read, or a string that goes on past it: read on from there.
            scan = stop - self._at
            if not self._grow():
                raise ArrayError(f"the file ends inside item {self.count + 1}: it was cut short.")

    def _scalar_end(self, first: int) -> int:
        pattern = _STRING if first == _QUOTE else _SCALAR
        while True:
            found = pattern.match(self._buffer, self._at)
            if found is not None and found.end() < len(self._buffer):
                return found.end()
            # It reaches the end of what was read, so it may go on in the next piece.
            if not self._grow():
                if found is None:
                    raise ArrayError(f"the file ends inside item {self.count + 1}: it was cut short.")
                return found.end()

    def _grow(self) -> bool:
        """Read on for the item that starts at `_at` (it moves to the buffer's start), unless it
        is already over the limit; False at the file's end."""
        if len(self._buffer) - self._at > self._limit:
            raise ItemTooLarge(self.count + 1, self._limit)
        return self._more()

    def _more(self) -> bool:
        """Keep what is unread from `_at` on, and read a piece after it; False at the file's end."""
        piece = self._source.read(self._piece)
        if not piece:
            return False
        self._buffer = self._buffer[self._at :] + piece
        self._at = 0
        return True

    def _next_byte(self) -> int | None:
        """The next byte that is not white space (`_at` moves to it), or None at the file's end."""
        while True:
            self._at = _SPACE.match(self._buffer, self._at).end()  # type: ignore[union-attr]
            if self._at < len(self._buffer):
                return self._buffer[self._at]
            if not self._more():
                return None

    def _beginning(self) -> str:
        if self._at >= len(self._buffer):
            return "the file is empty."
        beginning = self._buffer[self._at : self._at + 20].decode(errors="replace")
        return f"the file begins with {beginning!r}, not '['."
