"""Types shared by every feature's request and response Structs."""

from __future__ import annotations

import re
from typing import Annotated, Generic, TypeVar

import msgspec

from smriti.core.text import BLANK_CLASS, line_key, unstorable_reason

T = TypeVar("T")

# PostgreSQL text and jsonb cannot hold NUL characters; reject them at the door, with the field named.
_NO_NUL = "^[^\\x00]*$"
# At least one character that is neither NUL nor blank (white space or invisible: `smriti.core.text`).
NON_EMPTY_PATTERN = f"^[^\\x00]*[^\\x00{BLANK_CLASS}][^\\x00]*$"
_NON_EMPTY = NON_EMPTY_PATTERN

Text = Annotated[str, msgspec.Meta(pattern=_NO_NUL)]
"""Free text (may be empty)."""

NonEmptyText = Annotated[str, msgspec.Meta(pattern=_NON_EMPTY)]
"""Text with at least one character that is not white space or invisible (a zero-width space, a BOM)."""

# The same two rules, documented in the OpenAPI schema but not checked by msgspec. For bodies with
# dozens of strings (a Checkpoint's content) msgspec's per-string regex cost about a sixth of a
# commit's CPU; such bodies are checked by their own code instead
# (`smriti.checkpoints.hashing.encode_content`).
DocumentedText = Annotated[str, msgspec.Meta(extra_json_schema={"extra": {"pattern": _NO_NUL}})]
DocumentedNonEmptyText = Annotated[str, msgspec.Meta(extra_json_schema={"extra": {"pattern": _NON_EMPTY}})]

ShortName = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=_NON_EMPTY)]
"""A name, 1–200 characters, not only white space."""

MAX_LINE_REF = 200
"""A line's name as a request gives it: the stored name (`MAX_LINE_NAME`) and the spacing around it."""
LineRef = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_LINE_REF, pattern=_NON_EMPTY)]
"""The name of a line of Checkpoints, matched as `core.text.line_key` compares names (ignoring
case, Unicode normal forms and the kind and number of spaces)."""

MAX_LINE_NAME = 100
"""A line's name as stored (`smriti.lines.schemas.line_name` says what else it must be)."""
NewLineName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_LINE_REF,
        pattern=_NON_EMPTY,
        description=f"1–{MAX_LINE_NAME} characters once the spaces around it are trimmed.",
        extra_json_schema={"extra": {"maxLength": MAX_LINE_NAME}},
    ),
]
"""A new name for a line: the API documents the stored name's limit, which `line_name` holds it to."""


def line_lookup_key(value: str) -> str | None:
    """The key a line is looked up by (`core.text.line_key`) for a name from a request, or None
    when no line can have that name: blank, longer than a name can be, or text PostgreSQL cannot
    hold (NUL, a lone surrogate from a query or path), which is never sent to it."""
    name = value.strip()
    if not name or len(name) > MAX_LINE_NAME or unstorable_reason(name) is not None:
        return None
    return line_key(name)


_REQUEST_ID = "^[A-Za-z0-9._:-]+$"
RequestId = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=_REQUEST_ID)]
"""A client-chosen idempotency key."""


# What each pattern means, for error messages: msgspec names a failed pattern by its regex.
_PATTERN_WORDS = {
    _NO_NUL: "text without NUL (\\u0000) characters",
    _NON_EMPTY: "non-empty text (not only white space or invisible characters) without NUL (\\u0000) characters",
    _REQUEST_ID: "letters, digits and . _ : - only",
}
# msgspec quotes the regex with its backslashes doubled.
_WORDS_BY_QUOTED = {pattern.replace("\\", "\\\\"): words for pattern, words in _PATTERN_WORDS.items()}
_FAILED_PATTERN = re.compile(r"`str` matching regex '((?:[^'\\]|\\.)*)'")


def say_patterns(message: str) -> str:
    """msgspec's message with each regex it names said in words."""
    return _FAILED_PATTERN.sub(lambda m: _WORDS_BY_QUOTED.get(m.group(1), f"`str` matching {m.group(1)}"), message)


MAX_INT4 = 2_147_483_647
"""Sequence numbers and offsets are PostgreSQL integers; anything larger is refused at the door."""

SequenceNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT4, extra_json_schema={"extra": {"minimum": 0}})]
"""A Turn's number, or 0 for "before the first Turn". The minimum is also given as schema extra
because Litestar (2.25, `SchemaCreator._apply_kwarg_definition_metadata`) copies a constraint onto
an optional field's schema only when it is truthy, so `ge=0` alone vanished from the OpenAPI
document wherever the field may be null (`history_base_seq`); extras are copied as they are."""


class Usage(msgspec.Struct, kw_only=True):
    """What replies cost, as their providers reported it: the sum over a Session's replies, or a
    Space's."""

    input_tokens: int
    output_tokens: int
    uncounted_replies: int
    """Replies whose provider reported no token counts (a server that sends none, a stopped
    reply, an imported one): left out of the sums, which are then lower bounds."""


class Page(msgspec.Struct, Generic[T]):
    """One page of a list."""

    items: list[T]
    total: int
    limit: int
    offset: int


class Request(msgspec.Struct, forbid_unknown_fields=True):
    """Base for request bodies: unknown fields are an error, not silently ignored."""
