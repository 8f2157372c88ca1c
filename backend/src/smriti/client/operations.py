"""The operations both agent transports offer, built on the typed client.

The CLI and the MCP server differ only in how they take arguments and show results; what a
commit, a hand-off brief or a review *does* is defined once, here.
"""

from __future__ import annotations

import getpass
import os
import re
from typing import Any
from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import Checkpoint, CheckpointContent
from smriti.client.api import SmritiClient
from smriti.client.brief import Via, handoff_brief
from smriti.client.errors import InvalidInput
from smriti.core.schemas import say_patterns
from smriti.core.text import line_key
from smriti.review.schemas import ReviewResult

NO_HEAD = "none"
"""The `--expect-head` / `expected_head` value that means "the Space has no Checkpoint yet"."""
BRIEF_HISTORY = 5


class CommitDraft(CheckpointContent, forbid_unknown_fields=True, kw_only=True):
    """A new Checkpoint as an agent hands it over: its content, and optionally where it goes.

    This is the JSON `smriti commit` reads from `--file` or stdin. The Space comes from the command
    line; ids, hashes and times are the server's to assign.
    """

    parent_commit_id: UUID | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


class Handoff(msgspec.Struct, kw_only=True):
    """A hand-off brief and what it was made from."""

    space_id: UUID
    space_name: str
    line: str
    """The line whose HEAD the brief is of (the Space's default line unless one was named)."""
    lines: list[str]
    """Every line of the Space (up to 200), the default line first."""
    head_commit_id: UUID | None
    head_commit_hash: str | None
    brief: str
    """Markdown, ready to paste into a prompt."""


def default_author() -> str:
    """The agent name recorded on commits: $SMRITI_AGENT_NAME, else the OS user, else `agent`."""
    name = os.environ.get("SMRITI_AGENT_NAME", "").strip()
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no user database entry (some containers)
        return "agent"


def with_author(metadata: dict[str, Any], author: str) -> dict[str, Any]:
    """`metadata` with `author = {kind: agent, name}` added, unless it already says who the author is."""
    if "author" in metadata:
        return metadata
    return {**metadata, "author": {"kind": "agent", "name": author}}


_AT = re.compile(r" - at `\$\.?([^`]*)`$")


def describe_invalid(exc: msgspec.ValidationError) -> str:
    """msgspec's message as `field: problem`, with its regexes said in words."""
    message = str(exc)
    at = _AT.search(message)
    field = at.group(1) if at else ""
    problem = message[: at.start()] if at else message
    problem = say_patterns(problem)
    return f"{field}: {problem}" if field else problem


SAVED_FIELDS = ("id", "repo_id", "commit_hash", "created_at", "parent_commit_id", "merge_parent_id")
"""What a saved Checkpoint has that a new one gets from the server (or, for the parent, from HEAD;
a new Checkpoint is a merge only when asked)."""
PROVENANCE = ("author", "source", "drafted_by", "restored_from")
"""Metadata that says how one particular Checkpoint was made, so it is not inherited by the next
(the server's apply follows the same rule)."""


def inherited_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """What a new Checkpoint keeps of its parent's metadata: all but its provenance."""
    return {key: value for key, value in metadata.items() if key not in PROVENANCE}


def from_saved(data: dict[str, Any]) -> dict[str, Any]:
    """A saved Checkpoint's JSON (`smriti head --json`, edited) as the content of a new one.

    Its id, hash, Space, time and parent belong to the old Checkpoint and are dropped, and so is the
    metadata that describes how the old one was made (`author`, `source`, `drafted_by`). JSON that is
    not a saved Checkpoint (no `id` and no `commit_hash`) is returned as it is.
    """
    if "id" not in data and "commit_hash" not in data:
        return data
    content = {key: value for key, value in data.items() if key not in SAVED_FIELDS}
    metadata = content.get("metadata")
    if isinstance(metadata, dict):
        content["metadata"] = inherited_metadata(metadata)
    return content


def draft_from(data: Any, *, source: str) -> CommitDraft:
    """Validate decoded JSON as a `CommitDraft`; `InvalidInput` names the offending field."""
    if not isinstance(data, dict):
        raise InvalidInput(f"{source} must hold a JSON object with the Checkpoint's fields, not {type(data).__name__}.")
    try:
        return msgspec.convert(data, CommitDraft)
    except msgspec.ValidationError as exc:
        raise InvalidInput(f"Invalid Checkpoint in {source}: {describe_invalid(exc)}") from None


_BARE_HEX = re.compile(r"[0-9a-fA-F]+")


async def resolve_commit_id(client: SmritiClient, ref: str) -> UUID:
    """A Checkpoint id from an id, a full hash or a unique hash prefix. Bare hex digits are a hash
    (prefix) even when there are 32 of them, which `UUID()` would also read as an id."""
    if not _BARE_HEX.fullmatch(ref.strip()):
        try:
            return UUID(ref.strip())
        except ValueError:
            pass
    return (await client.get_checkpoint(ref)).id


async def expected_head(client: SmritiClient, ref: str) -> UUID | None:
    """The value of `expected_head_commit_id` for `--expect-head REF` (`none`: no HEAD yet)."""
    if ref.strip().lower() in {NO_HEAD, "null"}:
        return None
    return await resolve_commit_id(client, ref)


async def handoff(client: SmritiClient, space_ref: str, *, via: Via, line: str | None = None) -> Handoff:
    """The hand-off brief of a line's HEAD (default: the Space's default line), or of an empty line."""
    space = await client.resolve_space(space_ref)
    lines = (await client.lines(space.id)).items
    wanted = line_key(line) if line is not None else None  # compared as the server compares names
    current = next(
        (item for item in lines if (wanted is None and item.is_default) or line_key(item.name) == wanted), None
    )
    if current is None:  # beyond the first page, or an unknown name (the server says which)
        current = await client.get_line(space.id, line) if line is not None else None
    if current is None:
        raise InvalidInput(f"The Space {space.name!r} has no default line; the server is older than this client.")
    head = await client.head(space.id, line=current.name) if current.head_commit_id is not None else None
    earlier: list[Checkpoint] = []
    total = 0
    if head is not None:
        page = await client.log(space.id, limit=BRIEF_HISTORY + 1, line=current.name)
        earlier, total = page.items, page.total
    return Handoff(
        space_id=space.id,
        space_name=space.name,
        line=current.name,
        lines=[item.name for item in lines],
        head_commit_id=head.id if head else None,
        head_commit_hash=head.commit_hash if head else None,
        brief=handoff_brief(space, head, earlier=earlier, total=total, via=via, line=current, lines=lines),
    )


async def review(
    client: SmritiClient, ref: str, *, provider: str | None = None, model: str | None = None
) -> ReviewResult:
    return await client.review(await resolve_commit_id(client, ref), provider=provider, model=model)
