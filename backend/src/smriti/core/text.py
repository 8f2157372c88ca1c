"""What counts as blank text, text PostgreSQL can store, and when two names of lines are one.

Blank is more than white space: a message of only a zero-width space or a byte-order mark shows
nothing, so it is as empty as "" for every rule that requires text. PostgreSQL's text and JSONB
cannot hold NUL, and UTF-8 cannot hold a lone surrogate (which JSON's `\\ud800` escapes can
produce): text from a client with either is refused, text from a provider is repaired
(`storable`), so that neither reaches the database as a 500.
"""

from __future__ import annotations

import unicodedata

# Every character `str.isspace` accepts, spelled out so that the set is visible (and usable in
# a regex and in `str.strip`).
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Characters that render as nothing: format controls (zero-width space and joiners, direction
# marks and embeddings, word joiner, invisible operators, the byte-order mark), the soft hyphen,
# the Mongolian vowel separator and the Hangul fillers.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c"
    "\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u3164\ufeff\uffa0"
)
BLANK = WHITESPACE + INVISIBLE
"""What `is_blank` strips; `str.strip(BLANK)` is the C-speed form of the rule."""

# The same rule as a regex class body (for msgspec patterns and the OpenAPI document).
BLANK_CLASS = "\\s" + "".join(f"\\u{ord(c):04x}" for c in INVISIBLE)

REPLACEMENT = "\ufffd"


def is_blank(text: str) -> bool:
    """True when the text shows nothing: empty, white space, or invisible characters only."""
    return not text.strip(BLANK)


def has_lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def storable(text: str) -> str:
    """The text with NUL and lone surrogates replaced by U+FFFD, for text that came from upstream:
    what is stored and what is answered are then the same characters."""
    if "\x00" in text:
        text = text.replace("\x00", REPLACEMENT)
    if has_lone_surrogate(text):
        # Through UTF-16 with surrogates passed, a surrogate pair becomes its character and a
        # lone surrogate becomes U+FFFD.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def unstorable_reason(text: str) -> str | None:
    """Why a client's text cannot be stored, or None when it can."""
    if "\x00" in text:
        return "contains a NUL (\\u0000) character"
    if has_lone_surrogate(text):
        return "contains a lone UTF-16 surrogate (an unpaired \\ud800–\\udfff escape)"
    return None


def line_key(name: str) -> str:
    """What a line's name is compared by, for uniqueness in its Space and for every look-up: the
    name in Unicode NFC, each run of white space (a no-break space, an ideographic space, …) one
    ASCII space, none at either end, case folded (`str.casefold`, Unicode's caseless matching).
    Names with one key look alike, so they are one line: `café` composed or decomposed, `a b`
    with a no-break space, `MAIN` and `main`. The name itself is stored as it was given.

    Computed here rather than by PostgreSQL's `lower()`, whose result depends on the database's
    locale (with the C locale it folds ASCII only), so that every server compares names alike."""
    if name.isascii():
        return " ".join(name.split()).lower()
    folded = " ".join(unicodedata.normalize("NFC", name).split()).casefold()
    # Case folding can leave a character decomposed (`ǰ` folds to `ǰ`): compose it again.
    return unicodedata.normalize("NFC", folded)
