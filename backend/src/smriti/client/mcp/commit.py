"""The MCP tool that saves a Checkpoint: it starts from the parent's state, so nothing is dropped.

An agent names only what changed (items to add, `remove`, `complete_tasks`, a new `summary`);
everything else is carried forward from the parent, the line's HEAD. `replace` keeps the older
meaning, the whole state given at once. The result is the new Checkpoint with what it changed
against its parent, so the agent sees at once whether that was what it meant.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from smriti.checkpoints.diff import CheckpointDiff
from smriti.checkpoints.schemas import Artifact, Checkpoint, Entity, ItemAdditions, ItemRemovals, Task
from smriti.client import verbs
from smriti.client.errors import InvalidInput
from smriti.client.mcp.base import Args, Call, OptionalLine, Ref, SpaceRef, ToolSpec
from smriti.client.operations import CommitDraft

TaskInput = Annotated[Task | str, msgspec.Meta(description="A task: {text, done}, or just its text for an open task.")]
EntityInput = Annotated[
    Entity | str, msgspec.Meta(description="An entity: {name, kind?, description?}, or just its name.")
]
Names = Annotated[list[str], msgspec.Meta(description="Items of the parent, by their text.")]


class Removals(Args):
    """Items of the parent to leave out of the new Checkpoint, by text (entities and artifacts by name)."""

    decisions: Names = []
    assumptions: Names = []
    open_questions: Names = []
    tasks: Annotated[list[str], msgspec.Meta(description="Tasks of the parent, by their text.")] = []
    entities: Annotated[list[str], msgspec.Meta(description="Entities of the parent, by name.")] = []
    artifacts: Annotated[list[str], msgspec.Meta(description="Artifacts of the parent, by name.")] = []


class CommitArgs(Args):
    """Save a new Checkpoint. Everything but `space` and `message` is optional."""

    space: SpaceRef
    message: Annotated[str, msgspec.Meta(min_length=1, description="What this Checkpoint is, in one line.")]
    summary: Annotated[
        str | None,
        msgspec.Meta(
            description="A new summary: where the work stands, in a few sentences. Omit to keep the parent's."
        ),
    ] = None
    decisions: Annotated[list[str], msgspec.Meta(description="Decisions to add, one per item.")] = []
    assumptions: Annotated[
        list[str], msgspec.Meta(description="Assumptions to add: what the work takes for granted, one per item.")
    ] = []
    tasks: Annotated[list[TaskInput], msgspec.Meta(description="Tasks to add, open or done.")] = []
    open_questions: Annotated[list[str], msgspec.Meta(description="Open questions to add, one per item.")] = []
    entities: Annotated[
        list[EntityInput],
        msgspec.Meta(description="Entities to add; one with the name of an existing entity replaces it."),
    ] = []
    artifacts: Annotated[
        list[Artifact],
        msgspec.Meta(
            description="Text content to add, {name, content, media_type?}; one with the name of an existing "
            "artifact replaces it."
        ),
    ] = []
    remove: Annotated[Removals, msgspec.Meta(description="Items of the parent that no longer hold.")] = msgspec.field(
        default_factory=Removals
    )
    complete_tasks: Annotated[list[str], msgspec.Meta(description="Open tasks of the parent, by text, now done.")] = []
    replace: Annotated[
        bool,
        msgspec.Meta(
            description="Give the whole state instead of changes: the lists and summary are the new Checkpoint's "
            "entire content, and whatever they leave out of the parent's state is dropped. Rarely needed."
        ),
    ] = False
    metadata: Annotated[
        dict[str, Any],
        msgspec.Meta(
            description="Free JSON, merged over the parent's. `author` is filled in as {kind: agent, name} unless "
            "given here."
        ),
    ] = {}
    line: OptionalLine = None
    expected_head: Annotated[
        Ref | None,
        msgspec.Meta(
            description=(
                "Compare-and-swap, three ways. Omitted or null: no check (only when nobody else writes to "
                "this line). The HEAD you built on (its id, hash or prefix): saved only if that is still the "
                'line\'s HEAD. The string "none": saved only if the line has no Checkpoint yet. When the check '
                "fails, nothing is saved and the tool reports a conflict."
            )
        ),
    ] = None
    parent: Annotated[
        Ref | None,
        msgspec.Meta(
            description="The Checkpoint you built on (a ref). It must be the line's HEAD: to continue from an "
            "older Checkpoint, start a new line there with `create_line`. Rarely needed."
        ),
    ] = None
    author: Annotated[str | None, msgspec.Meta(description="Your name as an agent, recorded in metadata.author.")] = (
        None
    )


class SavedCheckpoint(Checkpoint, kw_only=True):
    """A Checkpoint just saved, the line it is on, and what it changed against its parent."""

    line: str
    """The line whose HEAD it now is."""
    changes: CheckpointDiff | None
    """Against the parent; null for the first Checkpoint of a line."""


def saved_checkpoint(saved: verbs.Saved) -> SavedCheckpoint:
    fields = msgspec.structs.asdict(saved.checkpoint)
    return SavedCheckpoint(**fields, line=saved.line, changes=saved.changes)


def _content(args: CommitArgs) -> verbs.Changes | CommitDraft:
    tasks = [Task(text=t) if isinstance(t, str) else t for t in args.tasks]
    entities = [Entity(name=e) if isinstance(e, str) else e for e in args.entities]
    if args.replace:
        removing = msgspec.structs.asdict(args.remove)
        if any(removing.values()) or args.complete_tasks:
            raise InvalidInput(
                "`remove` and `complete_tasks` change the parent's state; with `replace` give the whole new "
                "state instead (leave out what no longer holds)."
            )
        return CommitDraft(
            message=args.message,
            summary=args.summary or "",
            decisions=args.decisions,
            assumptions=args.assumptions,
            tasks=tasks,
            open_questions=args.open_questions,
            entities=entities,
            artifacts=args.artifacts,
            metadata=args.metadata,
        )
    return verbs.Changes(
        summary=args.summary,
        add=ItemAdditions(
            decisions=args.decisions,
            assumptions=args.assumptions,
            open_questions=args.open_questions,
            tasks=tasks,
            entities=entities,
            artifacts=args.artifacts,
        ),
        remove=ItemRemovals(**msgspec.structs.asdict(args.remove)),
        complete_tasks=args.complete_tasks,
        metadata=args.metadata,
    )


async def _commit(call: Call, args: CommitArgs) -> SavedCheckpoint:
    saved = await verbs.save(
        call.client,
        args.space,
        _content(args),
        message=args.message,
        author=call.author(args.author),
        line=args.line,
        expect_head=args.expected_head,
        parent=args.parent,
        via="mcp",
    )
    return saved_checkpoint(saved)


COMMIT_TOOL = ToolSpec(
    "commit_checkpoint",
    "Save a Checkpoint",
    "Save a new Checkpoint on a line of the Space (default: its default line) and move that line's HEAD to it. "
    "It starts from the parent's state (the line's HEAD): give only what changed (items to add, `remove` for "
    "items that no longer hold, `complete_tasks`, a new `summary`); everything else is carried forward, and "
    "the result's `changes` shows what changed against the parent. `replace` gives the whole state instead. "
    "Set `expected_head` to the HEAD you read, so a concurrent save is refused (a conflict) instead of buried.",
    CommitArgs,
    SavedCheckpoint,
    _commit,
    read_only=False,
)
