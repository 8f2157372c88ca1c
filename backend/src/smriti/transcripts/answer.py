"""The answer to a conversation import, written to files as the import goes and sent from them.

The answer names every Session made and every conversation skipped, so it grows with the number
of conversations, not with the largest one: ~100 bytes each, for conversations that may take
fewer than 50 bytes of the file. Kept in memory, it alone would make a file of many small
conversations cost a multiple of its size; here each entry is encoded once and written to a
temporary file, and the response is streamed from the files (`ConversationImportResult`'s
JSON, its fields in their order).
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Iterator
from typing import IO
from uuid import UUID

import msgspec

from smriti.transcripts.conversations import Conversation, ExportFormat, Skipped
from smriti.transcripts.schemas import ImportedConversation, SkippedConversation

_PIECE = 64 * 1024
_encode = msgspec.json.Encoder().encode


class ImportAnswer:
    def __init__(self, export: ExportFormat) -> None:
        self._format = export
        # Closed by body() once sent, or by close(): they outlive this call.
        self._sessions: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._skipped: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115

    def add(self, batch: list[Conversation | Skipped], session_ids: Iterator[UUID]) -> None:
        """A batch's entries, in order: its conversations took `session_ids`, one each."""
        for item in batch:
            if isinstance(item, Conversation):
                entry = ImportedConversation(session_id=next(session_ids), title=item.title, turns=len(item.turns))
                _append(self._sessions, _encode(entry))
            else:
                _append(self._skipped, _encode(SkippedConversation(title=item.title, reason=item.reason)))

    async def body(self) -> AsyncIterator[bytes]:
        """The answer's JSON, a piece at a time; the files are closed at the end (or if the client
        goes away first)."""
        try:
            yield b'{"format":' + _encode(self._format) + b',"sessions":['
            for piece in _pieces(self._sessions):
                yield piece
            yield b'],"skipped":['
            for piece in _pieces(self._skipped):
                yield piece
            yield b"]}"
        finally:
            self.close()

    def close(self) -> None:
        self._sessions.close()
        self._skipped.close()


def _pieces(entries: IO[bytes]) -> Iterator[bytes]:
    entries.seek(0)
    while piece := entries.read(_PIECE):
        yield piece


def _append(entries: IO[bytes], entry: bytes) -> None:
    entries.write(b"," + entry if entries.tell() else entry)
