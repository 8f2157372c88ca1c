"""Saving on a line and restoring: the version-control verbs both agent transports offer (the
Session verbs, mounting and forking, are `sessions.py`'s).

A Checkpoint is a whole snapshot, so an agent that sends only what changed must not lose the
rest: `save` starts from the parent's state (`POST /v5/checkpoints/apply`) unless the agent asks
to replace it, and it never moves a line's HEAD sideways. A parent that is not the line's HEAD
(an older Checkpoint the agent built on) is refused with the way to continue from it instead:
start a new line there. The server would accept such a commit (v4 clients may fork a line that
way), so the check is made here, and the commit then names that HEAD as the expected one, so a
commit landing between the check and the save is refused too.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from uuid import UUID

import msgspec

from smriti.checkpoints.diff import CheckpointDiff
from smriti.checkpoints.schemas import (
    ApplyRequest,
    Checkpoint,
    CommitCreate,
    ItemAdditions,
    ItemRemovals,
    RestoreRequest,
    SetFields,
)
from smriti.client.api import SmritiClient
from smriti.client.brief import Via, short
from smriti.client.errors import ConflictError, InvalidInput
from smriti.client.operations import CommitDraft, expected_head, resolve_commit_id, with_author
from smriti.lines.schemas import Line
from smriti.spaces.schemas import Space

_EXPECTED = "expected_head_commit_id"


class Changes(msgspec.Struct, kw_only=True):
    """What a carry-forward commit changes against its parent; everything else is kept."""

    summary: str | None = None
    """A new summary; None keeps the parent's."""
    add: ItemAdditions = msgspec.field(default_factory=ItemAdditions)
    remove: ItemRemovals = msgspec.field(default_factory=ItemRemovals)
    complete_tasks: list[str] = []
    metadata: dict[str, object] = {}
    parent_commit_id: UUID | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


@dataclass(frozen=True, slots=True)
class Saved:
    """A Checkpoint just written, where it went, and what it changed against its parent."""

    space: Space
    checkpoint: Checkpoint
    line: str
    """The line's name as the server spells it."""
    changes: CheckpointDiff | None
    """Against the parent; None for the first Checkpoint of a line."""
    parent_hash: str | None = None
    """The parent's hash, to name it the way the log does."""


def new_line_hint(space: Space, ref: str, via: Via) -> str:
    """How to continue from `ref` on a line of its own, in the words of the transport."""
    if via == "cli":
        command = f"smriti line create {shlex.quote(space.name)} NAME --from {shlex.quote(ref)}"
        return f"To continue from {ref} instead, start a new line there: `{command}`, then commit with `--line NAME`."
    return (
        f"To continue from {ref} instead, start a new line there: call `create_line` with space "
        f'"{space.name}", a name and from_ref "{ref}", then `commit_checkpoint` with that `line`.'
    )


async def line_of(client: SmritiClient, space: Space, name: str | None) -> Line:
    """The line `name` of the Space (compared as the server compares names), else its default line."""
    if name is not None:
        return await client.get_line(space.id, name)
    page = await client.lines(space.id, limit=1)  # the default line is listed first
    if not page.items or not page.items[0].is_default:
        raise InvalidInput(f"The Space {space.name!r} has no default line; the server is older than this client.")
    return page.items[0]


async def changes_since_parent(client: SmritiClient, checkpoint: Checkpoint) -> CheckpointDiff | None:
    if checkpoint.parent_commit_id is None:
        return None
    return await client.diff(str(checkpoint.parent_commit_id), str(checkpoint.id))


async def saved(client: SmritiClient, space: Space, checkpoint: Checkpoint, line: str) -> Saved:
    if checkpoint.parent_commit_id is None:
        return Saved(space, checkpoint, line, None)
    parent = await client.get_checkpoint(str(checkpoint.parent_commit_id))
    return Saved(space, checkpoint, line, await changes_since_parent(client, checkpoint), parent.commit_hash)


def _check_parent_is_head(space: Space, line: Line, parent_id: UUID, parent_ref: str, via: Via) -> None:
    if line.head_commit_id == parent_id:
        return
    where = f"its HEAD is {short(line.head_commit_hash)}" if line.head_commit_hash else "it has no Checkpoint yet"
    raise ConflictError(
        f"{parent_ref} is not the HEAD of line {line.name!r} ({where}); saving on it would leave that HEAD "
        f"behind, so nothing was written. {new_line_hint(space, parent_ref, via)}",
        status_code=409,
    )


def _with_hint(exc: ConflictError, space: Space, expected_ref: str | None, via: Via) -> ConflictError:
    """A moved HEAD, with the way to keep the state the agent built on as a line of its own."""
    if expected_ref is None or not any(error.get("field") == _EXPECTED for error in exc.errors):
        return exc
    return ConflictError(f"{exc.detail} {new_line_hint(space, expected_ref, via)}", status_code=409, errors=exc.errors)


async def save(
    client: SmritiClient,
    space_ref: str,
    content: Changes | CommitDraft,
    *,
    message: str,
    author: str,
    line: str | None = None,
    expect_head: str | None = None,
    parent: str | None = None,
    via: Via = "cli",
) -> Saved:
    """Save a Checkpoint on `line` (default: the Space's default line) and move its HEAD.

    With `Changes`, the new Checkpoint is the parent's state with those changes; with a
    `CommitDraft`, it is exactly that draft (a whole new snapshot: `--replace`). `expect_head`
    (a ref, or `none`) makes the save a compare-and-swap on the line's HEAD and overrides the
    content's `expected_head_commit_id`; `parent` (a ref) overrides its `parent_commit_id`, and
    must be the line's HEAD.
    """
    space = await client.resolve_space(space_ref)
    expected = content.expected_head_commit_id
    if expect_head is not None:
        expected = await expected_head(client, expect_head)
    parent_id = content.parent_commit_id
    parent_ref = parent or (str(parent_id) if parent_id else None)
    if parent is not None:
        parent_id = await resolve_commit_id(client, parent)
    the_line = await line_of(client, space, line)
    if parent_id is not None and parent_ref is not None:
        _check_parent_is_head(space, the_line, parent_id, parent_ref, via)
        if expected is msgspec.UNSET:
            expected = parent_id  # the check above holds only if HEAD is still there when we write
    # The ref the agent built on, as the agent spelled it, for the hint on a moved HEAD.
    expected_ref: str | None = None
    if isinstance(expected, UUID):
        expected_ref = expect_head if expect_head is not None else parent_ref if expected == parent_id else None
        expected_ref = expected_ref or str(expected)
    try:
        checkpoint = await _write(
            client,
            space=space,
            content=content,
            message=message,
            author=author,
            line=line,
            parent_id=parent_id,
            expected=expected,
        )
    except ConflictError as exc:
        raise _with_hint(exc, space, expected_ref, via) from None
    except InvalidInput as exc:
        raise _explained(exc, via) from None
    return await saved(client, space, checkpoint, the_line.name)


def _explained(exc: InvalidInput, via: Via) -> InvalidInput:
    """An item added twice: say that the parent's items are carried forward already."""
    fields = [str(error.get("field", "")) for error in exc.errors]
    if not any(field.startswith("add.") for field in fields) or "already in the list" not in exc.detail:
        return exc
    complete = "--complete-task TEXT" if via == "cli" else "`complete_tasks`"
    extra = (
        f" To mark a task of the parent done, use {complete}." if any(f.startswith("add.tasks") for f in fields) else ""
    )
    return InvalidInput(
        f"{exc.detail} The parent's items are carried forward already: add only new ones.{extra}",
        status_code=exc.status_code,
        errors=exc.errors,
    )


async def _write(
    client: SmritiClient,
    *,
    space: Space,
    content: Changes | CommitDraft,
    message: str,
    author: str,
    line: str | None,
    parent_id: UUID | None,
    expected: UUID | msgspec.UnsetType | None,
) -> Checkpoint:
    # No line named: the server's default line at the moment of writing, which the parent check
    # (and `expected`) pinned down; naming the default line we read would race a change of default.
    if isinstance(content, CommitDraft):
        fields = msgspec.structs.asdict(content)
        fields.update(
            message=message,
            repo_id=space.id,
            branch=line,
            metadata=with_author(content.metadata, author),
            parent_commit_id=parent_id,
            expected_head_commit_id=expected,
        )
        return await client.commit(CommitCreate(**fields))
    return await client.apply(
        ApplyRequest(
            repo_id=space.id,
            message=message,
            branch=line,
            parent_commit_id=parent_id,
            expected_head_commit_id=expected,
            set_=SetFields(summary=msgspec.UNSET if content.summary is None else content.summary),
            add=content.add,
            remove=content.remove,
            complete_tasks=content.complete_tasks,
            metadata=with_author(dict(content.metadata), author),
        )
    )


async def restore(
    client: SmritiClient,
    ref: str,
    *,
    line: str | None = None,
    message: str | None = None,
    expect_head: str | None = None,
) -> Saved:
    """A new Checkpoint on `line` equal to `ref`'s state, on top of the line's HEAD."""
    source = await client.get_checkpoint(ref)
    space = await client.get_space(source.repo_id)
    the_line = await line_of(client, space, line)
    expected: UUID | msgspec.UnsetType | None = msgspec.UNSET
    if expect_head is not None:
        expected = await expected_head(client, expect_head)
    body = RestoreRequest(branch=the_line.name, message=message, expected_head_commit_id=expected)
    checkpoint = await client.restore(str(source.id), body)
    return await saved(client, space, checkpoint, the_line.name)
