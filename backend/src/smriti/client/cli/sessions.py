"""`smriti sessions`, `smriti session show|delete`, `smriti mount` and `smriti fork`.

What a Session's next message receives is server state (docs/api.md, "A Session's context lives
on the server"): its base Checkpoint, if any, plus all of its Turns. Mounting a Checkpoint starts
a new Session based on it (from an existing Session: a fork, linked both ways), so every client,
the web app included, sees the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from smriti.client import render_sessions as render
from smriti.client.cli.base import Connection, agent_command, line_option

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.core.schemas import Page
    from smriti.sessions.schemas import Session


@agent_command("sessions")
@click.argument("space")
@click.option("--title", "title", metavar="TEXT", help="Only Sessions whose title contains TEXT (ignoring case).")
@click.option("--forked-from", "forked_from", metavar="ID", help="Only the Sessions continued from this Session.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 200), help="Sessions per page.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Sessions to skip.")
def sessions(
    conn: Connection, space: str, *, title: str | None, forked_from: str | None, limit: int, offset: int
) -> None:
    """List the Sessions of SPACE, newest first: ids, titles, Turns, base, lineage."""
    from smriti.client.sessions import session_id  # noqa: PLC0415

    async def work(client: SmritiClient) -> tuple[Any, Page[Session]]:
        found = await client.resolve_space(space)
        origin = session_id(forked_from) if forked_from is not None else None
        page = await client.list_sessions(found.id, title=title, forked_from=origin, limit=limit, offset=offset)
        return found, page

    found, page = conn.run(work)
    conn.emit(page, lambda: render.sessions(page, found, title=title))


@click.group("session")
def session_group() -> None:
    """One Session: what its next message receives, where its next save starts; delete it."""


@agent_command("show")
@click.argument("session")
def session_show(conn: Connection, session: str) -> None:
    """Show SESSION (its id): its base, the Checkpoint it saved last and on which line, its lineage."""
    from smriti.client.sessions import session_id  # noqa: PLC0415

    shown = conn.run(lambda client: client.get_session(session_id(session)))
    conn.emit(shown, lambda: render.session(shown))


@agent_command("delete")
@click.argument("session")
def session_delete(conn: Connection, session: str) -> None:
    """Delete SESSION (its id) and its Turns. No Checkpoint is touched; Sessions forked from it go on."""
    from smriti.client.sessions import session_id  # noqa: PLC0415

    async def work(client: SmritiClient) -> Session:
        found = await client.get_session(session_id(session))  # what is deleted, for the answer
        await client.delete_session(found.id)
        return found

    deleted = conn.run(work)
    conn.emit(deleted, lambda: render.session_deleted(deleted))


session_group.add_command(session_show)
session_group.add_command(session_delete)


@agent_command("mount")
@click.argument("space")
@click.argument("ref")
@line_option("With a HEAD-relative REF: HEAD is this line's (default: the Space's default line).")
@click.option("--session", "session", metavar="ID", help="Continue this Session of SPACE (a fork, linked both ways).")
@click.option("--title", help="The new Session's title.")
def mount(conn: Connection, space: str, ref: str, *, line: str | None, session: str | None, title: str | None) -> None:
    """Mount Checkpoint REF of SPACE: start a new Session based on it.

    REF is an id, a hash or a unique prefix, or HEAD, HEAD~N, HEAD^. Every message sent in the new
    Session gets that Checkpoint's state plus the Session's own Turns, the same from every client.
    With --session, the new Session continues that one, which is left as it was.
    """
    from smriti.client.sessions import mount as mount_checkpoint  # noqa: PLC0415

    async def work(client: SmritiClient) -> Session:
        return await mount_checkpoint(client, space, ref, line=line, session=session, title=title)

    started = conn.run(work)
    conn.emit(started, lambda: render.mounted(started))


@agent_command("fork")
@click.argument("session")
@click.option(
    "--checkpoint", "checkpoint", required=True, metavar="REF", help="The Checkpoint the new Session is based on."
)
@click.option("--title", help="The new Session's title (default: the original's, with \"(fork)\").")
def fork(conn: Connection, session: str, checkpoint: str, title: str | None) -> None:
    """Continue SESSION (its id) from a Checkpoint in a new Session.

    Every message sent in the new Session gets that Checkpoint's state plus the new Session's
    own Turns. No Turn is copied; the new Session remembers where it was forked from.
    """
    from smriti.client import sessions as verbs  # noqa: PLC0415

    async def work(client: SmritiClient) -> Session:
        return await verbs.fork(client, session, checkpoint, title=title)

    forked = conn.run(work)
    conn.emit(forked, lambda: render.forked(forked))
