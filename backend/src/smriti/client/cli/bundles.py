"""`smriti export` and `smriti import`: a Space as a bundle file (docs/bundles.md) and back;
`smriti import-conversations`: a ChatGPT, Claude, Open WebUI or Claude Code export as Sessions."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from smriti.client import render
from smriti.client.cli.base import Connection, agent_command

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient


@agent_command("export", json_output=False)
@click.argument("space")
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    default="-",
    show_default=True,
    help="Where to write the bundle; `-` is stdout.",
)
def export(conn: Connection, space: str, output: str) -> None:
    """Export SPACE (a name or an id) as a bundle: every Checkpoint with its hashes, its lines,
    Sessions and Turns. `smriti import` brings it back, here or on another server."""
    if output == "-":
        found, size = conn.run(lambda client: _export(client, space, sys.stdout.buffer))
        return
    target = Path(output)
    partial = target.with_name(target.name + ".part")
    # Written aside and renamed when complete, so FILE is never half a bundle.
    try:
        with partial.open("wb") as sink:
            found, size = conn.run(lambda client: _export(client, space, sink))
        os.replace(partial, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    click.echo(render.exported(found, str(target), size), err=True)


async def _export(client: SmritiClient, space: str, sink: Any) -> tuple[Any, int]:
    found = await client.resolve_space(space)
    return found, await client.export_space(found.id, sink)


@agent_command("import")
@click.argument("file", type=click.File("rb"))
def import_(conn: Connection, file: Any) -> None:
    """Import a Space from a bundle FILE (`-` is stdin) made by `smriti export`. Every hash and
    link is checked before anything is written; the Space keeps its ids and hashes."""
    space = conn.run(lambda client: client.import_space(file))
    conn.emit(space, lambda: render.imported(space))


# What a file is sent as, by its name; the server tells the kinds apart by their content anyway.
_MEDIA_TYPES = {".zip": "application/zip", ".jsonl": "application/x-ndjson"}


@agent_command("import-conversations")
@click.argument("space")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--copies",
    is_flag=True,
    help="Import conversations SPACE already holds again, as new Sessions (by default they are skipped).",
)
def import_conversations(conn: Connection, space: str, file: Any, copies: bool) -> None:
    """Import FILE (`-` is stdin) into SPACE, one Session per conversation: a ChatGPT or Claude data
    export (its ZIP, or the conversations.json in it), an Open WebUI chat export, or a Claude Code
    session (`~/.claude/projects/…/<id>.jsonl`). What the user and the assistant said is kept, in
    order (ChatGPT's: the branch last seen); reasoning, tool calls and hidden messages are left out
    and counted. Conversations that cannot be read, or that SPACE already holds, are listed with
    the reason; the others are stored together or not at all."""
    media_type = _MEDIA_TYPES.get(Path(file.name).suffix.lower(), "application/json")

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        found = await client.resolve_space(space)
        return found, await client.import_conversations(found.id, file, media_type=media_type, copies=copies)

    found, result = conn.run(work)
    conn.emit(result, lambda: render.imported_conversations(result, found))
