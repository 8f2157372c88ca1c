"""`smriti propose`, `smriti proposals` and `smriti proposal show|merge|close` (SYSTEM.md §13).

An agent works on a line of its own and proposes it; the person reviews (`proposal show`) and
merges (`proposal merge`, the person only: an agent key gets exit 7). A merge with conflicts exits 6
and writes nothing until the person gives the resolved state (`--merged FILE`). A merge is pinned to
the HEADs the command read (or `--expect-from`/`--expect-into`): a line that moved since is exit 4,
nothing written.
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, Any, get_args
from uuid import UUID

import click

from smriti.client import render_proposals
from smriti.client.cli.base import Connection, agent_command, decode_json_input, fail
from smriti.client.errors import EXIT_MERGE_CONFLICTS, InvalidInput

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.merges.schemas import MergeState
    from smriti.proposals.schemas import ProposalDetail

_STATUSES = ("open", "merged", "closed")


_number_argument = click.argument("number", type=click.IntRange(1, 2_147_483_647))


@agent_command("propose")
@click.argument("space")
@click.option("--from", "from_line", required=True, metavar="LINE", help="The line whose work is proposed.")
@click.option("--into", metavar="LINE", default=None, help="The line to merge into (default: the default line).")
@click.option("--title", "-t", required=True, help="What the proposal does, in a line.")
@click.option("--description", "-d", default="", help="Why, and what the person should look at.")
def propose(conn: Connection, space: str, *, from_line: str, into: str | None, title: str, description: str) -> None:
    """Propose merging the line --from of SPACE into --into (the default line): the person decides."""
    from smriti.proposals.schemas import ProposalCreate  # noqa: PLC0415

    async def work(client: SmritiClient) -> Any:
        found = await client.resolve_space(space)
        body = ProposalCreate(from_=from_line, into=into, title=title, description=description)
        return await client.open_proposal(found.id, body)

    opened = conn.run(work)
    conn.emit(opened, lambda: render_proposals.proposal(opened, next_step="Opened: the person reviews and merges it."))


@agent_command("proposals")
@click.argument("space")
@click.option("--status", type=click.Choice(_STATUSES), default=None, help="Only proposals in this state.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 200), help="Proposals per page.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Proposals to skip.")
def proposals(conn: Connection, space: str, status: str | None, limit: int, offset: int) -> None:
    """List the proposals of SPACE, newest first."""
    from smriti.proposals.schemas import ProposalStatus  # noqa: PLC0415

    chosen: ProposalStatus | None = next((s for s in get_args(ProposalStatus) if s == status), None)

    async def work(client: SmritiClient) -> Any:
        found = await client.resolve_space(space)
        return found, await client.list_proposals(found.id, status=chosen, limit=limit, offset=offset)

    found, page = conn.run(work)
    conn.emit(page, lambda: render_proposals.proposals(page, found))


@click.group("proposal")
def proposal_group() -> None:
    """One proposal of a Space: show it, merge it (the person), or close it."""


@agent_command("show")
@click.argument("space")
@_number_argument
def proposal_show(conn: Connection, space: str, number: int) -> None:
    """Show proposal NUMBER of SPACE with the merge of its lines as they are now."""
    detail = conn.run(lambda client: _detail(client, space, number))
    conn.emit(detail, lambda: render_proposals.proposal(detail))


async def _detail(client: SmritiClient, space: str, number: int) -> ProposalDetail:
    found = await client.resolve_space(space)
    return await client.get_proposal(found.id, number)


@agent_command("merge")
@click.argument("space")
@_number_argument
@click.option(
    "--merged",
    "merged_file",
    type=click.File("rb"),
    metavar="FILE",
    help="The resolved whole state to save (JSON: the preview's `merged`, each conflict decided; `-` for stdin).",
)
@click.option("--message", "-m", default=None, help="The merge Checkpoint's message (default: `Merge proposal #N: …`).")
@click.option(
    "--expect-from", metavar="ID", default=None, help="Refuse unless the from line's HEAD is this Checkpoint."
)
@click.option(
    "--expect-into", metavar="ID", default=None, help="Refuse unless the into line's HEAD is this Checkpoint."
)
def proposal_merge(
    conn: Connection,
    space: str,
    number: int,
    *,
    merged_file: IO[bytes] | None,
    message: str | None,
    expect_from: str | None,
    expect_into: str | None,
) -> None:
    """Merge proposal NUMBER of SPACE (the person only): a merge Checkpoint on its into line.

    With conflicts and no --merged, nothing is written (exit 6): decide each conflict in the
    preview's `merged` (`smriti proposal show SPACE N --json`) and pass it with --merged."""
    from smriti.proposals.schemas import ProposalMerge  # noqa: PLC0415

    merged = _merged_state(merged_file) if merged_file is not None else None
    pinned_from, pinned_into = (
        _checkpoint_id(expect_from, "--expect-from"),
        _checkpoint_id(expect_into, "--expect-into"),
    )

    async def work(client: SmritiClient) -> tuple[ProposalDetail, bool]:
        found = await client.resolve_space(space)
        seen = await client.get_proposal(found.id, number)
        if merged is None and seen.conflicts and seen.status == "open":
            return seen, False
        # Pinned to what was read here unless the caller pinned it: what merges is what was checked.
        body = ProposalMerge(
            merged=merged,
            message=message,
            expected_from_head_commit_id=pinned_from or seen.from_head_commit_id,
            expected_into_head_commit_id=pinned_into or seen.into_head_commit_id,
        )
        return await client.merge_proposal(found.id, number, body), True

    detail, done = conn.run(work)
    if not done:
        how = (
            f"Nothing was written. Decide each in the `preview.merged` of `smriti proposal show {space} {number} "
            "--json` and pass that with --merged FILE."
        )
        conn.emit(detail, lambda: render_proposals.proposal(detail, next_step=how))
        sys.exit(EXIT_MERGE_CONFLICTS)
    conn.emit(detail, lambda: render_proposals.proposal(detail, next_step="Merged."))


@agent_command("close")
@click.argument("space")
@_number_argument
@click.option("--reason", "-r", default=None, help="Why it is closed without merging.")
def proposal_close(conn: Connection, space: str, number: int, reason: str | None) -> None:
    """Close proposal NUMBER of SPACE without merging it (the person, or the agent that opened it)."""

    async def work(client: SmritiClient) -> Any:
        found = await client.resolve_space(space)
        return await client.close_proposal(found.id, number, reason)

    detail = conn.run(work)
    conn.emit(detail, lambda: render_proposals.proposal(detail, next_step="Closed."))


def _merged_state(source: IO[bytes]) -> MergeState:
    import msgspec  # noqa: PLC0415

    from smriti.merges.schemas import MergeState  # noqa: PLC0415

    label = "stdin" if source.name == "<stdin>" else repr(source.name)
    try:
        data = decode_json_input(source.read(), f"--merged {label}")
        return msgspec.convert(data, MergeState)
    except InvalidInput as exc:
        fail(exc)
    except msgspec.ValidationError as exc:
        fail(InvalidInput(f"--merged {label} is not a merged state: {exc}"))


def _checkpoint_id(value: str | None, option: str) -> UUID | None:
    if value is None:
        return None
    try:
        return UUID(value.strip())
    except ValueError:
        fail(InvalidInput(f"{option} takes a Checkpoint id, not {value!r}."))


proposal_group.add_command(proposal_show)
proposal_group.add_command(proposal_merge)
proposal_group.add_command(proposal_close)
