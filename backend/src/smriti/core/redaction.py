"""Keeping configured secrets out of what leaves the server: responses and log lines.

A value shorter than `MIN_SECRET_LENGTH` is not treated as a secret: local OpenAI-compatible
servers are usually given a placeholder key (`x`, `ollama`), and replacing every "x" in an
upstream error made it unreadable ("ma[redacted]imum conte[redacted]t length"). A real key is
far longer. A secret that is long enough is replaced wherever it occurs, also inside a longer
run of characters (a URL-encoded header, a key with something appended), since that run would
still give it away.
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_SECRET_LENGTH = 8
MARK = "[redacted]"


def real_secrets(values: Iterable[str | None]) -> tuple[str, ...]:
    """The values long enough to be secrets, longest first (so that a secret containing
    another is replaced whole)."""
    return tuple(sorted({v for v in values if v and len(v) >= MIN_SECRET_LENGTH}, key=len, reverse=True))


def redact(text: str, secrets: Iterable[str | None]) -> str:
    for secret in real_secrets(secrets):
        if secret in text:
            text = text.replace(secret, MARK)
    return text
