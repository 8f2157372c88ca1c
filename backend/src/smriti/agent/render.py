"""Human-readable text for the CLI's default output (`--json` prints the API's own JSON instead)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from smriti.agent.brief import author_of, short, when
from smriti.checkpoints.diff import CheckpointDiff, ListChange, TextChange
from smriti.checkpoints.schemas import Checkpoint, VerifyReport
from smriti.review.schemas import ReviewResult
from smriti.schemas import Page
from smriti.spaces.schemas import Space


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


def checkpoint(cp: Checkpoint, *, space: Space | None = None, is_head: bool = False) -> str:
    title = f"Checkpoint {short(cp.commit_hash)}  {_one_line(cp.message)}" + ("  (HEAD)" if is_head else "")
    meta = [
        ["Space", f"{_one_line(space.name)} ({space.id})" if space else str(cp.repo_id)],
        ["Id", str(cp.id)],
        ["Hash", cp.commit_hash],
        ["Parent", str(cp.parent_commit_id) if cp.parent_commit_id else "none (first Checkpoint of its line)"],
        ["Saved", when(cp.created_at) + (f" by {author_of(cp)}" if author_of(cp) else "")],
    ]
    lines = [title, *_table(meta), ""]
    if cp.summary.strip():
        lines += ["Summary", _indented(cp.summary), ""]
    sections: list[tuple[str, Iterable[str]]] = [
        ("Decisions", (f"- {d}" for d in cp.decisions)),
        ("Assumptions", (f"- {a}" for a in cp.assumptions)),
        ("Tasks", (f"[{'x' if t.done else ' '}] {t.text}" for t in cp.tasks)),
        ("Open questions", (f"- {q}" for q in cp.open_questions)),
        (
            "Entities",
            (
                f"- {e.name}" + (f" ({e.kind})" if e.kind else "") + (f": {e.description}" if e.description else "")
                for e in cp.entities
            ),
        ),
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


def log(page: Page[Checkpoint], space: Space) -> str:
    if not page.items:
        return f"{_one_line(space.name)} has no Checkpoints yet." if page.total == 0 else "No more Checkpoints."
    rows = []
    for cp in page.items:
        by = author_of(cp) or ""
        mark = "HEAD" if cp.id == space.head_commit_id else ""
        rows.append([short(cp.commit_hash), when(cp.created_at), _one_line(cp.message), by, mark])
    lines = _table(rows)
    if len(page.items) < page.total:
        lines.append(f"({page.offset + 1}–{page.offset + len(page.items)} of {page.total}; see --limit and --offset)")
    return "\n".join(lines)


def committed(cp: Checkpoint, space: Space) -> str:
    parent = f"its parent is {cp.parent_commit_id}" if cp.parent_commit_id else "it has no parent"
    return (
        f"Saved Checkpoint {short(cp.commit_hash)} “{_one_line(cp.message)}” in {_one_line(space.name)} "
        f"({parent}). HEAD is now {cp.id}."
    )


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
    lines = [head]
    lines += _text_change("Message", result.message)
    lines += _text_change("Summary", result.summary)
    lines += _list_change("Decisions", result.decisions)
    lines += _list_change("Assumptions", result.assumptions)
    lines += _list_change("Open questions", result.open_questions)
    tasks = [f"  + [{'x' if t.done else ' '}] {_one_line(t.text)}" for t in result.tasks.added]
    tasks += [f"  - [{'x' if t.done else ' '}] {_one_line(t.text)}" for t in result.tasks.removed]
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
    if result.metadata_changed:
        lines.append("Metadata changed")
    return "\n".join(lines)


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
