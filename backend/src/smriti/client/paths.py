"""The URL pieces the client builds: every path segment from a caller's text or ids (`segment`,
the one place a path is encoded), a Checkpoint ref or a line's name as a path, the server's base
URL checked and shown without credentials."""

from __future__ import annotations

import re
from urllib.parse import quote
from uuid import UUID

import httpx

from smriti.client.errors import InvalidInput

_REF = re.compile(r"^[0-9A-Za-z-]+$")


def segment(value: str | UUID) -> str:
    """One segment of a path, from anything a caller gave (a name, a ref, an id): every character
    but letters, digits and `-._~` percent-encoded (`/`, `%`, `?`, `#`, spaces, …), and a segment
    that is `.` or `..` spelled `%2E`, which neither httpx nor a proxy resolves, so the request that
    arrives names what was meant (`..` as a line's name once reached the Space's own URL)."""
    encoded = quote(str(value), safe="")
    return encoded.replace(".", "%2E") if encoded in {".", ".."} else encoded


def ref_segment(value: str) -> str:
    """A Checkpoint ref as a path segment; anything that cannot be an id or a hash is refused here."""
    ref = value.strip()
    if not ref:
        raise InvalidInput("A Checkpoint id, hash or hash prefix is required.")
    if not _REF.match(ref):
        raise InvalidInput(f"{ref!r} is not a Checkpoint id, hash, or hash prefix of at least 7 hex digits.")
    return segment(ref)


def line_path(space_id: UUID, name: str) -> str:
    """A line's path. Its name may hold `/` (`feature/login`), which the route takes as part of the
    name, so `/` stays between its parts and each part is a `segment`. A name with an empty part
    (`x/`, `a//b`) cannot be sent as meant (the server ignores a trailing `/`, so `x/` would be the
    line `x`), and no line can have one: refused here."""
    wanted = name.strip()
    if not wanted:
        raise InvalidInput("A line's name is required.")
    parts = wanted.split("/")
    if "" in parts:
        raise InvalidInput(f"No line can be named {wanted[:120]!r}: a name is parts joined by `/`, none of them empty.")
    return f"/v4/repos/{segment(space_id)}/branches/" + "/".join(segment(part) for part in parts)


def display_url(url: str | httpx.URL) -> str:
    """The URL without any user:password part, for messages."""
    parsed = httpx.URL(url) if isinstance(url, str) else url
    return str(parsed.copy_with(username=None, password=None)).rstrip("/")


def check_base_url(url: str) -> str:
    """`url` if it is an absolute http(s) URL, else `InvalidInput` naming what was given."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError) as exc:
        raise InvalidInput(f"The Smriti URL {url!r} is not a valid URL ({exc}).") from None
    if parsed.scheme not in {"http", "https"} or not parsed.host:
        raise InvalidInput(f"The Smriti URL must start with http:// or https://, got {url!r}.")
    return str(parsed)
