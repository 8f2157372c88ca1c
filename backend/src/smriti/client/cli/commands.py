"""The agent commands of `smriti`: read and write a Space's state over the REST API.

Every command prints readable text by default and the API's JSON with `--json` (on stdout, and
nothing else there). Errors are one line on stderr, and the exit code says what happened:

    0 ok · 1 verify found a problem · 2 usage (bad flags, bad JSON, a request the server rejects as invalid)
    3 not found · 4 conflict (HEAD moved, name taken, a parent that is not its line's HEAD) · 5 server or network error
    6 `merge` or `proposal merge` found conflicts for a person to resolve (nothing written)
    7 refused: only the person may (merge a proposal, manage agent keys), or a read-only key wrote

The shared options live in `base`, `commit` in `commit`, the line verbs (`line`, `restore`) in
`lines`, the Session verbs (`sessions`, `session`, `mount`, `fork`) in `sessions`, and `merge` in
`merge`. This module imports only click at the top, so
`smriti --help` stays fast; the HTTP client is loaded when a command runs.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from smriti.client import render
from smriti.client.cli.agents import agent_group
from smriti.client.cli.base import EXIT_CODES, Connection, agent_command, fail, line_option, space_option
from smriti.client.cli.bundles import export, import_, import_conversations
from smriti.client.cli.commit import commit
from smriti.client.cli.lines import line_group, restore
from smriti.client.cli.merge import merge
from smriti.client.cli.proposals import proposal_group, proposals, propose
from smriti.client.cli.search import search
from smriti.client.cli.sessions import fork, mount, session_group, sessions
from smriti.client.cli.watch import watch
from smriti.client.errors import EXIT_FAILED, ClientError, InvalidInput
from smriti.client.refs import resolve_ref

if TYPE_CHECKING:
    from smriti.checkpoints.schemas import Checkpoint
    from smriti.client.api import SmritiClient

__all__ = ["EXIT_CODES", "register"]


@agent_command("spaces")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 200), help="Spaces per page.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Spaces to skip.")
def spaces(conn: Connection, limit: int, offset: int) -> None:
    """List Spaces, most recently changed first."""
    page = conn.run(lambda client: client.list_spaces(limit=limit, offset=offset))
    conn.emit(page, lambda: render.spaces(page))


@click.group("space")
def space_group() -> None:
    """Manage Spaces."""


@agent_command("create")
@click.argument("name")
@click.option("--description", "-d", default="", help="What this line of work is about.")
def space_create(conn: Connection, name: str, description: str) -> None:
    """Create a Space called NAME (names are unique)."""
    space = conn.run(lambda client: client.create_space(name, description))
    conn.emit(space, lambda: render.space_created(space))


@agent_command("delete")
@click.argument("space")
@click.option("--yes", is_flag=True, help="Delete without asking (what a script says; required without a terminal).")
def space_delete(conn: Connection, space: str, yes: bool) -> None:
    """Delete SPACE (a name or an id) with its lines, Checkpoints, Sessions and Turns, for good.

    Asks first, on the terminal; --yes does not ask. Without a terminal to ask on and without
    --yes, nothing is deleted (exit 2), and so when the answer is no."""
    from smriti.client import render_sessions  # noqa: PLC0415

    async def what(client: SmritiClient) -> tuple[Any, int, int]:
        found = await client.resolve_space(space)
        if yes:
            return found, 0, 0
        checkpoints = (await client.log(found.id, limit=1)).total
        return found, checkpoints, (await client.list_sessions(found.id, limit=1)).total

    found, checkpoints, held = conn.run(what)
    if not yes:
        name = f"{found.name!r} ({found.id})"
        if not sys.stdin.isatty():
            fail(InvalidInput(f"Not deleted: deleting Space {name} needs --yes when there is no terminal to ask on."))
        question = f"Delete Space {name}, its {checkpoints} Checkpoint(s) and {held} Session(s), for good?"
        if not click.confirm(question, default=False, err=True):
            fail(InvalidInput(f"Not deleted: Space {name} is as it was."))
    conn.run(lambda client: client.delete_space(found.id))
    conn.emit(found, lambda: render_sessions.space_deleted(found))


@agent_command("head")
@click.argument("space")
@line_option("Show this line's HEAD (default: the Space's HEAD, which is its default line's).")
def head(conn: Connection, space: str, line: str | None) -> None:
    """Show the HEAD Checkpoint of SPACE (a name or an id), or of one of its lines."""

    async def work(client: SmritiClient) -> tuple[Any, Any, list[Any]]:
        found = await client.resolve_space(space)
        checkpoint = await client.head(found.id, line=line)
        return found, checkpoint, [] if conn.as_json else await _parents(client, checkpoint)

    found, checkpoint, parents = conn.run(work)
    conn.emit(checkpoint, lambda: render.checkpoint(checkpoint, space=found, is_head=True, line=line, parents=parents))


async def _parents(client: SmritiClient, checkpoint: Checkpoint) -> list[Checkpoint]:
    """Its parent and a merge's second parent, which the human view names by hash and message."""
    ids = [p for p in (checkpoint.parent_commit_id, checkpoint.merge_parent_id) if p is not None]
    return [await client.get_checkpoint(str(parent)) for parent in ids]


@agent_command("show")
@click.argument("ref")
@space_option()
@line_option("With --space: HEAD is this line's (default: the Space's default line).")
def show(conn: Connection, ref: str, space: str | None, line: str | None) -> None:
    """Show one Checkpoint: REF is its id, its hash, a unique hash prefix (7+ hex digits), or
    HEAD, HEAD~N, HEAD^ of --space."""

    async def work(client: SmritiClient) -> tuple[Any, Any, list[Any]]:
        checkpoint = await client.get_checkpoint(await resolve_ref(client, ref, space=space, line=line))
        if conn.as_json:
            return None, checkpoint, []
        return await client.get_space(checkpoint.repo_id), checkpoint, await _parents(client, checkpoint)

    owner, checkpoint, parents = conn.run(work)
    conn.emit(
        checkpoint,
        lambda: render.checkpoint(
            checkpoint,
            space=owner,
            is_head=owner is not None and owner.head_commit_id == checkpoint.id,
            parents=parents,
        ),
    )


@agent_command("log")
@click.argument("space")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 200), help="Checkpoints to show.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Checkpoints to skip.")
@line_option("Only this line's history: its HEAD, then first parents back to its start.")
def log(conn: Connection, space: str, limit: int, offset: int, line: str | None) -> None:
    """List the Checkpoints of SPACE, newest first (every line's), or one line's history."""

    async def work(client: SmritiClient) -> tuple[Any, Any, Any]:
        found = await client.resolve_space(space)
        page = await client.log(found.id, limit=limit, offset=offset, line=line)
        # The human listing marks each line's HEAD; --json is the API's page as it is.
        heads = [] if conn.as_json else await client.all_lines(found.id)
        return found, page, heads

    found, page, heads = conn.run(work)
    conn.emit(page, lambda: render.log(page, found, lines=heads, only=line))


@agent_command("diff")
@click.argument("before")
@click.argument("after")
@space_option()
@line_option("With --space: HEAD is this line's (default: the Space's default line).")
def diff(conn: Connection, before: str, after: str, space: str | None, line: str | None) -> None:
    """What changed from Checkpoint BEFORE to AFTER (ids, hashes, prefixes, or HEAD, HEAD~N of
    --space; one Space)."""

    async def work(client: SmritiClient) -> Any:
        return await client.diff(
            await resolve_ref(client, before, space=space, line=line),
            await resolve_ref(client, after, space=space, line=line),
        )

    result = conn.run(work)
    conn.emit(result, lambda: render.diff(result, before, after))


@agent_command("review")
@click.argument("ref")
@click.option("--provider", help="Provider for the model part of the review (default: the server's).")
@click.option("--model", help="Model for the review.")
@space_option()
@line_option("With --space: HEAD is this line's (default: the Space's default line).")
def review(
    conn: Connection, ref: str, *, provider: str | None, model: str | None, space: str | None, line: str | None
) -> None:
    """Review Checkpoint REF (or HEAD, HEAD~N of --space) for contradictions, hidden assumptions,
    answered questions, loose entities."""
    from smriti.client import operations  # noqa: PLC0415

    async def work(client: SmritiClient) -> Any:
        exact = await resolve_ref(client, ref, space=space, line=line)
        return await operations.review(client, exact, provider=provider, model=model)

    result = conn.run(work)
    conn.emit(result, lambda: render.review(result, ref))


@agent_command("verify")
@click.argument("space")
@click.option(
    "--anchor",
    "anchors",
    multiple=True,
    metavar="HASH",
    help="A full Checkpoint hash you kept elsewhere: it must still be in SPACE's history. Repeatable.",
)
def verify(conn: Connection, space: str, anchors: tuple[str, ...]) -> None:
    """Recompute every hash and parent link of SPACE; exit 1 if anything does not match.

    Someone who can write the database can recompute every hash consistently; only a hash kept
    outside it (--anchor) shows that."""

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        found = await client.resolve_space(space)
        return found, await client.verify(found.id, anchors)

    found, report = conn.run(work)
    conn.emit(report, lambda: render.verify(report, found))
    if not report.ok:
        sys.exit(EXIT_FAILED)


@agent_command("context")
@click.argument("space")
@line_option("Brief this line's HEAD (default: the Space's default line).")
def context(conn: Connection, space: str, line: str | None) -> None:
    """Print a Markdown hand-off brief of SPACE's HEAD (or a line's), to paste into an agent's prompt."""
    from smriti.client import operations  # noqa: PLC0415

    handoff = conn.run(lambda client: operations.handoff(client, space, via="cli", line=line))
    conn.emit(handoff, lambda: handoff.brief.rstrip("\n"))


@agent_command("mcp", json_output=False)
def mcp(conn: Connection) -> None:
    """Serve the agent tools over MCP on stdio (for desktop agent hosts), against --url."""
    from smriti.client.mcp.stdio import run_stdio  # noqa: PLC0415 (the MCP SDK is slow to import)

    try:
        run_stdio(conn.url, token=conn.token, timeout=conn.timeout)
    except ClientError as exc:
        fail(exc)


def register(main: click.Group) -> None:
    """Add the agent commands to the `smriti` group."""
    space_group.add_command(space_create)
    space_group.add_command(space_delete)
    commands: tuple[click.Command, ...] = (spaces, space_group, sessions, session_group, mount, fork, line_group)
    commands += (head, show, log, commit, restore, merge, diff, review, verify)
    commands += (agent_group, propose, proposals, proposal_group, watch)
    for command in (*commands, search, export, import_, import_conversations, context, mcp):
        main.add_command(command)
