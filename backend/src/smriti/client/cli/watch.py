"""`smriti watch`: print every change to a Space (or to every Space) as it happens."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Any

import click
import msgspec

from smriti.client.cli.base import Connection, agent_command

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.client.errors import ClientError


@agent_command("watch")
@click.argument("space", required=False)
@click.option(
    "--after",
    type=click.IntRange(min=0),
    default=None,
    metavar="ID",
    help="Start after this event id (replaying what followed it); by default, at the next new event.",
)
def watch(conn: Connection, space: str | None, after: int | None) -> None:
    """Print each change to SPACE (a name or an id; without it, every Space this key reads) as it
    happens: `id  type  who  what`, or with --json the event as one JSON object a line. Runs until
    stopped; a dropped connection or a restarted server is rejoined after the last event shown,
    so nothing is missed or shown twice. To resume later, pass the last id seen as --after."""
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a watch ends
        conn.run(lambda client: _watch(client, space, after, as_json=conn.as_json))


async def _watch(client: SmritiClient, space: str | None, after: int | None, *, as_json: bool) -> None:
    from smriti.client.render_events import event_line  # noqa: PLC0415
    from smriti.client.watching import watch as follow  # noqa: PLC0415

    space_id = (await client.resolve_space(space)).id if space is not None else None

    async def show(event: dict[str, Any]) -> None:
        if as_json:
            sys.stdout.buffer.write(msgspec.json.encode(event) + b"\n")
            sys.stdout.flush()
        else:
            click.echo(event_line(event))

    def retrying(exc: ClientError, pause: float) -> None:
        click.echo(f"smriti: {exc.one_line()} (connecting again in {pause:g} s)", err=True)

    await follow(client, space_id, after, show, on_retry=retrying)
