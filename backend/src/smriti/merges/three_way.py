"""The three-way merge of two lines' state, field by field and item by item (docs/merge.md, "The rules").

Pure: no I/O and no database. The endpoint finds the base and the two sides, turns each into a
`MergeState` with `state_of` and asks `merge_states` for the merged state and its conflicts.

Within a list every item is keyed by its text (tasks) or name (entities, artifacts), or is its own
text (decisions, assumptions, open questions), and by its occurrence: the same key twice in one
list is two items, (key, 0) and (key, 1), so a duplicate is never merged away.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import msgspec

from smriti.checkpoints.hashing import CONTENT_FIELDS
from smriti.checkpoints.schemas import Artifact, Checkpoint, CheckpointContent, Entity, Task
from smriti.merges.schemas import MergeState

MERGE_FIELDS: tuple[str, ...] = tuple(name for name in CONTENT_FIELDS if name not in {"message", "metadata"})
"""The fields a merge covers, in the order its conflicts are listed. `message` and `metadata` are
not merged: the merge Checkpoint has its own."""

Item = TypeVar("Item", str, Task, Entity, Artifact)
V = TypeVar("V")
Key = tuple[str, int]
"""An item's identity within its list: its text or name, and how many items before it had that."""


class MergeConflict(msgspec.Struct, kw_only=True):
    """One place where the two sides disagree; `None` for a side means the item is absent there."""

    field: str
    key: str | None
    """The item's text (tasks: `text`; entities and artifacts: `name`); `None` for the summary."""
    occurrence: int = 0
    """0 for the first item with this key in its list, 1 for the second, and so on."""
    base: str | Task | Entity | Artifact | None
    ours: str | Task | Entity | Artifact | None
    theirs: str | Task | Entity | Artifact | None


class MergeOutcome(msgspec.Struct, kw_only=True):
    merged: MergeState
    """Every clean key resolved; every conflict keeps ours' value (absent if ours is absent)."""
    conflicts: list[MergeConflict]
    """In MERGE_FIELDS order, then by position: ours' order, then theirs' additions in theirs' order."""


def state_of(content: CheckpointContent | Checkpoint | None) -> MergeState:
    """The merged fields of a Checkpoint; `None` (no common ancestor) is the empty state."""
    if content is None:
        return MergeState()
    # Copies of the lists, so that nothing the merge hands back aliases the caller's Checkpoint.
    return MergeState(
        summary=content.summary,
        decisions=list(content.decisions),
        assumptions=list(content.assumptions),
        tasks=list(content.tasks),
        open_questions=list(content.open_questions),
        entities=list(content.entities),
        artifacts=list(content.artifacts),
    )


def merge_states(base: MergeState, ours: MergeState, theirs: MergeState) -> MergeOutcome:
    """Merge ours and theirs against their base. Never picks a winner: disagreements are conflicts."""
    conflicts: list[MergeConflict] = []
    # The fields are merged one after the other in MERGE_FIELDS order, which is the order of `conflicts`.
    summary, conflicted = _choose(base.summary, ours.summary, theirs.summary)
    if conflicted:
        conflicts.append(
            MergeConflict(field="summary", key=None, base=base.summary, ours=ours.summary, theirs=theirs.summary)
        )
    decisions = _merge_list("decisions", (base.decisions, ours.decisions, theirs.decisions), _own_text, conflicts)
    assumptions = _merge_list(
        "assumptions", (base.assumptions, ours.assumptions, theirs.assumptions), _own_text, conflicts
    )
    tasks = _merge_list("tasks", (base.tasks, ours.tasks, theirs.tasks), _task_text, conflicts)
    open_questions = _merge_list(
        "open_questions", (base.open_questions, ours.open_questions, theirs.open_questions), _own_text, conflicts
    )
    entities = _merge_list("entities", (base.entities, ours.entities, theirs.entities), _name, conflicts)
    artifacts = _merge_list("artifacts", (base.artifacts, ours.artifacts, theirs.artifacts), _name, conflicts)
    merged = MergeState(
        summary=summary,
        decisions=decisions,
        assumptions=assumptions,
        tasks=tasks,
        open_questions=open_questions,
        entities=entities,
        artifacts=artifacts,
    )
    return MergeOutcome(merged=merged, conflicts=conflicts)


def _own_text(item: str) -> str:
    return item


def _task_text(item: Task) -> str:
    return item.text


def _name(item: Entity | Artifact) -> str:
    return item.name


def _choose(b: V, o: V, t: V) -> tuple[V, bool]:
    """One key's merged value, and whether it is a conflict (then ours is kept until a person chooses).

    A task's key is its text, so comparing whole Tasks compares `done`; entities and artifacts are
    compared whole on purpose. A string item's value is its key or absent: with only two possible
    values two of the three sides always agree, so string lists never conflict.
    """
    if o == t:
        return o, False
    if o == b:
        return t, False
    if t == b:
        return o, False
    return o, True


def _index(items: Sequence[Item], key: Callable[[Item], str]) -> dict[Key, Item]:
    """The items by (key, occurrence), in list order (dicts keep insertion order)."""
    index: dict[Key, Item] = {}
    seen: dict[str, int] = {}
    for item in items:
        k = key(item)
        occurrence = seen.get(k, 0)
        seen[k] = occurrence + 1
        index[k, occurrence] = item
    return index


def _merge_list(
    field: str,
    sides: tuple[list[Item], list[Item], list[Item]],
    key: Callable[[Item], str],
    conflicts: list[MergeConflict],
) -> list[Item]:
    """One list field, given as (base, ours, theirs): ours' items in ours' order, then theirs' additions."""
    base, ours, theirs = sides
    # A side that left the field as the base had it agrees with the base on every key, so every key
    # takes the other side's value and there is no conflict: the rule then keeps the other side's
    # order too, which only a whole-list comparison can see (a reordering changes no key's value).
    if ours == base:
        return list(theirs)
    if theirs == base:
        return list(ours)
    base_items = _index(base, key)
    ours_items = _index(ours, key)
    theirs_items = _index(theirs, key)
    # A key only the base has was removed on both sides (the same change, taken once): it is left out.
    keys: list[Key] = list(ours_items)
    keys.extend(k for k in theirs_items if k not in ours_items)
    merged: list[Item] = []
    for k in keys:
        b, o, t = base_items.get(k), ours_items.get(k), theirs_items.get(k)
        value, conflicted = _choose(b, o, t)
        if conflicted:
            conflicts.append(MergeConflict(field=field, key=k[0], occurrence=k[1], base=b, ours=o, theirs=t))
        if value is not None:  # absent: removed on one side and unchanged on the other, or kept absent
            merged.append(value)
    return merged
