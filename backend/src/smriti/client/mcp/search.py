"""The MCP `search` tool: Checkpoints and Turns by their words, across Spaces or in one."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from smriti.client.mcp.base import Args, Call, Limit, Offset, SpaceRef, ToolSpec
from smriti.search.schemas import SearchPage


class SearchArgs(Args):
    query: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=500,
            description='Words to find, as in a web search: stemmed words, "a phrase", `or`, `-word` to exclude.',
            examples=['"storage engine" -postgres'],
        ),
    ]
    space: Annotated[SpaceRef | None, msgspec.Meta(description="Only this Space's (name or id).")] = None
    kind: Annotated[
        Literal["checkpoint", "turn"] | None, msgspec.Meta(description="Only Checkpoints, or only Turns.")
    ] = None
    limit: Limit = 10
    offset: Offset = 0


async def _search(call: Call, args: SearchArgs) -> SearchPage:
    space_id = (await call.client.resolve_space(args.space)).id if args.space is not None else None
    return await call.client.search(args.query, space_id=space_id, kind=args.kind, limit=args.limit, offset=args.offset)


SEARCH_TOOL = ToolSpec(
    "search",
    "Search Checkpoints and Turns",
    "Full-text search over every Checkpoint (message, summary, decisions, assumptions, tasks, open questions, "
    "entities, artifacts) and every Turn said, or one Space's; best match first. Each hit names its Space, the "
    "Checkpoint (`commit_id`, open it with get_checkpoint; `commit_hash`) or the Session (`session_id`, "
    "`session_title`) and Turn number, the field that matched, and a plain-text snippet with `highlights` "
    "([start, end) offsets of the matched words). An item carried forward across Checkpoints is one hit, its "
    "newest Checkpoint, with the older ones of the page in `earlier`; `total`, `limit` and `offset` count matches.",
    SearchArgs,
    SearchPage,
    _search,
)
