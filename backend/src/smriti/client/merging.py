"""Merging one line into another, for both agent transports: the preview, and the merge Checkpoint.

The server computes the merge (`GET /v5/repos/{id}/merge`, docs/merge.md) and saves nothing. What
it cannot settle, an item both lines changed differently, is a conflict for a person: `merged`
holds the line's own side of it until someone chooses. The merge Checkpoint is then an ordinary
commit of the whole resolved state on the line merged into, with `merge_parent_id` = theirs and
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
from smriti.client.operations import describe_invalid, inherited_metadata, with_author
from smriti.client.verbs import Saved, line_of, saved
from smriti.client.wire import Line, MergePreview, MergeState
from smriti.spaces.schemas import Space

_EXPECTED = "expected_head_commit_id"


class ResolvedState(MergeState, kw_only=True, forbid_unknown_fields=True):
    """A merged state handed back by a person or an agent: every field, and nothing else."""


class Resolution(msgspec.Struct, kw_only=True):
    """What committing a merge needs from a preview (`smriti merge --json`, with `merged` edited).
    Its other fields (`conflicts`, `base_commit_id`, …) are read by people, not here."""

    ours_commit_id: UUID
    theirs_commit_id: UUID
    merged: ResolvedState
    relation: str | None = None


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


def resolution_from(data: object, *, source: str) -> Resolution:
    """Decoded JSON as a `Resolution`; `InvalidInput` names the field that is wrong or missing."""
    if not isinstance(data, dict):
        raise InvalidInput(
            f"{source} must hold a merge preview as a JSON object (from `--json`), with `merged` edited."
        )
    try:
        return msgspec.convert(data, Resolution)
    except msgspec.ValidationError as exc:
        raise InvalidInput(
            f"Invalid merge resolution in {source}: {describe_invalid(exc)}. It is the preview's JSON with `merged` "
            "edited: the whole state, every field of it."
        ) from None


def resolved(merged: MergeState) -> ResolvedState:
    return ResolvedState(**msgspec.structs.asdict(merged))


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
        # Named by short hash, as everywhere else the CLI names a Checkpoint.
        moved_to = short((await client.get_checkpoint(str(now))).commit_hash) if now else "empty"
        previewed = short((await client.get_checkpoint(str(ours_commit_id))).commit_hash)
        raise ConflictError(
            f"Line {line.name!r} has moved since the merge was previewed: its HEAD is {moved_to}, not "
            f"{previewed}. Nothing was written. {run_again}",
            status_code=exc.status_code,
            errors=exc.errors,
        ) from None
    return await saved(client, space, checkpoint, line.name)
