"""Merging one line into another, for both agent transports: the preview, and the merge Checkpoint.

The server computes the merge (`GET /v5/repos/{id}/merge`, docs/merge.md) and saves nothing. What
it cannot settle, an item both lines changed differently, is a conflict for a person: `merged`
holds the line's own side of it until someone chooses, and a resolution is held to a choice for
each (`resolve`, the rule in `resolution`). The merge Checkpoint is then an ordinary commit of the
whole resolved state on the line merged into, with `merge_parent_id` = theirs and
`expected_head_commit_id` = ours, so that a line that moved since the preview gets a conflict
(and the merge is run again against its new HEAD) instead of a merge of a state nobody saw.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from uuid import UUID

import msgspec

from smriti.checkpoints.diff import CheckpointDiff, diff_checkpoints
from smriti.checkpoints.schemas import Checkpoint, CommitCreate
from smriti.client.api import SmritiClient
from smriti.client.brief import short
from smriti.client.errors import ConflictError, InvalidInput
from smriti.client.operations import inherited_metadata, with_author
from smriti.client.resolution import Resolution, settle
from smriti.client.verbs import Saved, line_of, saved
from smriti.lines.schemas import Line
from smriti.merges.schemas import MergePreview, MergeState
from smriti.spaces.schemas import Space

_EXPECTED = "expected_head_commit_id"


@dataclass(frozen=True, slots=True)
class Merge:
    """A preview, and the Space and line it is for."""

    space: Space
    line: Line
    """The line merged into (as the server spells its name)."""
    preview: MergePreview


@dataclass(frozen=True, slots=True)
class Sides:
    """The Checkpoints a preview names, for showing it to a person."""

    ours: Checkpoint
    theirs: Checkpoint
    base: Checkpoint | None
    changes: CheckpointDiff
    """What the merged state changes on the line: its HEAD (ours) → `merged`."""


async def preview(client: SmritiClient, space: Space, from_ref: str, into: str) -> Merge:
    """`from_ref` (a line's name or a Checkpoint ref) merged into the line `into`. Nothing is saved."""
    line = await client.get_line(space.id, into)
    return Merge(space, line, await client.merge_preview(space.id, line.name, from_ref))


async def sides(client: SmritiClient, merge: Merge) -> Sides:
    """The three Checkpoints of a preview, and what the merge changes on the line."""
    result = merge.preview
    ours, theirs, base = await asyncio.gather(
        client.get_checkpoint(str(result.ours_commit_id)),
        client.get_checkpoint(str(result.theirs_commit_id)),
        _maybe(client, result.base_commit_id),
    )
    after = msgspec.structs.replace(ours, **msgspec.structs.asdict(result.merged))
    return Sides(ours=ours, theirs=theirs, base=base, changes=diff_checkpoints(ours, after))


async def _maybe(client: SmritiClient, checkpoint_id: UUID | None) -> Checkpoint | None:
    return None if checkpoint_id is None else await client.get_checkpoint(str(checkpoint_id))


async def resolve(
    client: SmritiClient, space: Space, into: str, theirs_ref: str, resolution: Resolution, *, run_again: str, how: str
) -> MergeState:
    """The state a person's resolution saves, checked against the merge run again now: the line
    `into` must still be at the resolution's ours and `theirs_ref` at its theirs (else a
    `ConflictError` ending with `run_again`), and every conflict must have a choice (else
    `OpenConflicts`, ending with `how`). Running it again, rather than reading the resolution's own
    `conflicts`, is what makes a resolution whose conflicts were deleted count as unchosen."""
    merge = await preview(client, space, theirs_ref, into)
    rerun = merge.preview
    if rerun.ours_commit_id != resolution.ours_commit_id:
        raise await _moved(client, rerun.ours_commit_id, resolution.ours_commit_id, merge.line.name, run_again)
    if rerun.theirs_commit_id != resolution.theirs_commit_id:
        now, previewed = await asyncio.gather(
            client.get_checkpoint(str(rerun.theirs_commit_id)), client.get_checkpoint(str(resolution.theirs_commit_id))
        )
        raise ConflictError(
            f"{theirs_ref.strip()} is {short(now.commit_hash)} now, but the resolution is of a merge of "
            f"{short(previewed.commit_hash)}. Nothing was written. {run_again}"
        )
    return await settle(rerun, resolution, how=how)


async def _moved(client: SmritiClient, now: UUID | None, previewed: UUID, line: str, run_again: str) -> ConflictError:
    # Named by short hash, as everywhere else the CLI names a Checkpoint.
    moved_to = short((await client.get_checkpoint(str(now))).commit_hash) if now else "empty"
    was = short((await client.get_checkpoint(str(previewed))).commit_hash)
    return ConflictError(
        f"Line {line!r} has moved since the merge was previewed: its HEAD is {moved_to}, not {was}. "
        f"Nothing was written. {run_again}"
    )


async def commit(
    client: SmritiClient,
    space: Space,
    into: str,
    merged: MergeState,
    *,
    theirs_commit_id: UUID,
    ours_commit_id: UUID,
    message: str,
    author: str,
    run_again: str,
) -> Saved:
    """Save `merged` on the line `into` as the merge of `theirs_commit_id`, only if the line's HEAD
    is still `ours_commit_id`; else a `ConflictError` that ends with `run_again` (how to preview anew)."""
    if not message.strip():
        raise InvalidInput("A merge Checkpoint needs a message.")
    line = await line_of(client, space, into)
    # The line's own metadata goes on, as a commit on top of it keeps it (its provenance does not).
    ours = await client.get_checkpoint(str(ours_commit_id))
    body = CommitCreate(
        repo_id=space.id,
        message=message,
        branch=line.name,
        expected_head_commit_id=ours_commit_id,
        merge_parent_id=theirs_commit_id,
        metadata=with_author(inherited_metadata(ours.metadata), author),
        **msgspec.structs.asdict(merged),
    )
    try:
        checkpoint = await client.commit(body)
    except ConflictError as exc:
        if not any(error.get("field") == _EXPECTED for error in exc.errors):
            raise
        now = (await client.get_line(space.id, line.name)).head_commit_id
        moved = await _moved(client, now, ours_commit_id, line.name, run_again)
        moved.status_code, moved.errors = exc.status_code, exc.errors
        raise moved from None
    return await saved(client, space, checkpoint, line.name)
