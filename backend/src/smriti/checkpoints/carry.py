"""Carrying state forward: a new Checkpoint made of its parent's state plus named changes.

A Checkpoint is a whole snapshot, so a client that sent only what changed to `commit` would
silently drop everything else. `apply` starts from the parent (the line's HEAD by default) and
changes only what it is told to: items are named by their text (entities and artifacts by
name), and naming one the parent does not have, or adding one it already has, is refused with
the offending entry named: nothing is dropped or doubled by accident.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from smriti.checkpoints.hashing import check_content_text
from smriti.checkpoints.schemas import ApplyRequest, Checkpoint, CheckpointContent, Task
from smriti.core.errors import BadRequest

T = TypeVar("T")

_TEXT_LISTS = ("decisions", "assumptions", "open_questions")

PROVENANCE_KEYS = frozenset({"source", "author", "claimed_author", "drafted_by", "restored_from"})
"""The metadata keys Smriti itself records about how one Checkpoint was made (docs/api.md, "Checkpoints").
They describe that Checkpoint only, so one made from it by `apply` does not inherit them: a
commit after a restore is not itself a restore. (A restore copies them: it is that state again.)"""


def _inherited(metadata: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in metadata.items() if key not in PROVENANCE_KEYS}


def _key(text: str) -> str:
    return text.strip()


def _remove(items: list[T], names: Sequence[str], key: Callable[[T], str], field: str) -> list[T]:
    wanted: dict[str, int] = {}
    for index, name in enumerate(names):
        if _key(name) in wanted:
            raise BadRequest(f"{field}[{index}] names {name!r} twice.", field=f"{field}[{index}]")
        wanted[_key(name)] = index
    present = {_key(key(item)) for item in items}
    for name, index in wanted.items():
        if name not in present:
            raise BadRequest(f"{field}[{index}]: the parent has no item {name!r} to remove.", field=f"{field}[{index}]")
    return [item for item in items if _key(key(item)) not in wanted]


def _add_texts(items: list[str], added: Sequence[str], field: str) -> list[str]:
    result = list(items)
    present = {_key(item) for item in result}
    for index, text in enumerate(added):
        if _key(text) in present:
            raise BadRequest(
                f"{field}[{index}]: {text!r} is already in the list; nothing was written.", field=f"{field}[{index}]"
            )
        present.add(_key(text))
        result.append(text)
    return result


def _add_named(items: list[T], added: Sequence[T], name: Callable[[T], str], field: str) -> list[T]:
    """Entities and artifacts: one whose name exists replaces it in place; others go at the end."""
    result = list(items)
    positions = {_key(name(item)): position for position, item in enumerate(result)}
    seen: set[str] = set()
    for index, item in enumerate(added):
        key = _key(name(item))
        if key in seen:
            raise BadRequest(f"{field}[{index}] names {name(item)!r} twice.", field=f"{field}[{index}]")
        seen.add(key)
        if key in positions:
            result[positions[key]] = item
        else:
            positions[key] = len(result)
            result.append(item)
    return result


def check_request_text(data: ApplyRequest) -> None:
    """The text rules of a Checkpoint (`hashing.check_content_text`) on what the request adds,
    naming the entry as the request spells it (`add.decisions[0]`), not its place once merged."""
    add = data.add
    check_content_text(
        CheckpointContent(
            message=data.message,
            summary=data.set_.summary if isinstance(data.set_.summary, str) else "",
            metadata={},
        )
    )
    try:
        check_content_text(
            CheckpointContent(
                message="-",
                decisions=add.decisions,
                assumptions=add.assumptions,
                open_questions=add.open_questions,
                tasks=add.tasks,
                entities=add.entities,
                artifacts=add.artifacts,
            )
        )
    except BadRequest as exc:
        field = f"add.{exc.errors[0].field}" if exc.errors else "add"
        detail = exc.detail.replace("Invalid request. ", "Invalid request. add.", 1)
        raise BadRequest(detail, field=field) from None


def apply_changes(parent: Checkpoint | None, data: ApplyRequest) -> CheckpointContent:
    """The parent's content with `data`'s changes; 400 naming the first entry that cannot apply."""
    remove, add = data.remove, data.add
    lists: dict[str, Any] = {}
    for name in _TEXT_LISTS:
        items: list[str] = list(getattr(parent, name)) if parent else []
        kept = _remove(items, getattr(remove, name), _key, f"remove.{name}")
        lists[name] = _add_texts(kept, getattr(add, name), f"add.{name}")
    tasks = _remove(list(parent.tasks) if parent else [], remove.tasks, lambda t: t.text, "remove.tasks")
    by_text = {_key(task.text): position for position, task in enumerate(tasks)}
    for index, text in enumerate(data.complete_tasks):
        position = by_text.get(_key(text))
        if position is None:
            raise BadRequest(
                f"complete_tasks[{index}]: there is no task {text!r} to complete.", field=f"complete_tasks[{index}]"
            )
        tasks[position] = Task(text=tasks[position].text, done=True)
    present = set(by_text)
    for index, task in enumerate(add.tasks):
        if _key(task.text) in present:
            raise BadRequest(
                f"add.tasks[{index}]: the task {task.text!r} is already in the list; nothing was written.",
                field=f"add.tasks[{index}]",
            )
        present.add(_key(task.text))
        tasks.append(task)
    entities = _remove(list(parent.entities) if parent else [], remove.entities, lambda e: e.name, "remove.entities")
    artifacts = _remove(
        list(parent.artifacts) if parent else [], remove.artifacts, lambda a: a.name, "remove.artifacts"
    )
    summary = parent.summary if parent else ""
    if isinstance(data.set_.summary, str):
        summary = data.set_.summary
    return CheckpointContent(
        message=data.message,
        summary=summary,
        tasks=tasks,
        entities=_add_named(entities, add.entities, lambda e: e.name, "add.entities"),
        artifacts=_add_named(artifacts, add.artifacts, lambda a: a.name, "add.artifacts"),
        metadata={**(_inherited(parent.metadata) if parent else {}), **data.metadata},
        **lists,
    )


def restored_content(source: Checkpoint, message: str | None) -> CheckpointContent:
    """A Checkpoint's content again, metadata included: equal to the source's but for
    `restored_from`, which says where it came from (docs/api.md, "Carrying state forward and
    restoring")."""
    return CheckpointContent(
        message=message or f"Restore {source.commit_hash[:7]}: {source.message}",
        summary=source.summary,
        decisions=list(source.decisions),
        assumptions=list(source.assumptions),
        tasks=list(source.tasks),
        open_questions=list(source.open_questions),
        entities=list(source.entities),
        artifacts=list(source.artifacts),
        metadata={
            **source.metadata,
            "restored_from": {"commit_id": str(source.id), "commit_hash": source.commit_hash},
        },
    )
