"""MCP tools for merging one line into another: the preview, and committing a clean or person-resolved merge.

An agent may merge what merges cleanly, and must hand every conflict to a person: the preview says
which is which (`clean`, `conflicts`, each with `choose`), and the commit tool refuses, saving
nothing, while any conflict of the merge has no choice (the rule `smriti merge --resolve` follows,
`client/resolution.py`); it saves the merge of `theirs_commit_id` only if the line's HEAD is still
the one previewed.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec

from smriti.client import merging
from smriti.client.brief import short
from smriti.client.mcp.base import Args, Call, Message, SpaceRef, ToolSpec
from smriti.client.mcp.commit import SavedCheckpoint, saved_checkpoint
from smriti.client.resolution import ConflictChoice, MergeToResolve, Resolution, ResolvedState, to_resolve

IntoLine = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        description="The line merged into (matched whatever its case, Unicode form or spacing): its HEAD is "
        "`ours`, and the merge Checkpoint is saved on it.",
        examples=["main"],
    ),
]


class PreviewMergeArgs(Args):
    space: SpaceRef
    from_: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=200,
            description="What is merged in (`theirs`): a line's name (its HEAD), or a Checkpoint's id, hash or "
            "hash prefix of this Space.",
            examples=["budget"],
        ),
    ] = msgspec.field(name="from")
    into: IntoLine


class CommitMergeArgs(Args):
    space: SpaceRef
    into: IntoLine
    theirs_commit_id: Annotated[
        UUID, msgspec.Meta(description="`theirs_commit_id` of the preview: the merge Checkpoint's second parent.")
    ]
    expected_head_commit_id: Annotated[
        UUID,
        msgspec.Meta(
            description="`ours_commit_id` of the preview. Compare-and-swap: if the line's HEAD is no longer this "
            "Checkpoint, nothing is saved and the tool reports a conflict; call `preview_merge` again."
        ),
    ]
    merged: Annotated[
        ResolvedState,
        msgspec.Meta(
            description="The whole state to save, every field: the preview's `merged`, with the value a person "
            'wrote for each conflict they chose "edited" (a side they chose is put in for you).'
        ),
    ]
    conflicts: Annotated[
        list[ConflictChoice],
        msgspec.Meta(
            description='The preview\'s `conflicts`, each with `choose` set to what a person chose: "ours", '
            '"theirs" or "base" (that side\'s value), or "edited" (the value in `merged`). Needed when the preview '
            "was not `clean`: a conflict without a choice is refused, and nothing is saved."
        ),
    ] = []
    message: Annotated[
        Message | None,
        msgspec.Meta(description="The merge Checkpoint's message (default: `Merge <hash> into <into>`)."),
    ] = None
    author: Annotated[str | None, msgspec.Meta(description="Your name as an agent, recorded in metadata.author.")] = (
        None
    )


async def _preview(call: Call, args: PreviewMergeArgs) -> MergeToResolve:
    space = await call.client.resolve_space(args.space)
    return to_resolve((await merging.preview(call.client, space, args.from_, args.into)).preview)


async def _commit(call: Call, args: CommitMergeArgs) -> SavedCheckpoint:
    client = call.client
    space = await client.resolve_space(args.space)
    message = args.message
    if message is None:
        theirs = await client.get_checkpoint(str(args.theirs_commit_id))
        message = f"Merge {short(theirs.commit_hash)} into {args.into.strip()}"
    run_again = (
        "Call `preview_merge` again: it merges against the line's new HEAD, and its conflicts go to a person again."
    )
    resolution = Resolution(
        ours_commit_id=args.expected_head_commit_id,
        theirs_commit_id=args.theirs_commit_id,
        merged=args.merged,
        conflicts=args.conflicts,
    )
    how = "Show each to a person, and pass what they chose as its `choose` in `conflicts`; never choose for them."
    state = await merging.resolve(
        client, space, args.into, str(args.theirs_commit_id), resolution, run_again=run_again, how=how
    )
    saved = await merging.commit(
        client,
        space,
        args.into,
        state,
        theirs_commit_id=args.theirs_commit_id,
        ours_commit_id=args.expected_head_commit_id,
        message=message,
        author=call.author(args.author),
        run_again=run_again,
    )
    return saved_checkpoint(saved)


MERGE_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "preview_merge",
        "Preview a merge of two lines",
        "Merge `from` (theirs: a line, or a Checkpoint) into the line `into` (ours), three-way against their "
        "nearest common ancestor, item by item. Nothing is saved. `merged` is the merged state; `conflicts` lists "
        "each item both lines changed differently, with its `base`, `ours` and `theirs` values and a `choose` "
        "(null), and for each `merged` keeps ours only until someone chooses. If `clean` is true, you may commit "
        "`merged` as it is with `commit_merge`. If it is false, do not resolve the conflicts yourself: show them "
        "to a person and commit only what the person chose (`how_to_resolve` says how). `relation` `up_to_date` "
        "means nothing comes in: there is nothing to commit. `rivals` lists pairs of `merged`'s decisions (or a "
        "decision and an assumption) that the two lines chose differently and the merge keeps both of (no conflict, "
        "but both cannot hold): show them to a person before committing.",
        PreviewMergeArgs,
        MergeToResolve,
        _preview,
    ),
    ToolSpec(
        "commit_merge",
        "Commit a merge",
        "Save a merge Checkpoint on the line `into`: `merged` (the whole state) with the preview's "
        "`theirs_commit_id` as its second parent, only if the line's HEAD is still the preview's `ours_commit_id` "
        "(`expected_head_commit_id`). Call it only when the preview was `clean`, or after a person chose how to "
        "resolve every conflict: pass the preview's `conflicts` with each `choose` the person made. Conflicts go "
        "to a person, never decided by you; one without a choice is refused and nothing is saved. If the line "
        "moved, nothing is saved and the tool reports a conflict: preview again. The result is the Checkpoint "
        "plus `line` and `changes` (what the merge changed on the line).",
        CommitMergeArgs,
        SavedCheckpoint,
        _commit,
        read_only=False,
    ),
)
