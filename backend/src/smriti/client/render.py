"""Human-readable text for the CLI's default output (`--json` prints the API's own JSON instead)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

import msgspec

from smriti.checkpoints.diff import CheckpointDiff, ListChange, TextChange
from smriti.checkpoints.schemas import Checkpoint, Entity, VerifyReport
from smriti.checkpoints.text import checkbox, entity_text
from smriti.client.brief import author_of, short, when
from smriti.client.wire import Line
from smriti.core.schemas import Page
from smriti.review.schemas import ReviewResult
from smriti.search.schemas import SearchPage
from smriti.spaces.schemas import Space
from smriti.transcripts.schemas import ConversationImportResult

if TYPE_CHECKING:
    from smriti.client.merging import Merge, Sides
    from smriti.client.verbs import Saved
    from smriti.client.wire import MergeConflict


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _indented(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line for line in text.strip().splitlines())


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]


def spaces(page: Page[Space]) -> str:
    if not page.items:
        return "No Spaces yet. Create one with `smriti space create NAME`." if page.total == 0 else "No more Spaces."
    rows = [["NAME", "HEAD", "UPDATED", "ID"]]
    for space in page.items:
        head = (
            f"{short(space.head_commit_hash)} {_one_line(space.head_message or '')}" if space.head_commit_hash else "-"
        )
        rows.append([_one_line(space.name), head, when(space.updated_at), str(space.id)])
    lines = _table(rows)
    shown = f"{page.offset + 1}–{page.offset + len(page.items)} of {page.total}"
    lines.append(f"({shown} Spaces)" if len(page.items) < page.total else f"({_count(page.total, 'Space')})")
    return "\n".join(lines)


def space_created(space: Space) -> str:
    return f"Created Space {_one_line(space.name)} ({space.id})."


def checkpoint(
    cp: Checkpoint,
    *,
    space: Space | None = None,
    is_head: bool = False,
    line: str | None = None,
    parents: Sequence[Checkpoint] = (),
) -> str:
    """`parents`: the Checkpoints of `parent_commit_id` and `merge_parent_id`, where they were read."""
    mark = (f"  (HEAD of line {_one_line(line)})" if line else "  (HEAD)") if is_head else ""
    title = f"Checkpoint {short(cp.commit_hash)}  {_one_line(cp.message)}{mark}"
    by_id = {parent.id: parent for parent in parents}
    first = by_id.get(cp.parent_commit_id) if cp.parent_commit_id else None
    parent = _cp(first) if first else str(cp.parent_commit_id or "none (first Checkpoint of its line)")
    meta = [
        ["Space", f"{_one_line(space.name)} ({space.id})" if space else str(cp.repo_id)],
        ["Id", str(cp.id)],
        ["Hash", cp.commit_hash],
        ["Parent", parent],
    ]
    if cp.merge_parent_id is not None:
        merged = by_id.get(cp.merge_parent_id)
        meta.append(["Merged in", _cp(merged) if merged else str(cp.merge_parent_id)])
    meta.append(["Saved", when(cp.created_at) + (f" by {author_of(cp)}" if author_of(cp) else "")])
    lines = [title, *_table(meta), ""]
    if cp.summary.strip():
        lines += ["Summary", _indented(cp.summary), ""]
    sections: list[tuple[str, Iterable[str]]] = [
        ("Decisions", (f"- {d}" for d in cp.decisions)),
        ("Assumptions", (f"- {a}" for a in cp.assumptions)),
        ("Tasks", (f"{checkbox(t.done)} {t.text}" for t in cp.tasks)),
        ("Open questions", (f"- {q}" for q in cp.open_questions)),
        ("Entities", (f"- {entity_text(e)}" for e in cp.entities)),
        ("Artifacts", (f"- {a.name}  {a.media_type}  {len(a.content)} characters" for a in cp.artifacts)),
    ]
    for name, items in sections:
        body = [_indented(item) for item in items]
        if body:
            lines += [name, *body, ""]
    extra = {key: value for key, value in cp.metadata.items() if key != "author"}
    if extra:
        lines += ["Metadata", _indented(json.dumps(extra, indent=2, ensure_ascii=False)), ""]
    return "\n".join(lines).rstrip()


def _head_marks(space: Space, lines: Sequence[Line]) -> dict[str, list[str]]:
    """Per Checkpoint id: `HEAD` for the Space's HEAD, `line NAME` for the HEAD of any other line."""
    marks: dict[str, list[str]] = {}
    if space.head_commit_id is not None:
        marks[str(space.head_commit_id)] = ["HEAD"]
    for line in lines:
        if line.head_commit_id is not None and not line.is_default:
            marks.setdefault(str(line.head_commit_id), []).append(f"line {_one_line(line.name)}")
    return marks


def log(page: Page[Checkpoint], space: Space, *, lines: Sequence[Line] = (), only: str | None = None) -> str:
    if not page.items:
        if page.total == 0:
            return (
                f"Line {_one_line(only)} has no Checkpoints yet."
                if only
                else f"{_one_line(space.name)} has no Checkpoints yet."
            )
        return "No more Checkpoints."
    marks = _head_marks(space, lines)
    rows = []
    for cp in page.items:
        by = author_of(cp) or ""
        mark = ", ".join(marks.get(str(cp.id), []))
        rows.append([short(cp.commit_hash), when(cp.created_at), _one_line(cp.message), by, mark])
    table = _table(rows)
    if len(page.items) < page.total:
        table.append(f"({page.offset + 1}–{page.offset + len(page.items)} of {page.total}; see --limit and --offset)")
    return "\n".join(table)


def saved(result: Saved, *, restored: str | None = None) -> str:
    """What a commit or a restore wrote, and what it changed against its parent."""
    cp, line = result.checkpoint, _one_line(result.line)
    parent = f"its parent is {short(result.parent_hash)}" if result.parent_hash else "it has no parent"
    what = f"Restored {restored} as Checkpoint" if restored else "Saved Checkpoint"
    out = [
        f"{what} {short(cp.commit_hash)} “{_one_line(cp.message)}” on line {line} in "
        f"{_one_line(result.space.name)} ({parent}). The HEAD of {line} is now {short(cp.commit_hash)}."
    ]
    if result.changes is None:
        out.append(f"It is the first Checkpoint of line {line}.")
    else:
        body = _changes(result.changes)
        out += (
            ["Changes against the parent:", *body] if body else ["The state is the parent's; only the message changed."]
        )
    return "\n".join(out)


def lines(page: Page[Line], space: Space) -> str:
    if not page.items:
        return "No more lines."
    rows = [["LINE", "HEAD", "UPDATED", ""]]
    for line in page.items:
        head = short(line.head_commit_hash) if line.head_commit_hash else "- (no Checkpoint yet)"
        rows.append([_one_line(line.name), head, when(line.updated_at), "default" if line.is_default else ""])
    table = _table(rows)
    if len(page.items) < page.total:
        table.append(
            f"({page.offset + 1}–{page.offset + len(page.items)} of {page.total} lines of {_one_line(space.name)})"
        )
    return "\n".join(table)


def line_changed(what: str, line: Line, space: Space) -> str:
    head = f"its HEAD is {short(line.head_commit_hash)}" if line.head_commit_hash else "it has no Checkpoint yet"
    default = ", the default line" if line.is_default else ""
    return f"{what}: line {_one_line(line.name)} of {_one_line(space.name)} ({head}{default})."


def _text_change(name: str, change: TextChange) -> list[str]:
    if not change.changed:
        return []
    return [name, f"  - {_one_line(change.before) or '(empty)'}", f"  + {_one_line(change.after) or '(empty)'}"]


def _list_change(name: str, change: ListChange) -> list[str]:
    body = [f"  + {_one_line(item)}" for item in change.added] + [f"  - {_one_line(item)}" for item in change.removed]
    return [name, *body] if body else []


def _done(done: bool) -> str:
    return "done" if done else "open"


def diff(result: CheckpointDiff, before: str, after: str) -> str:
    head = f"{before} → {after}"
    if result.identical:
        return f"{head}: no differences."
    body = [head, *_text_change("Message", result.message), *_changes(result)]
    if result.metadata_changed:
        body.append("Metadata changed")
    return "\n".join(body)


def _changes(result: CheckpointDiff) -> list[str]:
    """The state's changes (not the message or the metadata, which every new Checkpoint changes)."""
    lines = _text_change("Summary", result.summary)
    lines += _list_change("Decisions", result.decisions)
    lines += _list_change("Assumptions", result.assumptions)
    lines += _list_change("Open questions", result.open_questions)
    tasks = [f"  + {checkbox(t.done)} {_one_line(t.text)}" for t in result.tasks.added]
    tasks += [f"  - {checkbox(t.done)} {_one_line(t.text)}" for t in result.tasks.removed]
    tasks += [f"  ~ {_one_line(t.text)}: {_done(t.before_done)} → {_done(t.after_done)}" for t in result.tasks.changed]
    lines += ["Tasks", *tasks] if tasks else []
    entities = [f"  + {_one_line(e.name)}" for e in result.entities.added]
    entities += [f"  - {_one_line(e.name)}" for e in result.entities.removed]
    entities += [f"  ~ {_one_line(e.name)}" for e in result.entities.changed]
    lines += ["Entities", *entities] if entities else []
    artifacts = [f"  + {_one_line(a.name)} ({a.size} characters)" for a in result.artifacts.added]
    artifacts += [f"  - {_one_line(a.name)}" for a in result.artifacts.removed]
    artifacts += [
        f"  ~ {_one_line(a.name)}: {a.before_size} → {a.after_size} characters" for a in result.artifacts.changed
    ]
    lines += ["Artifacts", *artifacts] if artifacts else []
    return lines


def review(result: ReviewResult, cp: str) -> str:
    by = f"{result.reviewed_by.provider}/{result.reviewed_by.model}"
    if not result.findings:
        return f"Review of {cp} ({by}): no findings."
    lines = [f"Review of {cp} ({by}): {_count(len(result.findings), 'finding')}"]
    for finding in result.findings:
        refs = ", ".join(f"{ref.field}[{ref.index}]" for ref in finding.refs)
        lines.append(
            f"- {finding.kind.replace('_', ' ')}: {_one_line(finding.detail)}" + (f" ({refs})" if refs else "")
        )
    return "\n".join(lines)


def verify(report: VerifyReport, space: Space) -> str:
    count = _count(report.checked, "Checkpoint")
    if report.ok:
        return f"OK: {count} of {_one_line(space.name)} checked; every hash and parent link matches."
    lines = [f"PROBLEMS in {_one_line(space.name)} ({count} checked):"]
    lines += [
        f"- {p.kind}{f' at {p.commit_id}' if p.commit_id else ''}: {_one_line(p.detail)}" for p in report.problems
    ]
    return "\n".join(lines)


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


def _cp(cp: Checkpoint) -> str:
    return f"{short(cp.commit_hash)} “{_one_line(cp.message)}”"


def _side(field: str, value: str | dict[str, object] | None) -> str:
    """One side's value of a conflicting item, as the listings show that item."""
    if value is None:
        return "(absent)"
    if isinstance(value, str):
        return _one_line(value) or "(empty)"
    text = {key: str(item) if item is not None else None for key, item in value.items()}
    if field == "tasks":
        return f"{checkbox(value.get('done') is True)} {_one_line(text.get('text') or '')}"
    if field == "entities":
        entity = Entity(name=text.get("name") or "", kind=text.get("kind"), description=text.get("description"))
        return _one_line(entity_text(entity))
    if field == "artifacts":
        content = text.get("content") or ""
        head = _one_line(content)[:_ARTIFACT_PREVIEW]
        more = "…" if len(_one_line(content)) > _ARTIFACT_PREVIEW else ""
        return f"{_one_line(text.get('name') or '')}  {text.get('media_type')}  {len(content)} characters: {head}{more}"
    return json.dumps(value, ensure_ascii=False)


def _conflict(conflict: MergeConflict, ours: str, theirs: str) -> list[str]:
    title = _FIELD_NAMES.get(conflict.field, conflict.field)
    if conflict.key is not None:
        title += f" “{_one_line(conflict.key)}”"
    if conflict.occurrence:
        title += f" (occurrence {conflict.occurrence + 1} of that text)"
    rows = [
        ["base", _side(conflict.field, conflict.base)],
        [f"ours ({ours})", _side(conflict.field, conflict.ours)],
        [f"theirs ({theirs})", _side(conflict.field, conflict.theirs)],
    ]
    return [title, *(f"  {row}" for row in _table(rows))]


def merge_preview(merge: Merge, sides: Sides, from_ref: str, next_step: str) -> str:
    """A merge preview for a person: the sides, what comes in and goes, each conflict, what to do next."""
    result, line, theirs = merge.preview, _one_line(merge.line.name), _one_line(from_ref)
    out = [f"Merge {theirs} ({_cp(sides.theirs)}) into {line} ({_cp(sides.ours)}) in {_one_line(merge.space.name)}."]
    if result.relation == "up_to_date":
        out.append(f"Already up to date: {theirs} is in {line}'s history, so nothing comes in.")
        return "\n".join(out)
    if sides.base is None:
        out.append("No common ancestor: everything on either side is an addition.")
    else:
        base = f"Base: {_cp(sides.base)}, the nearest common ancestor"
        others = result.base_candidates[1:]
        if others:
            also = ", ".join(str(each) for each in others)
            base += f" (the newest of {len(result.base_candidates)}, in a criss-cross history; also {also})"
        out.append(base + ".")
    if result.relation == "fast_forward":
        out.append(f"{line} is in {theirs}'s history: the merge takes {theirs}'s state.")
    body = _changes(sides.changes)
    if body:
        out += ["", f"What the merge changes on {line} (+ comes in, - goes, ~ changes):", *body]
    else:
        out += ["", f"The merge changes nothing on {line}."]
    if result.conflicts:
        count = _count(len(result.conflicts), "conflict")
        out += ["", f"{count}: the merge keeps {line}'s side of each until a person chooses."]
        for conflict in result.conflicts:
            out += _conflict(conflict, line, theirs)
    if result.rivals:
        count = _count(len(result.rivals), "pair")
        out += ["", f"{count} of rival choices, no conflict: each line decided differently and the merge keeps both."]
        for rival in result.rivals:
            first, second = (_one_line(getattr(result.merged, ref.field)[ref.index]) for ref in rival.refs)
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
    cp, line = result.checkpoint, _one_line(result.line)
    parent = short(result.parent_hash) if result.parent_hash else "none"
    out = [
        f"Merged {_one_line(from_ref)} into {line}: saved Checkpoint {_cp(cp)} in {_one_line(result.space.name)}, "
        f"with parents {parent} ({line}'s previous HEAD) and {short(theirs.commit_hash)} (merged in). "
        f"The HEAD of {line} is now {short(cp.commit_hash)}."
    ]
    body = _changes(result.changes) if result.changes is not None else []
    out += [f"Changes on {line}:", *body] if body else [f"The state of {line} is unchanged."]
    return "\n".join(out)


def exported(space: Space, target: str, size: int) -> str:
    return f"Exported Space {_one_line(space.name)} ({space.id}) to {target}: {size} bytes."


def imported(space: Space) -> str:
    head = f"HEAD {short(space.head_commit_hash)}" if space.head_commit_hash else "no Checkpoint yet"
    return f"Imported Space {_one_line(space.name)} ({space.id}), {head}."


def search_hits(page: SearchPage, query: str, names: Mapping[UUID, str]) -> str:
    """One block per hit: where it is (Space, Checkpoint or Turn, field), then its snippet with
    the matched words in [brackets]."""
    if not page.items:
        return f"Nothing matches {_one_line(query)!r}." if page.total == 0 else "No more matches."
    shown = f"{page.offset + 1}-{page.offset + len(page.items)}"
    counted = f"{page.total}" if page.total_is_exact else f"more than {page.total}"
    blocks = [f"Matches {shown} of {counted} for {_one_line(query)!r}:"]
    for hit in page.items:
        space = _one_line(names.get(hit.repo_id, str(hit.repo_id)))
        where = (
            f"Checkpoint {hit.commit_id}"
            if hit.kind == "checkpoint"
            else f"Turn {hit.sequence_number} of Session {hit.session_id}"
        )
        blocks.append(f"{space}: {where}, {hit.field}\n  {_one_line(marked(hit.snippet, hit.highlights))}")
    return "\n".join(blocks)


def marked(snippet: str, highlights: Sequence[tuple[int, int]]) -> str:
    """The snippet with each highlight in [brackets], for a terminal."""
    out, at = [], 0
    for start, end in highlights:
        out += [snippet[at:start], "[", snippet[start:end], "]"]
        at = end
    return "".join([*out, snippet[at:]])


_EXPORT_NAMES = {"chatgpt": "ChatGPT", "claude": "Claude", "claude_code": "Claude Code", "open_webui": "Open WebUI"}


def imported_conversations(result: ConversationImportResult, space: Space) -> str:
    """What an export became: a line per Session (with what it left out), then each conversation
    skipped and why."""
    kind = _EXPORT_NAMES[result.format]
    lines = [f"Imported {len(result.sessions)} {kind} conversation(s) into {_one_line(space.name)}:"]
    for s in result.sessions:
        left = ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in msgspec.structs.asdict(s.left_out).items() if n)
        lines.append(
            f"  {s.session_id}  {s.turns:>4} Turns  {_one_line(s.title)}" + (f"  (left out: {left})" if left else "")
        )
    if result.skipped:
        lines.append(f"Skipped {len(result.skipped)}:")
        lines += [f"  {_one_line(s.title)}: {_one_line(s.reason)}" for s in result.skipped]
    return "\n".join(lines)
