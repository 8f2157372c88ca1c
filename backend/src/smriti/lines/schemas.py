"""Lines of Checkpoints (internal `branches`), as they travel over the wire."""

from __future__ import annotations

import datetime
import unicodedata
from uuid import UUID

import msgspec

from smriti.access.schemas import Author
from smriti.core.errors import BadRequest
from smriti.core.ids import could_be_checkpoint_ref
from smriti.core.schemas import MAX_LINE_NAME, LineRef, NewLineName, Request
from smriti.core.text import INVISIBLE


class Line(msgspec.Struct, kw_only=True):
    """A line of Checkpoints of a Space (internal name: branch), as `GET …/branches` answers it."""

    name: str
    head_commit_id: UUID | None
    """The line's HEAD; null for a line of a Space with no Checkpoint yet."""
    head_commit_hash: str | None
    """Its hash (null likewise): the short form (7 digits) is how the CLI and the web app name it."""
    is_default: bool
    """The default line's HEAD is the Space's HEAD."""
    protected: bool
    """Only the person changes a protected line: an agent's commits, applies, restores, merges,
    renames, deletes and (un)defaults of it are refused (403)."""
    created_by: Author | None
    """The agent whose key made the line (with its current name); null: the person."""
    created_at: datetime.datetime
    updated_at: datetime.datetime


class LineCreate(Request, kw_only=True):
    """`POST /v4/repos/{repo_id}/branches`: a new line whose HEAD is `from_ref` (a Checkpoint id,
    full hash or unique prefix of this Space; default: the Space's HEAD)."""

    name: NewLineName
    from_ref: LineRef | None = None


class LineUpdate(Request, kw_only=True):
    """`PATCH …/branches/{name}`: rename the line, make it the default (`true` only), or (the
    person only) protect it or stop protecting it."""

    name: NewLineName | msgspec.UnsetType = msgspec.UNSET
    is_default: bool | msgspec.UnsetType = msgspec.UNSET
    protected: bool | msgspec.UnsetType = msgspec.UNSET


def line_name(value: str, field: str = "name") -> str:
    """A line's name as stored: trimmed, 1–100 characters, no control characters, and usable as
    the last part of a URL path: `/` only between non-empty parts, none of them `.` or `..`
    (clients resolve those before sending: a line named `..` would be the Space's own URL)."""
    name = value.strip()
    if not name or len(name) > MAX_LINE_NAME:
        raise BadRequest(f"A line's name is 1–{MAX_LINE_NAME} characters (got {len(name)}).", field=field)
    if any(unicodedata.category(character) in {"Cc", "Cf", "Zl", "Zp"} for character in name):
        raise BadRequest("A line's name cannot hold control or invisible formatting characters.", field=field)
    if any(part.strip() in {"", ".", ".."} for part in name.split("/")):
        raise BadRequest(
            "A line's name is parts joined by `/` (like `feature/login`): no empty part, and no part that is "
            "`.` or `..`.",
            field=field,
        )
    return name


def new_line_name(value: str, field: str = "name") -> str:
    """A name for a new line, or a line's new name: `line_name`'s rules and two more, which lines
    named before these rules (and bundles of them) may break:
    - no character that shows nothing and is not already refused as a format character (a Hangul
      filler, the combining grapheme joiner): a name with one looks like the name without it;
    - not the shape of a Checkpoint ref (7 to 64 hex digits, or an id): where a ref may be a line's
      name or a Checkpoint (merge's `ours` and `theirs`), a line's name wins, and such a name would
      hide the Checkpoint (docs/merge.md)."""
    name = line_name(value, field)
    if any(character in INVISIBLE for character in name):
        raise BadRequest("A line's name cannot hold characters that show nothing.", field=field)
    if could_be_checkpoint_ref(name):
        raise BadRequest(
            f"{name!r} could be taken for a Checkpoint (an id, or a hash or prefix of 7 to 64 hex digits), "
            "which a line of that name would hide where either is accepted (a merge's ours and theirs): "
            "choose a name with another character in it.",
            field=field,
        )
    return name
