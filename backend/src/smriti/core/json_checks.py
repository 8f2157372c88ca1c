"""Checks on JSON text that msgspec does not make: names repeated within one object.

msgspec (like most decoders) keeps the last of two equal names without a word, but a
Checkpoint's hash assumes I-JSON (RFC 7493), whose objects have unique names, and whoever wrote
`{"message": "a", "message": "b"}` meant one of them, not necessarily the last.

The exact check, Python's C scanner with a pairs hook, costs about four times msgspec's own
decode of the same body (~47 µs for a 4 KB commit here, more than the rest of its decoding). So
a cheaper test runs first. In valid JSON a colon is either the separator after a name or a
character inside a string. Decoding collapses a repeated name (and drops its value), and
re-encoding what was decoded writes every remaining name with one separator and every remaining
string as it was: so with no repeated name the body and its re-encoding hold the same number of
colons, and with one the re-encoding holds fewer. The one way a decoded string can gain a colon
is the escape `\u003a`; a body that has one takes the exact check, as does any body whose counts
differ. Decoding and re-encoding with msgspec cost about half the exact check. A property test
holds the two together.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> None:
    """`object_pairs_hook` that only checks: the decoded value itself is thrown away."""
    if len(pairs) > 1 and len({key for key, _ in pairs}) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)


def duplicate_key(document: bytes | str) -> str | None:
    """The first name that appears twice in one object of a valid JSON document, else None.
    RecursionError for a document nested deeper than the scanner follows.

    Anything that is not JSON text has no object, so no name twice in one: None, and the caller's
    decode says what is wrong with it. That includes bytes that are not UTF-8 (JSON text is, RFC
    8259 §8.1; `json.loads` raised UnicodeDecodeError on them, a 500) and text that cannot be
    encoded as UTF-8 (a lone surrogate)."""
    raw = _utf8(document)
    colons = raw.count(b":") if raw is not None else 0
    if raw is None or colons < 2:  # one member at most: nothing can repeat
        return None
    if b"\\u003a" not in raw and b"\\u003A" not in raw:
        try:
            if _encode(_decode(raw)).count(b":") == colons:
                return None
        except msgspec.DecodeError:
            pass  # not valid JSON after all: the exact check (and the caller's decode) say more
    try:
        # As UTF-8 only: given bytes, json.loads would also guess UTF-16 or UTF-32.
        json.loads(raw.decode(), object_pairs_hook=_unique_pairs)
    except DuplicateKey as exc:
        return exc.key
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None  # not JSON: no object, so no name twice in one
    return None


def _utf8(document: bytes | str) -> bytes | None:
    try:
        return document.encode() if isinstance(document, str) else document
    except UnicodeEncodeError:
        return None
