"""What a conversation import reads from its spooled body: the file itself, or the
`conversations.json` inside it when it is the ZIP a data export downloads as.

The body's type is told by its first bytes, whatever its Content-Type says: a ZIP by its magic
number; then, past a UTF-8 byte-order mark (which some editors and Windows tools write, and JSON
parsers refuse as "invalid character") and white space, `[` is a JSON list of conversations
(`export_file.ExportFile`) and `{` a file of one JSON object a line, a Claude Code session
(`session_file.SessionFile`).

A ZIP is read where it lies, its member decompressed as it is read, a piece at a time, so it
costs what the file does: the member's declared size is held to SMRITI_MAX_IMPORT_BYTES before
a byte of it is read, and what is read is counted against it too (zipfile also stops at the
declared size and checks the CRC at the end). Its list of files is read whole by zipfile, at
~460 bytes of memory and ~16 µs for each 47-byte entry, so a directory over `MAX_DIRECTORY_BYTES`
is refused before it is read: a ZIP of a million empty files costs nothing but the refusal.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from collections.abc import Callable
from typing import IO, Any, Final

from smriti.core.errors import TooLarge
from smriti.transcripts.messages import TranscriptError

BOM: Final = b"\xef\xbb\xbf"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a file's local header; an empty archive's end record
MEMBER = "conversations.json"
MAX_DIRECTORY_BYTES = 4 * 2**20
"""The largest list of files (central directory) a ZIP may have: ~30,000 files of an export's
names, ~89,000 of one letter (about 41 MB and 1.5 s to read)."""
_PIECE = 1 << 16
_SPACE = b" \t\r\n"
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
# zipfile's own reading of a ZIP's end record (zip64's included), so that the size checked is the
# size it then reads; private, but unchanged since Python 2 (tests/transcripts fail if it goes).
_end_record: Callable[[IO[bytes]], list[Any] | None] = zipfile._EndRecData  # type: ignore[attr-defined]
_DIRECTORY_SIZE: int = zipfile._ECD_SIZE  # type: ignore[attr-defined]


class UploadText:
    """The text an import reads, opened afresh for each of its passes (`open`)."""

    def __init__(self, spool: IO[bytes], *, import_limit: int) -> None:
        self._spool = spool
        self._import_limit = import_limit
        self._zip: zipfile.ZipFile | None = None
        self._member: zipfile.ZipInfo | None = None
        self._open: io.BufferedReader | None = None
        spool.seek(0)
        if spool.read(4) in _ZIP_MAGIC:
            self._zip, self._member = _zipped(spool, import_limit)

    @property
    def zipped(self) -> bool:
        return self._zip is not None

    def open(self) -> io.BufferedReader:
        """The text from its beginning, past a byte-order mark; the one opened before is closed."""
        self.close_reader()
        if self._zip is not None and self._member is not None:
            raw: io.RawIOBase = _Member(self._zip, self._member, self._import_limit)
        else:
            self._spool.seek(0)
            raw = _Plain(self._spool)
        reader = self._open = io.BufferedReader(raw, _PIECE)
        if reader.peek(len(BOM))[: len(BOM)] == BOM:
            reader.read(len(BOM))
        return reader

    def first_byte(self) -> int | None:
        """The text's first byte that is not white space; None for a text of white space only."""
        reader = self.open()
        while piece := reader.read(_PIECE):
            text = piece.lstrip(_SPACE)
            if text:
                return text[0]
        return None

    def close_reader(self) -> None:
        if self._open is not None:
            self._open.close()
            self._open = None

    def close(self) -> None:
        self.close_reader()
        if self._zip is not None:
            self._zip.close()


def _zipped(spool: IO[bytes], import_limit: int) -> tuple[zipfile.ZipFile, zipfile.ZipInfo]:
    """The ZIP's `conversations.json` (at its top, or the one file of that name in a folder)."""
    end = _end_record(spool)
    if end is None:
        raise TranscriptError("The file begins as a ZIP does, but it is not one (it has no end record).")
    directory = end[_DIRECTORY_SIZE]
    if directory > MAX_DIRECTORY_BYTES:
        raise TooLarge(
            f"This ZIP lists more files than an import reads (its list takes {directory:,} bytes, over "
            f"{MAX_DIRECTORY_BYTES:,}): upload the export's {MEMBER} alone, or a ZIP of it.",
            limit_bytes=MAX_DIRECTORY_BYTES,
            field="body",
        )
    try:
        archive = zipfile.ZipFile(spool)
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise TranscriptError(f"This ZIP cannot be read: {exc}.") from None
    found = [info for info in archive.infolist() if posixpath.basename(info.filename) == MEMBER]
    top = [info for info in found if info.filename == MEMBER]
    if len(top) == 1 or len(found) == 1:
        member = (top or found)[0]
    else:
        archive.close()
        raise TranscriptError(
            f"This ZIP holds {'no' if not found else len(found)} {MEMBER}: a ChatGPT or Claude data export's ZIP "
            f"has one, at its top."
        )
    problem = _unreadable(member)
    if problem is not None:
        archive.close()
        raise TranscriptError(f"The ZIP's {member.filename} {problem}.")
    if member.file_size > import_limit:
        archive.close()
        raise _too_large(member.filename, import_limit)
    return archive, member


def _unreadable(member: zipfile.ZipInfo) -> str | None:
    if member.flag_bits & 0x1:
        return "is encrypted: export it again without a password"
    if member.compress_type not in _READABLE:
        return f"is compressed with method {member.compress_type}; an import reads stored or deflated files"
    return None


def _too_large(name: str, limit: int) -> TooLarge:
    return TooLarge(
        f"The ZIP's {name} is larger than SMRITI_MAX_IMPORT_BYTES ({limit:,} bytes) once unzipped; nothing was "
        "written. To import it, raise SMRITI_MAX_IMPORT_BYTES on this server.",
        limit_bytes=limit,
        field="body",
    )


class _Plain(io.RawIOBase):
    """The spooled body as it is (a fresh reader over it for each pass)."""

    def __init__(self, spool: IO[bytes]) -> None:
        self._spool = spool

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._spool.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Member(io.RawIOBase):
    """The ZIP's member, decompressed as it is read, and refused past the import limit."""

    def __init__(self, archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> None:
        self._name = member.filename
        self._limit = limit
        self._read = 0
        try:
            self._file = archive.open(member)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError) as exc:
            raise TranscriptError(f"The ZIP's {self._name} cannot be read: {exc}.") from None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            data = self._file.read(len(buffer))
        except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError) as exc:
            raise TranscriptError(f"The ZIP's {self._name} cannot be read: {exc}.") from None
        self._read += len(data)
        if self._read > self._limit:  # zipfile stops at the declared size: this is a second guard
            raise _too_large(self._name, self._limit)
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()
