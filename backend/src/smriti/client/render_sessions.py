"""Human-readable text about Sessions for the CLI's default output (`--json` prints the API's JSON).

The shared text helpers are `render.py`'s; this module keeps that one under its size."""

from __future__ import annotations

from smriti.client.brief import short, when
from smriti.client.render import aligned, counted, one_line, titled
from smriti.core.schemas import Page
from smriti.sessions.schemas import Session
from smriti.spaces.schemas import Space


def _title(session: Session) -> str:
    return titled(session.title)


def _checkpoint(commit_hash: str | None) -> str:
    """A Checkpoint by its short hash, as `log` names Checkpoints; `-` for none."""
    return short(commit_hash) if commit_hash else "-"


def _origin(session: Session) -> str:
    origin = session.forked_from
    if origin is None:
        return "-"
    return f"{origin.session_id}{' (deleted)' if origin.deleted else ''}"


def sessions(page: Page[Session], space: Space, *, title: str | None = None) -> str:
    matching = f" whose title holds {title!r}" if title else ""
    if not page.items:
        if page.total == 0:
            return f"No Sessions in {one_line(space.name)}{matching}."
        return "No more Sessions."
    rows = [["ID", "TITLE", "TURNS", "BASED ON", "FORKED FROM", "CONTINUED IN", "UPDATED"]]
    for session in page.items:
        rows.append(
            [
                str(session.id),
                _title(session),
                str(session.turn_count),
                _checkpoint(session.base_commit_hash),
                _origin(session),
                str(session.continued_count) if session.continued_count else "-",
                when(session.updated_at),
            ]
        )
    table = aligned(rows)
    shown = f"{page.offset + 1}–{page.offset + len(page.items)} of {page.total}"
    noun = counted(page.total, "Session")
    table.append(f"({shown} Sessions{matching})" if len(page.items) < page.total else f"({noun}{matching})")
    return "\n".join(table)


def session(s: Session) -> str:
    """One Session: what its next message receives, where its next save starts, its lineage."""
    out = [f"Session {s.id} {_title(s)}: {counted(s.turn_count, 'Turn')}, updated {when(s.updated_at)}."]
    if s.base_commit_hash:
        out.append(
            f"Next message receives: Checkpoint {_checkpoint(s.base_commit_hash)} (its base) plus all of its Turns."
        )
    else:
        out.append("Next message receives: all of its Turns, no Checkpoint (mount one: `smriti mount`).")
    if s.last_saved:
        line = f"on line {one_line(s.last_saved.branch)}" if s.last_saved.branch else "on a line that is gone"
        out.append(f"Next save starts from: Checkpoint {short(s.last_saved.commit_hash)}, saved from it last, {line}.")
    else:
        out.append("Next save starts from: its base, else the line's HEAD (nothing was saved from it yet).")
    if s.forked_from:
        gone = " (deleted since)" if s.forked_from.deleted else ""
        out.append(
            f"Forked from: Session {s.forked_from.session_id}{gone}, after its Turn {s.forked_from.sequence_number}."
        )
    if s.continued_count:
        out.append(f"Continued in {counted(s.continued_count, 'Session')}:")
        out += [
            f"  {c.session_id} based on {_checkpoint(c.base_commit_hash)}, {when(c.created_at)}" for c in s.continued_in
        ]
        if s.continued_count > len(s.continued_in):
            out.append(
                f"  … and {s.continued_count - len(s.continued_in)} more (`smriti sessions SPACE --forked-from ID`)."
            )
    return "\n".join(out)


def forked(s: Session) -> str:
    origin = s.forked_from
    where = f" from Turn {origin.sequence_number} of Session {origin.session_id}" if origin else ""
    return (
        f"Forked Session {s.id} “{one_line(s.title)}”{where}, based on Checkpoint "
        f"{_checkpoint(s.base_commit_hash)}: each message sent in it gets that Checkpoint's state plus its own Turns."
    )


def mounted(s: Session) -> str:
    if s.forked_from:
        return forked(s)
    return (
        f"Started Session {s.id} {_title(s)} based on Checkpoint {_checkpoint(s.base_commit_hash)}: each message "
        "sent in it gets that Checkpoint's state plus its own Turns."
    )


def session_deleted(s: Session) -> str:
    return f"Deleted Session {s.id} {_title(s)} and its {counted(s.turn_count, 'Turn')}. No Checkpoint was touched."


def space_deleted(space: Space) -> str:
    return f"Deleted Space {one_line(space.name)} ({space.id}) with its lines, Checkpoints, Sessions and Turns."
