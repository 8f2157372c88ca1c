"""The CLI's words for a merge: its preview (the sides, what comes in and goes, each conflict and
rival choice, what to do next) and what committing it saved."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from smriti.checkpoints.schemas import Checkpoint, Entity
from smriti.checkpoints.text import checkbox, entity_text
from smriti.client.brief import short
from smriti.client.render import aligned, change_lines, counted, named, one_line

if TYPE_CHECKING:
    from smriti.client.merging import Merge, Sides
    from smriti.client.verbs import Saved
    from smriti.merges.schemas import ConflictingItem


_FIELD_NAMES = {
    "summary": "Summary",
    "decisions": "Decisions",
    "assumptions": "Assumptions",
    "tasks": "Tasks",
    "open_questions": "Open questions",
    "entities": "Entities",
    "artifacts": "Artifacts",
}
_ARTIFACT_PREVIEW = 60


def _side(field: str, value: str | dict[str, object] | None) -> str:
    """One side's value of a conflicting item, as the listings show that item."""
    if value is None:
        return "(absent)"
    if isinstance(value, str):
        return one_line(value) or "(empty)"
    text = {key: str(item) if item is not None else None for key, item in value.items()}
    if field == "tasks":
        return f"{checkbox(value.get('done') is True)} {one_line(text.get('text') or '')}"
    if field == "entities":
        entity = Entity(name=text.get("name") or "", kind=text.get("kind"), description=text.get("description"))
        return one_line(entity_text(entity))
    if field == "artifacts":
        content = text.get("content") or ""
        head = one_line(content)[:_ARTIFACT_PREVIEW]
        more = "…" if len(one_line(content)) > _ARTIFACT_PREVIEW else ""
        return f"{one_line(text.get('name') or '')}  {text.get('media_type')}  {len(content)} characters: {head}{more}"
    return json.dumps(value, ensure_ascii=False)


def conflict_lines(conflict: ConflictingItem, *, ours: str, theirs: str) -> list[str]:
    title = _FIELD_NAMES.get(conflict.field, conflict.field)
    if conflict.key is not None:
        title += f" “{one_line(conflict.key)}”"
    if conflict.occurrence:
        title += f" (occurrence {conflict.occurrence + 1} of that text)"
    rows = [
        ["base", _side(conflict.field, conflict.base)],
        [f"ours ({ours})", _side(conflict.field, conflict.ours)],
        [f"theirs ({theirs})", _side(conflict.field, conflict.theirs)],
    ]
    return [title, *(f"  {row}" for row in aligned(rows))]


def merge_preview(merge: Merge, sides: Sides, from_ref: str, next_step: str) -> str:
    """A merge preview for a person: the sides, what comes in and goes, each conflict, what to do next."""
    result, line, theirs = merge.preview, one_line(merge.line.name), one_line(from_ref)
    out = [f"Merge {theirs} ({named(sides.theirs)}) into {line} ({named(sides.ours)}) in {one_line(merge.space.name)}."]
    if result.relation == "up_to_date":
        out.append(f"Already up to date: {theirs} is in {line}'s history, so nothing comes in.")
        return "\n".join(out)
    if sides.base is None:
        out.append("No common ancestor: everything on either side is an addition.")
    else:
        base = f"Base: {named(sides.base)}, the nearest common ancestor"
        others = result.base_candidates[1:]
        if others:
            also = ", ".join(str(each) for each in others)
            base += f" (the newest of {len(result.base_candidates)}, in a criss-cross history; also {also})"
        out.append(base + ".")
    if result.relation == "fast_forward":
        out.append(f"{line} is in {theirs}'s history: the merge takes {theirs}'s state.")
    body = change_lines(sides.changes)
    if body:
        out += ["", f"What the merge changes on {line} (+ comes in, - goes, ~ changes):", *body]
    else:
        out += ["", f"The merge changes nothing on {line}."]
    if result.conflicts:
        count = counted(len(result.conflicts), "conflict")
        out += ["", f"{count}: the merge keeps {line}'s side of each until a person chooses."]
        for conflict in result.conflicts:
            out += conflict_lines(conflict, ours=line, theirs=theirs)
    if result.rivals:
        count = counted(len(result.rivals), "pair")
        out += ["", f"{count} of rival choices, no conflict: each line decided differently and the merge keeps both."]
        for rival in result.rivals:
            first, second = (one_line(getattr(result.merged, ref.field)[ref.index]) for ref in rival.refs)
            out.append(f"  “{first}” and “{second}” ({_RIVAL_KINDS[rival.kind]})")
        out += [*(f"  {limit}" for limit in result.limits), "Settle them on a line first, or keep one after."]
    return "\n".join([*out, "", next_step])


_RIVAL_KINDS = {
    "negation": "one says not to",
    "ruled_out": "one rules out the other",
    "same_slot": "two values for one choice",
}
"""What each kind of rival choice means, as the web app says it."""


def merge_saved(result: Saved, from_ref: str, theirs: Checkpoint) -> str:
    """What committing a merge wrote, and what it changed on the line."""
    cp, line = result.checkpoint, one_line(result.line)
    parent = short(result.parent_hash) if result.parent_hash else "none"
    out = [
        f"Merged {one_line(from_ref)} into {line}: saved Checkpoint {named(cp)} in {one_line(result.space.name)}, "
        f"with parents {parent} ({line}'s previous HEAD) and {short(theirs.commit_hash)} (merged in). "
        f"The HEAD of {line} is now {short(cp.commit_hash)}."
    ]
    body = change_lines(result.changes) if result.changes is not None else []
    out += [f"Changes on {line}:", *body] if body else [f"The state of {line} is unchanged."]
    return "\n".join(out)
