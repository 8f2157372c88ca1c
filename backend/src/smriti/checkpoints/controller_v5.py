"""The Checkpoint operations of API v5: diff, apply (a commit made of changes) and restore."""

from __future__ import annotations

from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from smriti.access.caller import Caller
from smriti.access.scope import require_space
from smriti.checkpoints.diff import CheckpointDiff, diff_checkpoints
from smriti.checkpoints.schemas import ApplyRequest, Checkpoint, RestoreRequest
from smriti.checkpoints.store import CheckpointStore
from smriti.checkpoints.verbs import CheckpointVerbs
from smriti.core.error_docs import error_responses
from smriti.core.errors import BadRequest
from smriti.core.path_params import CheckpointRefPath
from smriti.core.responses import EncodedJSON, checkpoint_location
from smriti.core.routes import WRITES, access


@get(
    "/commits/{from_ref:str}/diff/{to_ref:str}",
    operation_id="diffCheckpoints",
    summary="What changed between two Checkpoints of one Space, per field",
    description="Refs are ids, full hashes or unique hash prefixes. Checkpoints of two Spaces → 400.",
    tags=["Checkpoints"],
    responses=error_responses(404),
)
async def diff_checkpoints_handler(
    from_ref: CheckpointRefPath, to_ref: CheckpointRefPath, checkpoints: NamedDependency[CheckpointStore]
) -> CheckpointDiff:
    before, after = await checkpoints.get(from_ref), await checkpoints.get(to_ref)
    if before.repo_id != after.repo_id:
        raise BadRequest("These Checkpoints belong to two different Spaces; compare within one Space.", field="to_ref")
    return diff_checkpoints(before, after)


@post(
    "/checkpoints/apply",
    operation_id="applyChanges",
    summary="Save a Checkpoint made of its parent's state plus these changes",
    description=(
        "The parent is `parent_commit_id`, else the line's HEAD (`branch`, default: the default line); "
        "a Space with no Checkpoint starts empty. `set` replaces the summary; `add` appends items (an "
        "entity or artifact whose name exists replaces it in place); `remove` and `complete_tasks` name "
        "items by text (entities and artifacts by name). Naming an item the parent does not have, or "
        "adding a text the list already has, is a 400 naming the entry. `metadata` is merged over the "
        "parent's. Same compare-and-swap rules as a commit; without `expected_head_commit_id` or "
        "`parent_commit_id`, the changes are applied to the line's latest HEAD."
    ),
    tags=["Checkpoints"],
    responses=error_responses(403, 404, 409, 413),
    opt=access(WRITES),
)
async def apply_changes_handler(
    data: JSONBody[ApplyRequest], verbs: NamedDependency[CheckpointVerbs], caller: NamedDependency[Caller]
) -> Response[Checkpoint]:
    require_space(data.repo_id)
    saved = await verbs.apply(data, agent=caller.agent)
    return EncodedJSON(saved, headers=(checkpoint_location(saved),))


@post(
    "/commits/{ref:str}/restore",
    operation_id="restoreCheckpoint",
    summary="Save a Checkpoint equal to an older one, on top of a line's HEAD",
    description=(
        "The new Checkpoint's content equals `ref`'s, with `metadata.restored_from` added; its parent is "
        "the line's HEAD (`branch`, default: the default line). Nothing is edited or removed."
    ),
    tags=["Checkpoints"],
    responses=error_responses(403, 404, 409, 413),
    opt=access(WRITES),
)
async def restore_checkpoint(
    ref: CheckpointRefPath,
    data: JSONBody[RestoreRequest],
    verbs: NamedDependency[CheckpointVerbs],
    caller: NamedDependency[Caller],
) -> Response[Checkpoint]:
    saved = await verbs.restore(ref, data, agent=caller.agent)
    return EncodedJSON(saved, headers=(checkpoint_location(saved),))
