"""`smriti search`: find Checkpoints and Turns by their words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from smriti.client import render
from smriti.client.cli.base import Connection, agent_command

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient


@agent_command("search")
@click.argument("query")
@click.option("--space", "-s", metavar="SPACE", default=None, help="Only this Space's (a name or an id).")
@click.option("--kind", type=click.Choice(["checkpoint", "turn"]), default=None, help="Only Checkpoints, or Turns.")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 200), help="Matches to show.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Matches to skip.")
def search(conn: Connection, query: str, *, space: str | None, kind: Any, limit: int, offset: int) -> None:
    """Find QUERY in every Checkpoint and Turn, best match first. As in a web search: words are
    stemmed ("deploying" finds "deploy"), "quoted words" are a phrase, `or` joins alternatives
    and -word leaves out what has it."""

    async def work(client: SmritiClient) -> tuple[Any, dict[Any, str]]:
        space_id = (await client.resolve_space(space)).id if space is not None else None
        page = await client.search(query, space_id=space_id, kind=kind, limit=limit, offset=offset)
        names = {} if conn.as_json else {found.id: found.name for found in await client.all_spaces()}
        return page, names

    page, names = conn.run(work)
    conn.emit(page, lambda: render.search_hits(page, query, names))
