"""What changed between two Checkpoints of one Space, field by field.

Any two Checkpoints can be compared, not only a parent and its child. Lists of text compare as
multisets (a repeated item counts twice); tasks match by text, entities by name and artifacts by
name, so a changed `done`, description or content shows as a change rather than a remove+add.
"""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import msgspec
import rfc8785

from smriti.checkpoints.schemas import Artifact, Checkpoint, Entity, Task


class TextChange(msgspec.Struct):
    changed: bool
    before: str
    after: str


class ListChange(msgspec.Struct):
    added: list[str]
    removed: list[str]


class TaskDone(msgspec.Struct):
    text: str
    before_done: bool
    after_done: bool


class TaskChange(msgspec.Struct):
    added: list[Task]
    removed: list[Task]
    changed: list[TaskDone]


class EntityEdit(msgspec.Struct):
    name: str
    before: Entity
    after: Entity


class EntityChange(msgspec.Struct):
    added: list[Entity]
    removed: list[Entity]
    changed: list[EntityEdit]


class ArtifactInfo(msgspec.Struct):
    name: str
    media_type: str
    size: int


class ArtifactEdit(msgspec.Struct):
    name: str
    before_size: int
    after_size: int
    media_type_changed: bool


class ArtifactChange(msgspec.Struct):
    added: list[ArtifactInfo]
    removed: list[ArtifactInfo]
    changed: list[ArtifactEdit]


class CheckpointDiff(msgspec.Struct, kw_only=True):
    from_commit_id: UUID
    to_commit_id: UUID
    identical: bool
    message: TextChange
    summary: TextChange
    decisions: ListChange
    assumptions: ListChange
    open_questions: ListChange
    tasks: TaskChange
    entities: EntityChange
    artifacts: ArtifactChange
    metadata_changed: bool


def _minus(items: list[str], other: list[str]) -> list[str]:
    """`items` without one occurrence of each item of `other`, in `items`' order."""
    remaining = Counter(other)
    kept = []
    for item in items:
        if remaining[item] > 0:
            remaining[item] -= 1
        else:
            kept.append(item)
    return kept


def _texts(before: list[str], after: list[str]) -> ListChange:
    return ListChange(added=_minus(after, before), removed=_minus(before, after))


def _tasks(before: list[Task], after: list[Task]) -> TaskChange:
    old = {task.text: task for task in before}
    new = {task.text: task for task in after}
    return TaskChange(
        added=[task for task in after if task.text not in old],
        removed=[task for task in before if task.text not in new],
        changed=[
            TaskDone(text=task.text, before_done=old[task.text].done, after_done=task.done)
            for task in after
            if task.text in old and old[task.text].done != task.done
        ],
    )


def _entities(before: list[Entity], after: list[Entity]) -> EntityChange:
    old = {entity.name.casefold(): entity for entity in before}
    new = {entity.name.casefold(): entity for entity in after}
    return EntityChange(
        added=[e for e in after if e.name.casefold() not in old],
        removed=[e for e in before if e.name.casefold() not in new],
        changed=[
            EntityEdit(name=e.name, before=old[e.name.casefold()], after=e)
            for e in after
            if e.name.casefold() in old and old[e.name.casefold()] != e
        ],
    )


def _info(artifact: Artifact) -> ArtifactInfo:
    return ArtifactInfo(name=artifact.name, media_type=artifact.media_type, size=len(artifact.content))


def _artifacts(before: list[Artifact], after: list[Artifact]) -> ArtifactChange:
    old = {a.name: a for a in before}
    new = {a.name: a for a in after}
    return ArtifactChange(
        added=[_info(a) for a in after if a.name not in old],
        removed=[_info(a) for a in before if a.name not in new],
        changed=[
            ArtifactEdit(
                name=a.name,
                before_size=len(old[a.name].content),
                after_size=len(a.content),
                media_type_changed=old[a.name].media_type != a.media_type,
            )
            for a in after
            if a.name in old and old[a.name] != a
        ],
    )


def diff_checkpoints(before: Checkpoint, after: Checkpoint) -> CheckpointDiff:
    result = CheckpointDiff(
        from_commit_id=before.id,
        to_commit_id=after.id,
        identical=False,
        message=TextChange(before.message != after.message, before.message, after.message),
        summary=TextChange(before.summary != after.summary, before.summary, after.summary),
        decisions=_texts(before.decisions, after.decisions),
        assumptions=_texts(before.assumptions, after.assumptions),
        open_questions=_texts(before.open_questions, after.open_questions),
        tasks=_tasks(before.tasks, after.tasks),
        entities=_entities(before.entities, after.entities),
        artifacts=_artifacts(before.artifacts, after.artifacts),
        metadata_changed=rfc8785.dumps(before.metadata) != rfc8785.dumps(after.metadata),
    )
    lists = (result.decisions, result.assumptions, result.open_questions)
    keyed = (result.tasks, result.entities, result.artifacts)
    result.identical = not (
        result.message.changed
        or result.summary.changed
        or result.metadata_changed
        or any(change.added or change.removed for change in lists)
        or any(change.added or change.removed or change.changed for change in keyed)
    )
    return result
