"""MCP tools for proposals (SYSTEM.md §13): an agent works on a line of its own and asks the person
to merge it. An agent opens, lists, reads and closes its proposals; only the person merges one
(the web app, `smriti proposal merge`, or the REST API with the person's token)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from smriti.client.mcp.base import Args, Call, Limit, LineName, Offset, SpaceRef, ToolSpec
from smriti.core.schemas import Page
from smriti.proposals.schemas import (
    MAX_DESCRIPTION,
    MAX_REASON,
    MAX_TITLE,
    Proposal,
    ProposalCreate,
    ProposalDetail,
)

Number = Annotated[int, msgspec.Meta(ge=1, le=2_147_483_647, description="The proposal's number in its Space.")]


class OpenProposalArgs(Args, kw_only=True):
    space: SpaceRef
    from_line: Annotated[LineName, msgspec.Meta(description="Your line, whose work you propose.")]
    into: Annotated[
        LineName | None,
        msgspec.Meta(description="The line to merge into; omit for the Space's default line."),
    ] = None
    title: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TITLE, description="What it does, in a line.")]
    description: Annotated[
        str, msgspec.Meta(max_length=MAX_DESCRIPTION, description="Why, and what the person should look at.")
    ] = ""


class ListProposalsArgs(Args):
    space: SpaceRef
    status: Annotated[
        Literal["open", "merged", "closed"] | None, msgspec.Meta(description="Only proposals in this state.")
    ] = None
    limit: Limit = 50
    offset: Offset = 0


class ProposalArgs(Args):
    space: SpaceRef
    number: Number


class CloseProposalArgs(Args):
    space: SpaceRef
    number: Number
    reason: Annotated[str, msgspec.Meta(max_length=MAX_REASON, description="Why it is closed.")] | None = None


async def _open(call: Call, args: OpenProposalArgs) -> ProposalDetail:
    space = await call.client.resolve_space(args.space)
    body = ProposalCreate(from_=args.from_line, into=args.into, title=args.title, description=args.description)
    return await call.client.open_proposal(space.id, body)


async def _list(call: Call, args: ListProposalsArgs) -> Page[Proposal]:
    space = await call.client.resolve_space(args.space)
    return await call.client.list_proposals(space.id, status=args.status, limit=args.limit, offset=args.offset)


async def _get(call: Call, args: ProposalArgs) -> ProposalDetail:
    space = await call.client.resolve_space(args.space)
    return await call.client.get_proposal(space.id, args.number)


async def _close(call: Call, args: CloseProposalArgs) -> ProposalDetail:
    space = await call.client.resolve_space(args.space)
    return await call.client.close_proposal(space.id, args.number, args.reason)


PROPOSAL_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "open_proposal",
        "Propose merging your line",
        "Ask the person to merge your line (`from_line`) into another (`into`; default: the Space's default "
        "line), as you would open a merge request. Work on a line of your own (`create_line`, then "
        "`commit_checkpoint` with `line`) and propose it when it is ready, above all when the target line is "
        "protected: you cannot commit there. One proposal per pair of lines is open at a time (a conflict). "
        "The answer has its `number` and the merge preview (`relation`, `conflicts`); the person merges it.",
        OpenProposalArgs,
        ProposalDetail,
        _open,
        read_only=False,
    ),
    ToolSpec(
        "list_proposals",
        "List a Space's proposals",
        "The Space's proposals, newest first (`status`: open, merged or closed), each with its lines, title, "
        "status and who opened it. Paged: `total` says how many there are.",
        ListProposalsArgs,
        Page[Proposal],
        _list,
    ),
    ToolSpec(
        "get_proposal",
        "Read a proposal",
        "One proposal with the merge of its lines' HEADs as they are now: `relation`, `conflicts` and "
        "`preview` (as `preview_merge` shows it). Once merged, `merge_commit_id` is the merge Checkpoint; a "
        "deleted line is null in `from`/`into` with its name kept in `from_name`/`into_name`.",
        ProposalArgs,
        ProposalDetail,
        _get,
    ),
    ToolSpec(
        "close_proposal",
        "Close your proposal",
        "Close a proposal you opened without merging it (the work stays on your line). Closing one that is "
        "merged or closed already is a conflict; another agent's proposal is refused.",
        CloseProposalArgs,
        ProposalDetail,
        _close,
        read_only=False,
    ),
)
