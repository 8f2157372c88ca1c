"""`smriti agent create|list|revoke`: the keys the person gives agents (SYSTEM.md §13).

Only the person manages keys (an agent key gets exit 7). A key is printed once, when it is made;
the server keeps only its hash. Keys mean something only on a server that sets SMRITI_API_TOKEN
(without it, a request with no key is the person's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

import click

from smriti.client import render_proposals
from smriti.client.cli.base import Connection, agent_command, fail
from smriti.client.errors import InvalidInput

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient


@click.group("agent")
def agent_group() -> None:
    """Agent keys: one per agent, made, listed and revoked by the person."""


@agent_command("create")
@click.argument("name")
@click.option(
    "--space",
    "spaces",
    multiple=True,
    metavar="SPACE",
    help="A Space (name or id) the agent may reach; repeatable. Without it: every Space, and it may create Spaces.",
)
@click.option("--read-only", is_flag=True, help="A key that only reads (its writes are refused).")
def agent_create(conn: Connection, name: str, spaces: tuple[str, ...], read_only: bool) -> None:
    """Make a key for the agent NAME and print it, once."""

    async def work(client: SmritiClient) -> Any:
        ids = [(await client.resolve_space(space)).id for space in spaces] if spaces else None
        return await client.create_agent(name, spaces=ids, write=not read_only)

    made = conn.run(work)
    conn.emit(made, lambda: render_proposals.agent_created(made))


@agent_command("list")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 200), help="Keys per page.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Keys to skip.")
def agent_list(conn: Connection, limit: int, offset: int) -> None:
    """List the agent keys, newest first (never the keys themselves)."""
    page = conn.run(lambda client: client.list_agents(limit=limit, offset=offset))
    conn.emit(page, lambda: render_proposals.agents(page))


@agent_command("revoke")
@click.argument("agent_id", metavar="ID")
def agent_revoke(conn: Connection, agent_id: str) -> None:
    """Revoke the key ID (as `smriti agent list` shows it): within a second every request with it is refused."""
    try:
        key = UUID(agent_id.strip())
    except ValueError:
        fail(InvalidInput(f"{agent_id!r} is not an agent key's id (see `smriti agent list`)."))
    conn.run(lambda client: client.revoke_agent(key))
    conn.emit({"id": str(key), "revoked": True}, lambda: f"Revoked agent key {key}.")


agent_group.add_command(agent_create)
agent_group.add_command(agent_list)
agent_group.add_command(agent_revoke)
