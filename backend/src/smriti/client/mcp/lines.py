"""MCP tools for lines and restore: the version-control verbs beyond commit (Sessions, forks and
mounting are `sessions.py`'s).

A Space's lines (internal name: branches) each have their own HEAD; the default line's HEAD is
the Space's HEAD. None of these tools edits or deletes a Checkpoint.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from smriti.client import verbs
from smriti.client.mcp.base import (
    Args,
    Call,
    Limit,
    LineName,
    Message,
    Offset,
    OptionalLine,
    Ref,
    SpaceRef,
    ToolSpec,
)
from smriti.client.mcp.commit import SavedCheckpoint, saved_checkpoint
from smriti.core.schemas import Page
from smriti.lines.schemas import Line, LineUpdate


class ListLinesArgs(Args):
    space: SpaceRef
    limit: Limit = 50
    offset: Offset = 0


class CreateLineArgs(Args):
    space: SpaceRef
    name: Annotated[
        str, msgspec.Meta(min_length=1, max_length=100, description="The new line's name, unique in the Space.")
    ]
    from_ref: Annotated[
        Ref | None,
        msgspec.Meta(
            description="The Checkpoint the line starts at (id, hash or prefix); omit for the Space's HEAD.",
        ),
    ] = None


class RenameLineArgs(Args):
    space: SpaceRef
    name: LineName
    new_name: Annotated[str, msgspec.Meta(min_length=1, max_length=100, description="The line's new name.")]


class LineArgs(Args):
    space: SpaceRef
    name: LineName


class RestoreArgs(Args):
    ref: Annotated[Ref, msgspec.Meta(description="The Checkpoint whose state to restore (a ref).")]
    line: OptionalLine = None
    message: Annotated[
        Message | None,
        msgspec.Meta(description="The new Checkpoint's message (default: `Restore <hash>: <message>`)."),
    ] = None
    expected_head: Annotated[
        Ref | None,
        msgspec.Meta(
            description='Compare-and-swap on the line\'s HEAD: the HEAD you read, or "none". If it has moved, '
            "nothing is saved and the tool reports a conflict."
        ),
    ] = None


async def _list_lines(call: Call, args: ListLinesArgs) -> Page[Line]:
    space = await call.client.resolve_space(args.space)
    return await call.client.lines(space.id, limit=args.limit, offset=args.offset)


async def _create_line(call: Call, args: CreateLineArgs) -> Line:
    space = await call.client.resolve_space(args.space)
    return await call.client.create_line(space.id, args.name, args.from_ref)


async def _rename_line(call: Call, args: RenameLineArgs) -> Line:
    space = await call.client.resolve_space(args.space)
    return await call.client.update_line(space.id, args.name, LineUpdate(name=args.new_name))


async def _set_default_line(call: Call, args: LineArgs) -> Line:
    space = await call.client.resolve_space(args.space)
    return await call.client.update_line(space.id, args.name, LineUpdate(is_default=True))


async def _delete_line(call: Call, args: LineArgs) -> Line:
    space = await call.client.resolve_space(args.space)
    line = await call.client.get_line(space.id, args.name)
    await call.client.delete_line(space.id, line.name)
    return line


async def _restore(call: Call, args: RestoreArgs) -> SavedCheckpoint:
    saved = await verbs.restore(
        call.client,
        args.ref,
        line=args.line,
        message=args.message,
        expect_head=args.expected_head,
    )
    return saved_checkpoint(saved)


LINE_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_lines",
        "List a Space's lines",
        "The Space's lines of Checkpoints, the default line first, then by name, each with its HEAD "
        "(`head_commit_id`). The default line's HEAD is the Space's HEAD. Paged: `total` says how many there are.",
        ListLinesArgs,
        Page[Line],
        _list_lines,
    ),
    ToolSpec(
        "create_line",
        "Start a line",
        "Start a new line of the Space at a Checkpoint (`from_ref`; default: the Space's HEAD), to continue "
        "from an older state without moving any other line. No Checkpoint is written; commit to it with "
        "`commit_checkpoint` and `line`. A name that looks like one the Space already has (compared whatever "
        "its case, Unicode form or spacing) is a conflict; a name shaped like a Checkpoint ref (7-64 hex "
        "digits, or an id) is refused.",
        CreateLineArgs,
        Line,
        _create_line,
        read_only=False,
    ),
    ToolSpec(
        "rename_line",
        "Rename a line",
        "Give a line of the Space a new name. Its HEAD and Checkpoints stay as they are; a name the Space "
        "already has is a conflict.",
        RenameLineArgs,
        Line,
        _rename_line,
        read_only=False,
    ),
    ToolSpec(
        "set_default_line",
        "Make a line the default",
        "Make a line the Space's default line: its HEAD becomes the Space's HEAD, which `get_head`, "
        "`handoff_brief` and commits without a `line` use from then on. No Checkpoint is written.",
        LineArgs,
        Line,
        _set_default_line,
        read_only=False,
    ),
    ToolSpec(
        "delete_line",
        "Delete a line",
        "Delete a line of the Space; its Checkpoints stay (they remain in the Space's log and can start a "
        "new line). The default line cannot be deleted (a conflict): make another line the default first. "
        "Returns the line as it was.",
        LineArgs,
        Line,
        _delete_line,
        read_only=False,
        destructive=True,
    ),
    ToolSpec(
        "restore_checkpoint",
        "Restore a Checkpoint's state",
        "Save a new Checkpoint on a line (default: the default line) whose state equals an older Checkpoint's, "
        "on top of the line's HEAD, with `metadata.restored_from` naming the older one. Nothing is edited or "
        "removed; `changes` shows what changed against the previous HEAD.",
        RestoreArgs,
        SavedCheckpoint,
        _restore,
        read_only=False,
    ),
)
