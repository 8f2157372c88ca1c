"""Human-readable text for the CLI's default output (`--json` prints the API's own JSON instead)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

import msgspec

from smriti.checkpoints.diff import CheckpointDiff, ListChange, TextChange
from smriti.checkpoints.schemas import Checkpoint, VerifyReport
from smriti.checkpoints.text import checkbox, entity_text
from smriti.client.brief import author_of, short, when
from smriti.core.schemas import Page
from smriti.lines.schemas import Line
from smriti.review.schemas import ReviewResult
from smriti.search.schemas import SearchPage
from smriti.spaces.schemas import Space
from smriti.transcripts.schemas import ConversationImportResult

if TYPE_CHECKING:
    from smriti.client.verbs import Saved


def one_line(text: str) -> str:
    return " ".join(text.split())


def titled(title: str) -> str:
    """A Session's title in quotes, as every listing shows it."""
    return f"“{one_line(title)}”" if title.strip() else "(untitled)"


def indented(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line for line in text.strip().splitlines())


def counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]


def spaces(page: Page[Space]) -> str:
    if not page.items:
        return "No Spaces yet. Create one with `smriti space create NAME`." if page.total == 0 else "No more Spaces."
    rows = [["NAME", "HEAD", "UPDATED", "ID"]]
    for space in page.items:
        head = (
            f"{short(space.head_commit_hash)} {one_line(space.head_message or '')}" if space.head_commit_hash else "-"
        )
        rows.append([one_line(space.name), head, when(space.updated_at), str(space.id)])
    lines = aligned(rows)
    shown = f"{page.offset + 1}–{page.offset + len(page.items)} of {page.total}"
    lines.append(f"({shown} Spaces)" if len(page.items) < page.total else f"({counted(page.total, 'Space')})")
    return "\n".join(lines)


def space_created(space: Space) -> str:
    return f"Created Space {one_line(space.name)} ({space.id})."


def checkpoint(
    cp: Checkpoint,
    *,
    space: Space | None = None,
    is_head: bool = False,
    line: str | None = None,
    parents: Sequence[Checkpoint] = (),
) -> str:
    """`parents`: the Checkpoints of `parent_commit_id` and `merge_parent_id`, where they were read."""
    mark = (f"  (HEAD of line {one_line(line)})" if line else "  (HEAD)") if is_head else ""
    title = f"Checkpoint {short(cp.commit_hash)}  {one_line(cp.message)}{mark}"
    by_id = {parent.id: parent for parent in parents}
    first = by_id.get(cp.parent_commit_id) if cp.parent_commit_id else None
    parent = named(first) if first else str(cp.parent_commit_id or "none (first Checkpoint of its line)")
    meta = [
        ["Space", f"{one_line(space.name)} ({space.id})" if space else str(cp.repo_id)],
        ["Id", str(cp.id)],
        ["Hash", cp.commit_hash],
        ["Parent", parent],
    ]
    if cp.merge_parent_id is not None:
        merged = by_id.get(cp.merge_parent_id)
        meta.append(["Merged in", named(merged) if merged else str(cp.merge_parent_id)])
    meta.append(["Saved", when(cp.created_at) + (f" by {author_of(cp)}" if author_of(cp) else "")])
    lines = [title, *aligned(meta), ""]
    if cp.summary.strip():
        lines += ["Summary", indented(cp.summary), ""]
    sections: list[tuple[str, Iterable[str]]] = [
        ("Decisions", (f"- {d}" for d in cp.decisions)),
        ("Assumptions", (f"- {a}" for a in cp.assumptions)),
        ("Tasks", (f"{checkbox(t.done)} {t.text}" for t in cp.tasks)),
        ("Open questions", (f"- {q}" for q in cp.open_questions)),
        ("Entities", (f"- {entity_text(e)}" for e in cp.entities)),
        ("Artifacts", (f"- {a.name}  {a.media_type}  {len(a.content)} characters" for a in cp.artifacts)),
    ]
    for name, items in sections:
        body = [indented(item) for item in items]
        if body:
            lines += [name, *body, ""]
    extra = {key: value for key, value in cp.metadata.items() if key != "author"}
    if extra:
        lines += ["Metadata", indented(json.dumps(extra, indent=2, ensure_ascii=False)), ""]
    return "\n".join(lines).rstrip()


def _head_marks(space: Space, lines: Sequence[Line]) -> dict[str, list[str]]:
    """Per Checkpoint id: `HEAD` for the Space's HEAD, `line NAME` for the HEAD of any other line."""
    marks: dict[str, list[str]] = {}
    if space.head_commit_id is not None:
        marks[str(space.head_commit_id)] = ["HEAD"]
    for line in lines:
        if line.head_commit_id is not None and not line.is_default:
            marks.setdefault(str(line.head_commit_id), []).append(f"line {one_line(line.name)}")
    return marks


def log(page: Page[Checkpoint], space: Space, *, lines: Sequence[Line] = (), only: str | None = None) -> str:
    if not page.items:
        if page.total == 0:
            return (
                f"Line {one_line(only)} has no Checkpoints yet."
                if only
                else f"{one_line(space.name)} has no Checkpoints yet."
            )
        return "No more Checkpoints."
    marks = _head_marks(space, lines)
    rows = []
    for cp in page.items:
        by = author_of(cp) or ""
        mark = ", ".join(marks.get(str(cp.id), []))
        rows.append([short(cp.commit_hash), when(cp.created_at), one_line(cp.message), by, mark])
    table = aligned(rows)
    if len(page.items) < page.total:
        table.append(f"({page.offset + 1}–{page.offset + len(page.items)} of {page.total}; see --limit and --offset)")
    return "\n".join(table)


def saved(result: Saved, *, restored: str | None = None) -> str:
    """What a commit or a restore wrote, and what it changed against its parent."""
    cp, line = result.checkpoint, one_line(result.line)
    parent = f"its parent is {short(result.parent_hash)}" if result.parent_hash else "it has no parent"
    what = f"Restored {restored} as Checkpoint" if restored else "Saved Checkpoint"
    out = [
        f"{what} {short(cp.commit_hash)} “{one_line(cp.message)}” on line {line} in "
        f"{one_line(result.space.name)} ({parent}). The HEAD of {line} is now {short(cp.commit_hash)}."
    ]
    if result.changes is None:
        out.append(f"It is the first Checkpoint of line {line}.")
    else:
        body = change_lines(result.changes)
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
        marks = ", ".join(m for m, on in (("default", line.is_default), ("protected", line.protected)) if on)
        made_by = f"by agent {one_line(line.created_by.name or '')}" if line.created_by is not None else ""
        rows.append([one_line(line.name), head, when(line.updated_at), ", ".join(p for p in (marks, made_by) if p)])
    table = aligned(rows)
    if len(page.items) < page.total:
        table.append(
            f"({page.offset + 1}–{page.offset + len(page.items)} of {page.total} lines of {one_line(space.name)})"
        )
    return "\n".join(table)


def line_changed(what: str, line: Line, space: Space) -> str:
    head = f"its HEAD is {short(line.head_commit_hash)}" if line.head_commit_hash else "it has no Checkpoint yet"
    default = ", the default line" if line.is_default else ""
    protected = ", protected" if line.protected else ""
    return f"{what}: line {one_line(line.name)} of {one_line(space.name)} ({head}{default}{protected})."


def _text_change(name: str, change: TextChange) -> list[str]:
    if not change.changed:
        return []
    return [name, f"  - {one_line(change.before) or '(empty)'}", f"  + {one_line(change.after) or '(empty)'}"]


def _list_change(name: str, change: ListChange) -> list[str]:
    body = [f"  + {one_line(item)}" for item in change.added] + [f"  - {one_line(item)}" for item in change.removed]
    return [name, *body] if body else []


def _done(done: bool) -> str:
    return "done" if done else "open"


def diff(result: CheckpointDiff, before: str, after: str) -> str:
    head = f"{before} → {after}"
    if result.identical:
        return f"{head}: no differences."
    body = [head, *_text_change("Message", result.message), *change_lines(result)]
    if result.metadata_changed:
        body.append("Metadata changed")
    return "\n".join(body)


def named(cp: Checkpoint) -> str:
    return f"{short(cp.commit_hash)} “{one_line(cp.message)}”"


def change_lines(result: CheckpointDiff) -> list[str]:
    """The state's changes (not the message or the metadata, which every new Checkpoint changes)."""
    lines = _text_change("Summary", result.summary)
    lines += _list_change("Decisions", result.decisions)
    lines += _list_change("Assumptions", result.assumptions)
    lines += _list_change("Open questions", result.open_questions)
    tasks = [f"  + {checkbox(t.done)} {one_line(t.text)}" for t in result.tasks.added]
    tasks += [f"  - {checkbox(t.done)} {one_line(t.text)}" for t in result.tasks.removed]
    tasks += [f"  ~ {one_line(t.text)}: {_done(t.before_done)} → {_done(t.after_done)}" for t in result.tasks.changed]
    lines += ["Tasks", *tasks] if tasks else []
    entities = [f"  + {one_line(e.name)}" for e in result.entities.added]
    entities += [f"  - {one_line(e.name)}" for e in result.entities.removed]
    entities += [f"  ~ {one_line(e.name)}" for e in result.entities.changed]
    lines += ["Entities", *entities] if entities else []
    artifacts = [f"  + {one_line(a.name)} ({a.size} characters)" for a in result.artifacts.added]
    artifacts += [f"  - {one_line(a.name)}" for a in result.artifacts.removed]
    artifacts += [
        f"  ~ {one_line(a.name)}: {a.before_size} → {a.after_size} characters" for a in result.artifacts.changed
    ]
    lines += ["Artifacts", *artifacts] if artifacts else []
    return lines


def review(result: ReviewResult, cp: str) -> str:
    by = f"{result.reviewed_by.provider}/{result.reviewed_by.model}"
    if not result.findings:
        return f"Review of {cp} ({by}): no findings."
    lines = [f"Review of {cp} ({by}): {counted(len(result.findings), 'finding')}"]
    for finding in result.findings:
        refs = ", ".join(f"{ref.field}[{ref.index}]" for ref in finding.refs)
        lines.append(f"- {finding.kind.replace('_', ' ')}: {one_line(finding.detail)}" + (f" ({refs})" if refs else ""))
    return "\n".join(lines)


def verify(report: VerifyReport, space: Space) -> str:
    count = counted(report.checked, "Checkpoint")
    if report.ok:
        return f"OK: {count} of {one_line(space.name)} checked; every hash and parent link matches."
    lines = [f"PROBLEMS in {one_line(space.name)} ({count} checked):"]
    lines += [f"- {p.kind}{f' at {p.commit_id}' if p.commit_id else ''}: {one_line(p.detail)}" for p in report.problems]
    return "\n".join(lines)


def exported(space: Space, target: str, size: int) -> str:
    return f"Exported Space {one_line(space.name)} ({space.id}) to {target}: {size} bytes."


def imported(space: Space) -> str:
    head = f"HEAD {short(space.head_commit_hash)}" if space.head_commit_hash else "no Checkpoint yet"
    return f"Imported Space {one_line(space.name)} ({space.id}), {head}."


def search_hits(page: SearchPage, query: str, names: Mapping[UUID, str]) -> str:
    """One block per hit: where it is (Space, Checkpoint by its short hash as the log shows it, and
    the field, or Turn and its Session), then its snippet with the matched words in [brackets]. An
    item carried forward is one block, its earlier Checkpoints listed after it."""
    if not page.items:
        return f"Nothing matches {one_line(query)!r}." if page.total == 0 else "No more matches."
    # Paging counts matches, each Checkpoint of a carried-forward item once.
    shown = f"{page.offset + 1}-{page.offset + sum(1 + len(hit.earlier) for hit in page.items)}"
    counted = f"{page.total}" if page.total_is_exact else f"more than {page.total}"
    blocks = [f"Matches {shown} of {counted} for {one_line(query)!r}:"]
    for hit in page.items:
        space = one_line(names.get(hit.repo_id, str(hit.repo_id)))
        if hit.kind == "checkpoint":
            where = f"Checkpoint {short(hit.commit_hash or '')}, {hit.field}"
            if hit.earlier:
                hashes = ", ".join(short(older.commit_hash) for older in hit.earlier)
                where += f" (and {len(hit.earlier)} earlier: {hashes})"
        else:
            # A Session has no hash: its id is what `smriti session show` takes.
            where = f"Turn {hit.sequence_number} of Session {titled(hit.session_title or '')} ({hit.session_id})"
        blocks.append(f"{space}: {where}\n  {one_line(marked(hit.snippet, hit.highlights))}")
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
    lines = [f"Imported {len(result.sessions)} {kind} conversation(s) into {one_line(space.name)}:"]
    for s in result.sessions:
        left = ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in msgspec.structs.asdict(s.left_out).items() if n)
        lines.append(
            f"  {s.session_id}  {s.turns:>4} Turns  {one_line(s.title)}" + (f"  (left out: {left})" if left else "")
        )
    if result.skipped:
        lines.append(f"Skipped {len(result.skipped)}:")
        lines += [f"  {one_line(s.title)}: {one_line(s.reason)}" for s in result.skipped]
    return "\n".join(lines)
