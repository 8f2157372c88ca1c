"""`smriti merge FROM --into LINE`: preview a merge of two lines, and commit it when it is clean or resolved.

Nothing is saved by the preview. A clean merge is committed with `--commit`; a merge with conflicts
exits 6 and goes to a person, who sets `choose` on each conflict of the preview's JSON (`--json`)
and commits it with `--resolve FILE`, which is refused (exit 6, nothing written) while any conflict
has no choice. Either commit is a compare-and-swap on the line's HEAD: if the line moved since the
preview, nothing is written (exit 4) and the merge is run again.
"""

from __future__ import annotations

import shlex
import sys
from typing import IO, TYPE_CHECKING, Any

import click

from smriti.client import render_merge
from smriti.client.cli.base import Connection, agent_command, decode_json_input, fail
from smriti.client.errors import EXIT_MERGE_CONFLICTS, ClientError, InvalidInput, MissingError

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.client.merging import Merge
    from smriti.client.resolution import Resolution
    from smriti.spaces.schemas import Space


@agent_command("merge")
@click.argument("from_ref", metavar="FROM")
@click.option("--into", "into", required=True, metavar="LINE", help="The line to merge into (its HEAD is ours).")
@click.option(
    "--space",
    metavar="SPACE",
    default=None,
    help="The Space (name or id). Needed when FROM is a line's name; a Checkpoint ref knows its Space.",
)
@click.option(
    "--commit", "commit_clean", is_flag=True, help="Commit the merge if it is clean; else exit 6, writing nothing."
)
@click.option(
    "--resolve",
    "resolution",
    type=click.File("rb"),
    metavar="FILE",
    help="Commit a resolution: the JSON `--json` printed, with a `choose` set for each conflict (`-` for stdin).",
)
@click.option("--message", "-m", help="The merge Checkpoint's message (default: `Merge FROM into LINE`).")
@click.option(
    "--author",
    help="Agent name recorded in metadata.author (default: $SMRITI_AGENT_NAME, else the OS user).",
)
def merge(
    conn: Connection,
    from_ref: str,
    *,
    into: str,
    space: str | None,
    commit_clean: bool,
    resolution: IO[bytes] | None,
    message: str | None,
    author: str | None,
) -> None:
    """Preview FROM (a line's name or a Checkpoint ref) merged into LINE, three-way; nothing is saved.

    Prints what comes into LINE and what goes, and each conflict (an item both lines changed
    differently) with its base, ours (LINE's) and theirs (FROM's) values; `--json` prints the
    preview itself. Exits 6 when there are conflicts: they are for a person to choose. A clean
    merge is committed with --commit. To commit a resolution, save the preview with --json, set
    `choose` on each conflict in it ("ours", "theirs", "base", or "edited" after writing the item
    in `merged`; `how_to_resolve` in the file says so too) and pass it to --resolve: a conflict
    left without a choice exits 6 and nothing is written. The merge Checkpoint is saved on LINE
    with FROM as its second parent, only if LINE's and FROM's HEADs are still the ones previewed
    (else exit 4: run the merge again).
    """
    from smriti.client import operations  # noqa: PLC0415
    from smriti.client.resolution import to_resolve  # noqa: PLC0415

    if commit_clean and resolution is not None:
        fail(InvalidInput("--commit commits the merge as previewed, --resolve a resolution of it: give one of them."))
    if message is not None and not (commit_clean or resolution is not None):
        fail(InvalidInput("--message names the merge Checkpoint: it goes with --commit or --resolve."))
    text = message if message is not None else f"Merge {from_ref.strip()} into {into.strip()}"
    name = author or operations.default_author()
    if resolution is not None:
        _resolve(conn, from_ref, into=into, space=space, source=resolution, message=text, author=name)
        return

    async def work(client: SmritiClient) -> tuple[Merge, Any]:
        from smriti.client import merging  # noqa: PLC0415

        found = await _space(client, space, from_ref)
        merge = await merging.preview(client, found, from_ref, into)
        result = merge.preview
        if commit_clean and result.clean and result.relation != "up_to_date":
            saved = await merging.commit(
                client,
                found,
                merge.line.name,
                result.merged,
                theirs_commit_id=result.theirs_commit_id,
                ours_commit_id=result.ours_commit_id,
                message=text,
                author=name,
                run_again=_run_again(found, from_ref, merge.line.name),
            )
            theirs = None if conn.as_json else await client.get_checkpoint(str(result.theirs_commit_id))
            return merge, (saved, theirs)
        return merge, None if conn.as_json else await merging.sides(client, merge)

    merge, shown = conn.run(work)
    result = merge.preview
    if commit_clean and result.clean and result.relation != "up_to_date":
        saved, theirs = shown
        conn.emit(saved.checkpoint, lambda: render_merge.merge_saved(saved, from_ref, theirs))
        return
    conn.emit(
        to_resolve(result),
        lambda: render_merge.merge_preview(merge, shown, from_ref, _next_step(merge, from_ref, commit_clean)),
    )
    if result.conflicts:
        sys.exit(EXIT_MERGE_CONFLICTS)


def _resolve(
    conn: Connection, from_ref: str, *, into: str, space: str | None, source: IO[bytes], message: str, author: str
) -> None:
    """`--resolve FILE`: commit a saved preview whose conflicts a person chose."""
    from smriti.client import merging  # noqa: PLC0415

    try:
        wanted, label = _read_resolution(source)
    except ClientError as exc:
        fail(exc)
    if wanted.relation == "up_to_date":
        fail(
            InvalidInput(
                f"{from_ref.strip()} is already in {into.strip()}'s history: there is nothing to merge. "
                "Save changes to the line with `smriti commit`."
            )
        )

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        if space is not None:
            found = await client.resolve_space(space)
        else:  # the preview names the Checkpoint merged in, and it knows its Space
            found = await client.get_space((await client.get_checkpoint(str(wanted.theirs_commit_id))).repo_id)
        run_again = _run_again(found, from_ref, into)
        where = "the JSON on stdin" if label == "stdin" else source.name
        how = f'Set "choose" for each in {where} ("how_to_resolve" there says how) and run the command again.'
        state = await merging.resolve(client, found, into, from_ref, wanted, run_again=run_again, how=how)
        saved = await merging.commit(
            client,
            found,
            into,
            state,
            theirs_commit_id=wanted.theirs_commit_id,
            ours_commit_id=wanted.ours_commit_id,
            message=message,
            author=author,
            run_again=run_again,
        )
        theirs = None if conn.as_json else await client.get_checkpoint(str(wanted.theirs_commit_id))
        return saved, theirs

    saved, theirs = conn.run(work)
    conn.emit(saved.checkpoint, lambda: render_merge.merge_saved(saved, from_ref, theirs))


def _read_resolution(source: IO[bytes]) -> tuple[Resolution, str]:
    """The resolution, and how to name where it came from."""
    from smriti.client.resolution import resolution_from  # noqa: PLC0415

    label = "stdin" if source.name in {"<stdin>", "-"} else f"--resolve {source.name}"
    raw = source.read()
    if not raw.strip():
        raise InvalidInput(f"{label} is empty; expected the merge preview's JSON (`smriti merge … --json`).")
    return resolution_from(decode_json_input(raw, label), source=label), label


async def _space(client: SmritiClient, space: str | None, from_ref: str) -> Space:
    """--space, else the Space of FROM, which must then be a Checkpoint ref (a line's name needs --space)."""
    if space is not None:
        return await client.resolve_space(space)
    needs = f"{from_ref.strip()!r} is not a Checkpoint ref; if it is a line's name, give its Space with --space."
    try:
        checkpoint = await client.get_checkpoint(from_ref)
    except InvalidInput:
        raise InvalidInput(needs) from None
    except MissingError as exc:
        raise MissingError(
            f"{exc.one_line()} If {from_ref.strip()!r} is a line's name, give its Space with --space."
        ) from None
    return await client.get_space(checkpoint.repo_id)


def _command(space: Space, from_ref: str, into: str, *extra: str) -> str:
    words = ["smriti", "merge", from_ref.strip(), "--into", into, "--space", space.name, *extra]
    return " ".join(shlex.quote(word) for word in words)


def _run_again(space: Space, from_ref: str, into: str) -> str:
    return f"Run `{_command(space, from_ref, into)}` again: it merges against the line's new HEAD."


def _next_step(merge: Merge, from_ref: str, tried_commit: bool) -> str:
    space, into = merge.space, merge.line.name
    result = merge.preview
    if result.relation == "up_to_date":
        return ""
    if result.clean:
        return f"No conflicts. Commit the merge with `{_command(space, from_ref, into, '--commit')}`."
    saved = _command(space, from_ref, into, "--json")
    resolve = _command(space, from_ref, into, "--resolve", "merge.json")
    nothing = "Nothing was written. " if tried_commit else ""
    return (
        f"{nothing}Conflicts are for a person to choose: save the preview with `{saved} > merge.json`, set "
        '"choose" on each conflict in it ("ours", "theirs", "base", or "edited" after writing the item in '
        f'"merged"), then commit it with `{resolve}`.'
    )
