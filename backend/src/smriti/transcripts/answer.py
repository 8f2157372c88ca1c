"""The answer to a conversation import, written to files as the import goes and sent from them.

The answer names every Session made and every conversation skipped, so it grows with the number
of conversations, not with the largest one: ~100 bytes each, for conversations that may take
fewer than 50 bytes of the file. Kept in memory, it alone would make a file of many small
conversations cost a multiple of its size; here each entry is encoded once and written to a
temporary file, and the response is streamed from the files (`ConversationImportResult`'s
JSON, its fields in their order).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import AsyncIterator, Iterator
from typing import IO

import msgspec

from smriti.sessions.imports import Imported
from smriti.transcripts.conversations import Conversation, ExportFormat, Skipped
from smriti.transcripts.schemas import ConversationLeftOut, ImportedConversation, SkippedConversation

_PIECE = 64 * 1024
_encode = msgspec.json.Encoder().encode


class ImportAnswer:
    def __init__(self, export: ExportFormat) -> None:
        self._format = export
        # Closed by body() once sent, or by close(): they outlive this call.
        self._sessions: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._skipped: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115

    def add(self, batch: list[Conversation | Skipped], imported: Iterator[Imported]) -> None:
        """A batch's entries, in order: what became of each of its conversations is in `imported`."""
        for item in batch:
            if isinstance(item, Skipped):
                unread = SkippedConversation(title=item.title, reason=item.reason, session_id=None)
                _append(self._skipped, _encode(unread))
                continue
            done = next(imported)
            if done.earlier:
                skipped = SkippedConversation(
                    title=item.title,
                    reason=f"conversation {item.number} is in this Space already, as Session {done.session_id} "
                    "(import with copies=true to import it again).",
                    session_id=done.session_id,
                )
                _append(self._skipped, _encode(skipped))
            else:
                entry = ImportedConversation(
                    session_id=done.session_id,
                    title=item.title,
                    turns=len(item.turns),
                    left_out=ConversationLeftOut(**dataclasses.asdict(item.left_out)),
                )
                _append(self._sessions, _encode(entry))

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
