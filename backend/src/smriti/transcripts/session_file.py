"""A Claude Code session (JSONL: one JSON object a line) read from its spooled file a line at a
time: the conversation import's other kind of file, told from a JSON list by its first byte
(`upload.py`).

A line is read whole, so a line longer than SMRITI_MAX_BUNDLE_LINE_BYTES is refused as soon as
that many bytes of it are read (`LineTooLong`), never held; what the session keeps of the lines
(its Turns) is bounded by the same limit (`claude_code.ClaudeCodeSession`). The file is one
conversation, read in one pass: `check` reads about BATCH_BYTES of it a step, every line a JSON
object with no name twice in it, and the conversation it builds is what `batches` then gives.
A file with no message of the user or the assistant is no Claude Code session (a 400).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, Literal

import msgspec

from smriti.core.json_checks import duplicate_key
from smriti.transcripts.claude_code import ClaudeCodeSession
from smriti.transcripts.conversations import Conversation, Skipped
from smriti.transcripts.export_file import BATCH_BYTES, EXPECTED
from smriti.transcripts.messages import TranscriptError, kind
from smriti.transcripts.upload import UploadText

_decode = msgspec.json.Decoder().decode


class LineTooLong(Exception):
    def __init__(self, number: int, limit: int) -> None:
        super().__init__(f"line {number} is longer than {limit} bytes")
        self.number = number
        self.limit = limit


class SessionFile:
    def __init__(self, text: UploadText, *, item_limit: int) -> None:
        self._text = text
        self._limit = item_limit
        self._lines: Iterator[tuple[int, bytes]] | None = None
        self._session = ClaudeCodeSession(limit=item_limit)
        self._read: Conversation | Skipped | None = None
        self.format: Literal["claude_code"] | None = None
        """Set once `check` has found a message of the user or the assistant."""

    def check(self) -> bool:
        """Read the next lines (about BATCH_BYTES of them); True once all of them are."""
        if self._lines is None:
            self._lines = _lines(self._text.open(), self._limit)
        taken = 0
        for number, line in self._lines:
            entry = _entry(number, line) if line.strip() else None
            if entry is not None:  # a blank or `null` line says nothing
                self._session.add(number, entry)
            taken += len(line)
            if taken >= BATCH_BYTES:
                return False
        if not self._session.messages:
            raise TranscriptError(f"{EXPECTED}: these lines hold no message of a Claude Code session.")
        self.format = "claude_code"
        self._read = self._session.conversation()
        self._text.close_reader()
        return True

    def batches(self) -> Iterator[list[Conversation | Skipped]]:
        assert self._read is not None, "check() has read the file"
        yield [self._read]


def _lines(source: IO[bytes], limit: int) -> Iterator[tuple[int, bytes]]:
    """Each line with its number (from 1), never more than `limit` bytes of one held."""
    number = 0
    while line := source.readline(limit + 1):
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            raise LineTooLong(number, limit)
        yield number, line


def _entry(number: int, line: bytes) -> dict[str, Any] | None:
    try:
        entry = _decode(line)
        repeated = duplicate_key(line)
    except msgspec.DecodeError as exc:
        raise TranscriptError(f"{EXPECTED}: line {number} is not JSON ({exc}).") from None
    except RecursionError:
        raise TranscriptError(f"The JSON is nested too deeply to read (line {number}).") from None
    if entry is None:
        return None
    if not isinstance(entry, dict):
        raise TranscriptError(f"{EXPECTED}: line {number} is {kind(entry)}, not an object.")
    if repeated is not None:
        raise TranscriptError(f"The name {repeated!r} appears twice in one object (line {number}).")
    return entry
