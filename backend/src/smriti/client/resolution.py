"""A person's resolution of a merge's conflicts: the shape it is written in, and the rule it is held to.

A preview's `merged` holds ours' side of each conflict only as a placeholder (docs/merge.md), so
committing it as it is would keep ours without anyone choosing. The agents' transports therefore
hand a preview out as a `MergeToResolve` (`smriti merge --json`, MCP `preview_merge`): every
conflict carries `choose`, null until a person chooses, and `how_to_resolve` says how. A resolution
is committed (`smriti merge --resolve`, MCP `commit_merge`) only when every conflict of the merge,
run again from the same two Checkpoints, has a choice: one never edited, or whose conflicts were
deleted, is refused with `OpenConflicts`, naming each, and nothing is written.

"ours", "theirs" and "base" put that side's value (or, where that side has no such item, its
absence) in `merged` where the item is; "edited" takes what the person wrote in `merged` for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Literal
from uuid import UUID

import msgspec

from smriti.checkpoints.schemas import Artifact, Entity, Task
from smriti.client.errors import InvalidInput, OpenConflicts
from smriti.client.operations import describe_invalid
from smriti.core.cpu import off_loop
from smriti.merges.schemas import ConflictingItem, ConflictValue, MergePreview, MergeRelation, MergeState
from smriti.review.schemas import RivalChoice

Side = Literal["ours", "theirs", "base"]
Choice = Literal[Side, "edited"]
Item = str | Task | Entity | Artifact

HOW_TO_RESOLVE = (
    'Conflicts are for a person to choose. For each entry of "conflicts", set "choose" to "ours", "theirs" or '
    '"base" to take that side\'s value (a side whose value is null has no such item: choosing it leaves the item '
    'out), or write your own value for the item in "merged" and set "choose" to "edited". Until chosen, "merged" '
    'holds ours for each conflict only as a placeholder: a resolution with any "choose" left null is refused, '
    "and nothing is written."
)
_CLEAN = 'No conflicts: "merged" can be committed as it is.'
_UP_TO_DATE = "Nothing comes in: there is nothing to commit."
_RIVALS = (
    ' But "rivals" lists decisions the two lines made differently, which the merge keeps both of (they are no '
    "conflict): show them to a person before committing."
)
_NAMED = 20
"""How many conflicts a refusal names (then "and N more"), so that its one line stays readable."""
_ITEMS_ON_LOOP = 2_000
"""Above this many items and conflicts, a resolution is checked off the event loop: MCP over HTTP
runs in the API's process, and the work is linear but ~30 us a conflict (as the merge itself,
`merges/service.py`, which runs off the loop past the same size)."""


class ConflictChoice(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A conflict of a preview, and the choice a person made for it. Read back by `field`, `key`
    and `occurrence`: its sides are the preview's, and the merge is run again for them."""

    field: str
    key: str | None
    occurrence: int = 0
    base: ConflictValue = None
    ours: ConflictValue = None
    theirs: ConflictValue = None
    choose: Annotated[
        Choice | None,
        msgspec.Meta(
            description='What the person chose: "ours", "theirs" or "base" takes that side\'s value; "edited" '
            "takes the value written for this item in `merged`. Null until a person chooses."
        ),
    ] = None


def _every_field_required(state: type[MergeState]) -> type[msgspec.Struct]:
    """`state` with no defaults. The server fills a field a merge review leaves out with its empty
    value, but a resolution is saved as the line's new state, where a field left out would drop
    everything in it; derived rather than written out, so a field the server adds is required too."""
    fields = [(field.name, field.type) for field in msgspec.structs.fields(state)]
    strict = msgspec.defstruct(
        "ResolvedState", fields, bases=(state,), kw_only=True, forbid_unknown_fields=True, module=__name__
    )
    strict.__doc__ = (
        "The part of a Checkpoint a merge covers (`merged` in a preview). Every field is required here: a "
        "merged state is a whole state, and a field left out would be dropped from the line."
    )
    return strict


if TYPE_CHECKING:
    ResolvedState = MergeState
else:
    ResolvedState = _every_field_required(MergeState)


class MergeToResolve(msgspec.Struct, kw_only=True):
    """A merge preview as handed to a person to resolve: what to do first, then the conflicts (each
    with `choose`), then the merged state and the Checkpoints it was made from."""

    how_to_resolve: str
    clean: bool
    relation: MergeRelation
    conflicts: list[ConflictChoice]
    merged: ResolvedState
    ours_commit_id: UUID
    theirs_commit_id: UUID
    base_commit_id: UUID | None
    base_candidates: list[UUID]
    rivals: list[RivalChoice] = []
    """Pairs of `merged`'s items that make rival choices and that neither line had together."""


class Resolution(msgspec.Struct, kw_only=True):
    """What committing a merge reads of a `MergeToResolve` a person filled in. Its other fields
    (`how_to_resolve`, `base_commit_id`, …) are for people, not read here."""

    ours_commit_id: UUID
    theirs_commit_id: UUID
    merged: ResolvedState
    conflicts: list[ConflictChoice] = []
    relation: str | None = None


def to_resolve(preview: MergePreview) -> MergeToResolve:
    how = _UP_TO_DATE if preview.relation == "up_to_date" else _CLEAN if preview.clean else HOW_TO_RESOLVE
    return MergeToResolve(
        how_to_resolve=how + (_RIVALS if preview.rivals else ""),
        clean=preview.clean,
        relation=preview.relation,
        conflicts=[ConflictChoice(**msgspec.structs.asdict(conflict)) for conflict in preview.conflicts],
        merged=preview.merged,
        ours_commit_id=preview.ours_commit_id,
        theirs_commit_id=preview.theirs_commit_id,
        base_commit_id=preview.base_commit_id,
        base_candidates=preview.base_candidates,
        rivals=preview.rivals,
    )


def resolution_from(data: object, *, source: str) -> Resolution:
    """Decoded JSON as a `Resolution`; `InvalidInput` names the field that is wrong or missing."""
    if not isinstance(data, dict):
        raise InvalidInput(f"{source} must hold a merge preview as a JSON object (from `--json`), resolved.")
    try:
        return msgspec.convert(data, Resolution)
    except msgspec.ValidationError as exc:
        raise InvalidInput(
            f"Invalid merge resolution in {source}: {describe_invalid(exc)}. It is the preview's JSON with a "
            '"choose" for each conflict; `merged` is the whole state, every field of it.'
        ) from None


def conflict_name(conflict: ConflictingItem | ConflictChoice) -> str:
    """`summary`, `tasks "Book hotel"`, `tasks "Book hotel" (occurrence 1)`: as the file spells it."""
    if conflict.key is None:
        return conflict.field
    key = conflict.key if len(conflict.key) <= 80 else f"{conflict.key[:79]}…"
    nth = f" (occurrence {conflict.occurrence})" if conflict.occurrence else ""
    return f"{conflict.field} {msgspec.json.encode(key).decode()}{nth}"


async def settle(rerun: MergePreview, resolution: Resolution, *, how: str) -> MergeState:
    """`chosen_state`, off the event loop when the merge is large."""
    merged = resolution.merged
    items = sum(len(getattr(merged, field)) for field in merged.__struct_fields__ if field != "summary")
    size = len(rerun.conflicts) + len(resolution.conflicts) + items
    if size <= _ITEMS_ON_LOOP:
        return chosen_state(rerun, resolution, how=how)
    return await off_loop(lambda: chosen_state(rerun, resolution, how=how))


def chosen_state(rerun: MergePreview, resolution: Resolution, *, how: str) -> MergeState:
    """The state a resolution saves: its `merged` with every conflict of `rerun` (the merge run again
    from the resolution's two Checkpoints) resolved as the person chose. `OpenConflicts` while any
    has no choice (`how` says what to do); `InvalidInput` for a choice that is for no conflict of
    this merge, or for a side chosen for an item that was edited in `merged` too."""
    given: dict[tuple[str, str | None, int], tuple[int, ConflictChoice]] = {}
    for index, entry in enumerate(resolution.conflicts):
        identity = (entry.field, entry.key, entry.occurrence)
        if identity in given:
            raise InvalidInput(
                f"conflicts[{given[identity][0]}] and conflicts[{index}] are both {conflict_name(entry)}: "
                "give one choice for it. Nothing was written."
            )
        given[identity] = (index, entry)
    picks: list[tuple[ConflictingItem, Choice]] = []
    unchosen: list[ConflictingItem] = []
    for conflict in rerun.conflicts:
        found = given.pop((conflict.field, conflict.key, conflict.occurrence), None)
        choice = found[1].choose if found is not None else None
        if choice is None:
            unchosen.append(conflict)
        else:
            picks.append((conflict, choice))
    if given:  # what is left is for no conflict of this merge (a key retyped, a conflict made up)
        index, entry = min(given.values(), key=lambda found: found[0])
        raise InvalidInput(
            f"conflicts[{index}] ({conflict_name(entry)}) is not a conflict of this merge, whose conflicts are: "
            f"{_names(rerun.conflicts) or 'none'}. Nothing was written."
        )
    if unchosen:
        count, left = len(rerun.conflicts), len(unchosen)
        which = "The merge's conflict has"
        if count > 1:
            which = f"{left} of the merge's {count} conflicts {'has' if left == 1 else 'have'}"
        raise OpenConflicts(f"{which} no choice: {_names(unchosen)}. Nothing was written. {how}")
    return _apply(resolution.merged, rerun.merged, picks)


def _names(conflicts: Sequence[ConflictingItem]) -> str:
    named = ", ".join(conflict_name(conflict) for conflict in conflicts[:_NAMED])
    return named + (f" and {len(conflicts) - _NAMED} more" if len(conflicts) > _NAMED else "")


def _apply(given: MergeState, previewed: MergeState, picks: Sequence[tuple[ConflictingItem, Choice]]) -> MergeState:
    """`given` with each side chosen put in place ("edited" keeps what `given` holds)."""
    fields = msgspec.structs.asdict(given)
    by_field: dict[str, list[tuple[ConflictingItem, Side]]] = {}
    for conflict, choice in picks:
        if choice != "edited":
            by_field.setdefault(conflict.field, []).append((conflict, choice))
    for field, chosen in by_field.items():
        if field == "summary":
            conflict, choice = chosen[0]
            if given.summary != previewed.summary:
                raise _edited_too(conflict, choice)
            fields["summary"] = _side(conflict, choice) or ""
        else:
            fields[field] = _apply_list(fields[field], getattr(previewed, field), chosen)
    return MergeState(**fields)


def _apply_list(items: list[Item], previewed: list[Item], chosen: list[tuple[ConflictingItem, Side]]) -> list[Item]:
    """One list with its chosen conflicts resolved: the chosen value replaces ours' item in place; an
    item ours did not have goes at the end, as theirs' additions do (the web app does the same)."""
    at, previewed_at = _positions(items), _positions(previewed)
    taken: set[int] = set()
    replaced: dict[int, list[Item]] = {}
    appended: list[Item] = []
    for conflict, choice in chosen:
        key = conflict.key or ""
        here = at.get(key, [])
        # The item is left as the preview had it, or the person's edit and their choice disagree.
        if [items[i] for i in here] != [previewed[i] for i in previewed_at.get(key, [])]:
            raise _edited_too(conflict, choice)
        value = _side(conflict, choice)
        values = [] if value is None else [value]
        ours = _side(conflict, "ours")
        if ours is None:
            appended.extend(values)
            continue
        # `merged` holds ours' item for the conflict: the one of that key equal to it, preferably
        # the `occurrence`-th of the key (only duplicate keys make this a choice).
        equal = [i for i in here if i not in taken and items[i] == ours]
        exact = here[conflict.occurrence] if conflict.occurrence < len(here) else None
        index = exact if exact in equal else (equal[0] if equal else None)
        if index is None:
            raise _edited_too(conflict, choice)
        taken.add(index)
        replaced[index] = values
    merged: list[Item] = []
    for index, item in enumerate(items):
        merged.extend(replaced.get(index, (item,)))
    return merged + appended


def _positions(items: Sequence[Item]) -> dict[str, list[int]]:
    positions: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        positions.setdefault(_key(item), []).append(index)
    return positions


def _key(item: Item) -> str:
    """An item's key in its list (docs/merge.md): its text, a task's text, or a name."""
    if isinstance(item, str):
        return item
    return item.text if isinstance(item, Task) else item.name


_ITEM_TYPES: dict[str, type[Task] | type[Entity] | type[Artifact]] = {
    "tasks": Task,
    "entities": Entity,
    "artifacts": Artifact,
}


def _side(conflict: ConflictingItem, choice: Side) -> Item | None:
    """A side's value as an item of its field (null: that side has no such item)."""
    value = {"ours": conflict.ours, "theirs": conflict.theirs, "base": conflict.base}[choice]
    if value is None or isinstance(value, str):
        return value
    return msgspec.convert(value, _ITEM_TYPES[conflict.field])


def _edited_too(conflict: ConflictingItem, choice: Choice) -> InvalidInput:
    return InvalidInput(
        f'{conflict_name(conflict)}: "choose" is "{choice}", but "merged" was edited there too, so which of the two '
        'is meant cannot be told. Nothing was written. To keep the edit, set "choose" to "edited"; to take '
        f'{choice}, leave "merged" as the preview had it there.'
    )
