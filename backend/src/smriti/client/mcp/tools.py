"""The MCP tools: Spaces and Checkpoints here, saving in `commit`, Sessions (mount, fork) in `sessions`,
lines in `lines`, merges in `merge`.

Bad arguments, unknown Spaces, a stale `expected_head`, an unreachable server: each is a tool
error with a clear message (`isError`), never a crash of the server (`server`).
"""

from __future__ import annotations

from typing import Annotated, cast

import msgspec

from smriti.checkpoints.diff import CheckpointDiff
from smriti.checkpoints.schemas import Checkpoint, VerifyReport
from smriti.client import operations
from smriti.client.mcp.base import (
    MAX_REF,
    Args,
    Call,
    CheckpointRef,
    Limit,
    LineText,
    Offset,
    OptionalLine,
    SpaceRef,
    ToolSpec,
)
from smriti.client.mcp.commit import COMMIT_TOOL
from smriti.client.mcp.lines import LINE_TOOLS
from smriti.client.mcp.merge import MERGE_TOOLS
from smriti.client.mcp.proposals import PROPOSAL_TOOLS
from smriti.client.mcp.search import SEARCH_TOOL
from smriti.client.mcp.sessions import SESSION_TOOLS
from smriti.client.refs import resolve_ref
from smriti.core.schemas import Page
from smriti.review.schemas import ReviewResult
from smriti.spaces.schemas import Space

# Hosts sometimes send a list or an object as a JSON string; these fields accept that too.
STRUCTURED_FIELDS = frozenset(
    {
        "decisions",
        "assumptions",
        "tasks",
        "open_questions",
        "entities",
        "artifacts",
        "metadata",
        "remove",
        "complete_tasks",
        "merged",
        "conflicts",
    }
)


class ListSpacesArgs(Args):
    """Page through the Spaces, most recently changed first."""

    limit: Limit = 50
    offset: Offset = 0


class CreateSpaceArgs(Args):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200, description="A unique name for the Space.")]
    description: Annotated[str, msgspec.Meta(description="What this line of work is about.")] = ""


class SpaceArgs(Args):
    space: SpaceRef


MAX_ANCHORS = 100
"""Anchors go in the address (`?anchor=`): 100 full hashes are ~7 KB of it."""


class VerifyArgs(SpaceArgs):
    anchors: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=MAX_REF)]], msgspec.Meta(max_length=MAX_ANCHORS)
    ] = []
    """Full Checkpoint hashes (64 hex digits) kept elsewhere; each must still be in the history."""


class RefArgs(Args, kw_only=True):
    """Tools whose refs may be `HEAD`, `HEAD~N` or `HEAD^` of `space` (and `line`), as in the CLI."""

    space: Annotated[
        SpaceRef | None, msgspec.Meta(description="The Space (name or id) that HEAD, HEAD~N, HEAD^ refer to.")
    ] = None
    line: OptionalLine = None

    async def exact(self, call: Call, ref: str) -> str:
        return await resolve_ref(call.client, ref, space=self.space, line=self.line)


class CheckpointArgs(RefArgs):
    ref: CheckpointRef


class HeadArgs(SpaceArgs):
    line: OptionalLine = None


class LogArgs(Args):
    space: SpaceRef
    limit: Limit = 20
    offset: Offset = 0
    line: Annotated[
        LineText | None,
        msgspec.Meta(
            description="Only this line's history: its HEAD, then first parents back to its start. Omit for every "
            "Checkpoint of the Space, newest first.",
        ),
    ] = None


class DiffArgs(RefArgs):
    from_ref: CheckpointRef
    to_ref: CheckpointRef


class ReviewArgs(RefArgs):
    ref: CheckpointRef
    provider: Annotated[str | None, msgspec.Meta(description="Provider for the model part (default: server's).")] = None
    model: Annotated[str | None, msgspec.Meta(description="Model for the review.")] = None


async def _list_spaces(call: Call, args: ListSpacesArgs) -> Page[Space]:
    return await call.client.list_spaces(limit=args.limit, offset=args.offset)


async def _create_space(call: Call, args: CreateSpaceArgs) -> Space:
    return await call.client.create_space(args.name, args.description)


async def _get_head(call: Call, args: HeadArgs) -> Checkpoint:
    space = await call.client.resolve_space(args.space)
    return await call.client.head(space.id, line=args.line)


async def _get_checkpoint(call: Call, args: CheckpointArgs) -> Checkpoint:
    return await call.client.get_checkpoint(await args.exact(call, args.ref))


async def _log(call: Call, args: LogArgs) -> Page[Checkpoint]:
    space = await call.client.resolve_space(args.space)
    return await call.client.log(space.id, limit=args.limit, offset=args.offset, line=args.line)


async def _diff(call: Call, args: DiffArgs) -> CheckpointDiff:
    return await call.client.diff(await args.exact(call, args.from_ref), await args.exact(call, args.to_ref))


async def _review(call: Call, args: ReviewArgs) -> ReviewResult:
    return await operations.review(
        call.client, await args.exact(call, args.ref), provider=args.provider, model=args.model
    )


async def _verify(call: Call, args: VerifyArgs) -> VerifyReport:
    space = await call.client.resolve_space(args.space)
    return await call.client.verify(space.id, args.anchors)


async def _brief(call: Call, args: HeadArgs) -> operations.Handoff:
    return await operations.handoff(call.client, args.space, via="mcp", line=args.line)


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_spaces",
        "List Spaces",
        "List the Spaces (named lines of work), most recently changed first, each with its HEAD Checkpoint's "
        "id, hash and message. Paged: `total` says how many there are.",
        ListSpacesArgs,
        Page[Space],
        _list_spaces,
    ),
    ToolSpec(
        "create_space",
        "Create a Space",
        "Create a new, empty Space. Names are unique: an existing name is a conflict.",
        CreateSpaceArgs,
        Space,
        _create_space,
        read_only=False,
    ),
    ToolSpec(
        "get_head",
        "Get a Space's HEAD",
        "The Space's HEAD (its default line's latest Checkpoint), or with `line` that line's HEAD, with the "
        "full state (summary, decisions, assumptions, tasks, open questions, entities, artifacts, metadata). "
        "An error if the line has no Checkpoint yet. Also the resource `smriti://spaces/{space}/head`.",
        HeadArgs,
        Checkpoint,
        _get_head,
    ),
    ToolSpec(
        "get_checkpoint",
        "Get a Checkpoint",
        "One Checkpoint by id, hash, or hash prefix, with its full state and its parent. Also the resource "
        "`smriti://checkpoints/{ref}`.",
        CheckpointArgs,
        Checkpoint,
        _get_checkpoint,
    ),
    ToolSpec(
        "list_checkpoints",
        "Checkpoint log",
        "The Space's Checkpoints, newest first, each with its parent, so the history can be followed; with "
        "`line`, that line's history (its HEAD, then first parents).",
        LogArgs,
        Page[Checkpoint],
        _log,
    ),
    COMMIT_TOOL,
    ToolSpec(
        "diff_checkpoints",
        "Compare two Checkpoints",
        "What changed from one Checkpoint to another of the same Space, field by field: items added and removed, "
        "tasks done or reopened, entities and artifacts changed.",
        DiffArgs,
        CheckpointDiff,
        _diff,
    ),
    ToolSpec(
        "review_checkpoint",
        "Review a Checkpoint",
        "Check a Checkpoint's reasoning: contradictions between decisions, hidden assumptions, open questions "
        "that are already answered, entities nothing refers to. Rules always run; a configured model adds more. "
        "The prompt `review_checkpoint` asks a model to do the same.",
        ReviewArgs,
        ReviewResult,
        _review,
    ),
    ToolSpec(
        "verify_space",
        "Verify a Space's history",
        "Recompute every Checkpoint hash and parent link of the Space and compare the Space's record with "
        "them; `ok` is false and `problems` lists what was altered. `anchors`: full hashes kept elsewhere "
        "(each must still be in the history; only they reveal a history rewritten with consistent hashes).",
        VerifyArgs,
        VerifyReport,
        _verify,
    ),
    ToolSpec(
        "handoff_brief",
        "Hand-off brief",
        "A Markdown brief of the Space's HEAD (or, with `line`, that line's HEAD) to continue the work from: the "
        "state, which line it is on and which other lines there are, where it sits in the history, and how to "
        "hand back (commit with `expected_head`). Works on an empty Space too. The prompt `continue_from_head` "
        "starts an agent from it.",
        HeadArgs,
        operations.Handoff,
        _brief,
        text=lambda handoff: cast("operations.Handoff", handoff).brief,
    ),
    *SESSION_TOOLS,
    *LINE_TOOLS,
    *MERGE_TOOLS,
    *PROPOSAL_TOOLS,
    SEARCH_TOOL,
)

BY_NAME = {tool.name: tool for tool in TOOLS}
