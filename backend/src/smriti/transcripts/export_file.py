"""A JSON list of conversations (a ChatGPT, Claude or Open WebUI export's), read from its spooled
file (or the ZIP's member, `upload.py`) one conversation at a time.

Decoded whole, an export took ~24 times its size in memory (a 99 MB file, 2.4 GB). Here each
conversation is found in the file (`core/json_array.py`), decoded and read on its own, so what is
held at once is one conversation and one batch of the write, whatever the file's size.

The file is read twice, as a bundle is (`bundles/service.py`). `check` reads every item before
anything is written: a file that is not an export (not a JSON list, an item that is not JSON or
names a key twice, an item that is no conversation of any kind) is a `TranscriptError`, and
the export's format is the first conversation's. `batches` then reads the conversations again,
a batch at a time, for the write. A conversation larger than the item limit is `ItemTooLarge`
from either pass (the first one finds it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import msgspec

from smriti.core.json_array import ArrayError, ArrayItems
from smriti.core.json_checks import duplicate_key
from smriti.transcripts.conversations import Conversation, ListFormat, Skipped, format_of, read_conversation
from smriti.transcripts.messages import TranscriptError
from smriti.transcripts.upload import UploadText

BATCH_BYTES = 1 << 20
"""About how many bytes of the file one step reads: a batch of the write holds the
conversations read from them (and the last may be up to the item limit)."""
BATCH_CONVERSATIONS = 1000

EXPECTED = (
    "Expected the conversations.json of a ChatGPT or Claude data export (or its ZIP), an Open WebUI chat export "
    "(a JSON list of conversations), or a Claude Code session (.jsonl, one JSON object a line)"
)
_KINDS = (
    "neither a ChatGPT conversation (an object with `mapping`), a Claude one (with `chat_messages`) nor an Open "
    "WebUI chat (with `chat`)"
)

_decode = msgspec.json.Decoder().decode

T = TypeVar("T")


class ExportFile:
    def __init__(self, text: UploadText, *, item_limit: int) -> None:
        self._text = text
        self._item_limit = item_limit
        self._unchecked: Iterator[tuple[int, bytes]] | None = None
        self.format: ListFormat | None = None
        """The format of the first conversation, once `check` has found it."""

    def check(self) -> bool:
        """Check the next items of the file (about BATCH_BYTES of it); True once all of it is."""
        if self._unchecked is None:
            self._unchecked = self._items()
        if not _take(self._unchecked, self._check_item):
            if self.format is None:
                raise TranscriptError(f"{EXPECTED}: this list holds no conversation.")
            return True
        return False

    def batches(self) -> Iterator[list[Conversation | Skipped]]:
        """The checked file's conversations again, in order, a batch at a time."""
        export = self.format
        assert export is not None, "check() has read the file"
        items = self._items()
        while batch := _take(items, lambda number, raw: read_conversation(_decode(raw), number, export)):
            yield batch

    def _check_item(self, number: int, raw: bytes) -> None:
        found = format_of(_checked(number, raw))
        if found is None:
            raise TranscriptError(f"Item {number} of the list is {_KINDS}: this is not a conversation export.")
        if self.format is None:
            self.format = found

    def _items(self) -> Iterator[tuple[int, bytes]]:
        """Each item of the list with its number (from 1). A `null` item is passed over, as a null
        message is: it says nothing (and costs no entry in the answer)."""
        items = ArrayItems(self._text.open(), limit=self._item_limit)
        try:
            for raw in items:
                if raw != b"null":
                    yield items.count, raw
        except ArrayError as exc:
            raise TranscriptError(f"{EXPECTED}: {exc}") from None


def _take(items: Iterator[tuple[int, bytes]], read: Callable[[int, bytes], T]) -> list[T]:
    """The next items read, up to about BATCH_BYTES of the file or BATCH_CONVERSATIONS of them;
    an empty list once there are none."""
    batch: list[T] = []
    taken = 0
    for number, raw in items:
        batch.append(read(number, raw))
        taken += len(raw)
        if taken >= BATCH_BYTES or len(batch) >= BATCH_CONVERSATIONS:
            break
    return batch


def _checked(number: int, raw: bytes) -> Any:
    """Item `number` of the list, decoded: valid JSON with no name twice in one object."""
    try:
        document = _decode(raw)
        repeated = duplicate_key(raw)
    except msgspec.DecodeError as exc:
        raise TranscriptError(f"The file is not JSON: item {number} of the list: {exc}.") from None
    except RecursionError:
        raise TranscriptError(f"The JSON is nested too deeply to read (item {number} of the list).") from None
    if repeated is not None:
        raise TranscriptError(f"The name {repeated!r} appears twice in one object (item {number} of the list).")
    return document
