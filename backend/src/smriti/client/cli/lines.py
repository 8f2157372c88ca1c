"""`smriti line …` and `smriti restore`: the version-control verbs beyond commit.

A Space's lines (internal name: branches) each have their own HEAD; the default line's HEAD is
the Space's HEAD. Nothing here edits or deletes a Checkpoint: a line is a name for a HEAD, and
`restore` saves a new Checkpoint equal to an older one. (Starting a Session based on a
Checkpoint, `mount` and `fork`, is `sessions.py`'s.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from smriti.client import render
from smriti.client.cli.base import Connection, agent_command, line_option

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.client.verbs import Saved
    from smriti.core.schemas import Page
    from smriti.lines.schemas import Line


@click.group("line")
def line_group() -> None:
    """Lines of a Space: each is a line of Checkpoints with its own HEAD.

    The default line's HEAD is the Space's HEAD; `smriti commit --line NAME` saves on another.
    """


@agent_command("list")
@click.argument("space")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 200), help="Lines per page.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Lines to skip.")
def line_list(conn: Connection, space: str, limit: int, offset: int) -> None:
    """List the lines of SPACE, the default line first, then by name."""

    async def work(client: SmritiClient) -> tuple[Any, Page[Line]]:
        found = await client.resolve_space(space)
        return found, await client.lines(found.id, limit=limit, offset=offset)

    found, page = conn.run(work)
    conn.emit(page, lambda: render.lines(page, found))


@agent_command("create")
@click.argument("space")
@click.argument("name")
@click.option(
    "--from",
    "from_ref",
    metavar="REF",
    help="The Checkpoint the line starts at (id, hash or prefix; default: the Space's HEAD).",
)
def line_create(conn: Connection, space: str, name: str, from_ref: str | None) -> None:
    """Start the line NAME in SPACE at a Checkpoint. No Checkpoint is written."""

    async def work(client: SmritiClient) -> tuple[Any, Line]:
        found = await client.resolve_space(space)
        return found, await client.create_line(found.id, name, from_ref)

    found, line = conn.run(work)
    conn.emit(line, lambda: render.line_changed("Started", line, found))


@agent_command("rename")
@click.argument("space")
@click.argument("old")
@click.argument("new")
def line_rename(conn: Connection, space: str, old: str, new: str) -> None:
    """Rename the line OLD of SPACE to NEW."""
    from smriti.lines.schemas import LineUpdate  # noqa: PLC0415

    async def work(client: SmritiClient) -> tuple[Any, Line]:
        found = await client.resolve_space(space)
        return found, await client.update_line(found.id, old, LineUpdate(name=new))

    found, line = conn.run(work)
    conn.emit(line, lambda: render.line_changed("Renamed to", line, found))


@agent_command("default")
@click.argument("space")
@click.argument("name")
def line_default(conn: Connection, space: str, name: str) -> None:
    """Make NAME the default line of SPACE: its HEAD becomes the Space's HEAD."""
    from smriti.lines.schemas import LineUpdate  # noqa: PLC0415

    async def work(client: SmritiClient) -> tuple[Any, Line]:
        found = await client.resolve_space(space)
        return found, await client.update_line(found.id, name, LineUpdate(is_default=True))

    found, line = conn.run(work)
    conn.emit(line, lambda: render.line_changed("Made the default", line, found))


@agent_command("delete")
@click.argument("space")
@click.argument("name")
def line_delete(conn: Connection, space: str, name: str) -> None:
    """Delete the line NAME of SPACE. Its Checkpoints stay; the default line cannot be deleted (exit 4)."""

    async def work(client: SmritiClient) -> tuple[Any, Line]:
        found = await client.resolve_space(space)
        line = await client.get_line(found.id, name)  # what is deleted, for the answer
        await client.delete_line(found.id, line.name)
        return found, line

    found, line = conn.run(work)
    conn.emit(line, lambda: render.line_changed("Deleted", line, found))


@agent_command("protect")
@click.argument("space")
@click.argument("name")
@click.option("--off", is_flag=True, help="Unprotect it instead.")
def line_protect(conn: Connection, space: str, name: str, off: bool) -> None:
    """Protect the line NAME of SPACE: agents can no longer commit to, restore on, merge into,
    rename, delete or (un)default it, and propose instead (`smriti propose`). The person only
    (an agent key: exit 7)."""
    from smriti.lines.schemas import LineUpdate  # noqa: PLC0415

    async def work(client: SmritiClient) -> tuple[Any, Line]:
        found = await client.resolve_space(space)
        return found, await client.update_line(found.id, name, LineUpdate(protected=not off))

    found, line = conn.run(work)
    conn.emit(line, lambda: render.line_changed("Unprotected" if off else "Protected", line, found))


for _command in (line_list, line_create, line_rename, line_default, line_delete, line_protect):
    line_group.add_command(_command)


@agent_command("restore")
@click.argument("ref")
@line_option("The line to restore on (default: the Space's default line).")
@click.option("--message", "-m", help="The new Checkpoint's message (default: `Restore <hash>: <its message>`).")
@click.option(
    "--expect-head",
    metavar="REF|none",
    help="Only restore if the line's HEAD is still REF (`none`: only if the line has no Checkpoint); else exit 4.",
)
def restore(conn: Connection, ref: str, line: str | None, message: str | None, expect_head: str | None) -> None:
    """Save a new Checkpoint whose state equals REF's, on top of a line's HEAD.

    Nothing is edited or removed: the line moves forward to a copy of the older state, with
    metadata.restored_from naming REF. The output says what changed against the previous HEAD.
    """
    from smriti.client import verbs  # noqa: PLC0415

    async def work(client: SmritiClient) -> Saved:
        return await verbs.restore(client, ref, line=line, message=message, expect_head=expect_head)

    saved = conn.run(work)
    conn.emit(saved.checkpoint, lambda: render.saved(saved, restored=ref))
