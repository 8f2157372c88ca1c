"""The agent commands of `smriti`: read and write a Space's state over the REST API.

Every command prints readable text by default and the API's JSON with `--json` (on stdout, and
nothing else there). Errors are one line on stderr, and the exit code says what happened:

    0 ok · 1 verify found a problem · 2 usage (bad flags, bad JSON, a request the server rejects as invalid)
    3 not found · 4 conflict (HEAD moved, name taken) · 5 server or network error

This module imports only click at the top, so `smriti --help` stays fast; the HTTP client is
loaded when a command runs.
"""

from __future__ import annotations

import asyncio
import functools
import mimetypes
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click
import msgspec

from smriti.agent import render
from smriti.agent.errors import EXIT_FAILED, ClientError, InvalidInput
from smriti.json_checks import duplicate_key

if TYPE_CHECKING:
    from smriti.agent.client import SmritiClient

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:8000"
EXIT_CODES = (
    "0 ok; 2 usage error or invalid input; 3 Space or Checkpoint not found; "
    "4 conflict (HEAD moved, or the name is taken); 5 server or network error."
)
_SHARED = frozenset({"url", "token", "timeout", "as_json"})


def _squash(text: str) -> str:
    return " ".join(text.split())


class _OneLineUsageError(click.UsageError):
    """Click's usage error, shown as one line on stderr (exit code 2)."""

    def show(self, file: IO[Any] | None = None) -> None:
        prog = self.ctx.command_path if self.ctx else "smriti"
        click.echo(f"{prog}: {_squash(self.format_message())} (see `{prog} --help`)", err=True)


class AgentCommand(click.Command):
    """A command whose usage errors are one line, like every other error of the agent commands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if isinstance(exc, _OneLineUsageError):
                raise
            raise _OneLineUsageError(exc.format_message(), ctx=exc.ctx or ctx) from None


@dataclass(frozen=True, slots=True)
class Connection:
    """Where the server is and how to talk to it, from the options every agent command shares."""

    url: str
    token: str | None
    timeout: float
    as_json: bool = False

    def run(self, work: Callable[[SmritiClient], Awaitable[T]]) -> T:
        """Run `work` with a client; a `ClientError` ends the process with its exit code."""
        from smriti.agent.client import SmritiClient  # noqa: PLC0415 (httpx loads only when a command runs)

        async def main() -> T:
            async with SmritiClient(self.url, token=self.token, timeout=self.timeout) as client:
                return await work(client)

        try:
            return asyncio.run(main())
        except ClientError as exc:
            fail(exc)

    def emit(self, value: Any, text: Callable[[], str]) -> None:
        """`value` as JSON with `--json`, else `text()`."""
        if self.as_json:
            out = sys.stdout.buffer
            out.write(msgspec.json.format(msgspec.json.encode(value), indent=2) + b"\n")
            out.flush()
        else:
            click.echo(text())


def fail(exc: ClientError) -> NoReturn:
    click.echo(f"smriti: {exc.one_line()}", err=True)
    sys.exit(exc.exit_code)


_url_option = click.option(
    "--url",
    envvar="SMRITI_URL",
    default=DEFAULT_URL,
    show_default=True,
    show_envvar=True,
    help="The Smriti server.",
)
_token_option = click.option(
    "--token",
    envvar="SMRITI_API_TOKEN",
    default=None,
    show_envvar=True,
    help="API token, sent as a bearer token (needed when the server sets SMRITI_API_TOKEN).",
)
_timeout_option = click.option(
    "--timeout",
    envvar="SMRITI_TIMEOUT",
    default=120.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds to wait for the server.",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print the API's JSON on stdout.")


def agent_command(name: str, *, json_output: bool = True) -> Callable[[Callable[..., None]], click.Command]:
    """Make `fn(conn, **arguments)` the command `name`, with the shared connection options."""

    def decorate(fn: Callable[..., None]) -> click.Command:
        @functools.wraps(fn)
        def callback(url: str, token: str | None, timeout: float, as_json: bool = False, **kwargs: Any) -> None:
            fn(Connection(url=url, token=token, timeout=timeout, as_json=as_json), **kwargs)

        wrapped: Any = callback
        options = [_url_option, _token_option, _timeout_option] + ([_json_option] if json_output else [])
        for option in reversed(options):
            wrapped = option(wrapped)
        command = click.command(name, cls=AgentCommand, epilog=f"Exit codes: {EXIT_CODES}")(wrapped)
        command.params.sort(key=lambda param: param.name in _SHARED)  # the command's own options first
        return command

    return decorate


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


@agent_command("head")
@click.argument("space")
def head(conn: Connection, space: str) -> None:
    """Show the HEAD Checkpoint of SPACE (a name or an id)."""

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        found = await client.resolve_space(space)
        return found, await client.head(found.id)

    found, checkpoint = conn.run(work)
    conn.emit(checkpoint, lambda: render.checkpoint(checkpoint, space=found, is_head=True))


@agent_command("show")
@click.argument("ref")
def show(conn: Connection, ref: str) -> None:
    """Show one Checkpoint: REF is its id, its hash, or a unique hash prefix (7+ hex digits)."""

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        checkpoint = await client.get_checkpoint(ref)
        owner = None if conn.as_json else await client.get_space(checkpoint.repo_id)
        return owner, checkpoint

    owner, checkpoint = conn.run(work)
    conn.emit(
        checkpoint,
        lambda: render.checkpoint(
            checkpoint, space=owner, is_head=owner is not None and owner.head_commit_id == checkpoint.id
        ),
    )


@agent_command("log")
@click.argument("space")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 200), help="Checkpoints to show.")
@click.option("--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Checkpoints to skip.")
def log(conn: Connection, space: str, limit: int, offset: int) -> None:
    """List the Checkpoints of SPACE, newest first."""

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        found = await client.resolve_space(space)
        return found, await client.log(found.id, limit=limit, offset=offset)

    found, page = conn.run(work)
    conn.emit(page, lambda: render.log(page, found))


@agent_command("commit")
@click.argument("space")
@click.option("--message", "-m", help="What this Checkpoint is (required, here or in the JSON).")
@click.option("--summary", help="Where the work stands, in a few sentences.")
@click.option("--decision", "decisions", multiple=True, help="A decision made (repeatable).")
@click.option("--assumption", "assumptions", multiple=True, help="An assumption relied on (repeatable).")
@click.option("--task", "tasks", multiple=True, help="An open task (repeatable).")
@click.option("--done-task", "done_tasks", multiple=True, help="A finished task (repeatable).")
@click.option("--question", "questions", multiple=True, help="An open question (repeatable).")
@click.option(
    "--artifact",
    "artifacts",
    multiple=True,
    metavar="NAME=PATH",
    help="Attach a text file as an artifact called NAME (repeatable; PATH alone uses the file name).",
)
@click.option(
    "--file",
    "-f",
    "source",
    type=click.File("rb"),
    help="A Checkpoint as JSON (`-` for stdin; stdin is also read when it is piped and --message is absent).",
)
@click.option(
    "--expect-head",
    metavar="REF|none",
    help="Only save if HEAD is still REF (`none`: only if the Space has no Checkpoint); else exit 4.",
)
@click.option("--parent", metavar="REF", help="Fork from this Checkpoint instead of HEAD.")
@click.option(
    "--author",
    help="Agent name recorded in metadata.author (default: $SMRITI_AGENT_NAME, else the OS user).",
)
def commit(
    conn: Connection,
    *,
    space: str,
    message: str | None,
    summary: str | None,
    decisions: tuple[str, ...],
    assumptions: tuple[str, ...],
    tasks: tuple[str, ...],
    done_tasks: tuple[str, ...],
    questions: tuple[str, ...],
    artifacts: tuple[str, ...],
    source: IO[bytes] | None,
    expect_head: str | None,
    parent: str | None,
    author: str | None,
) -> None:
    """Save a Checkpoint in SPACE and move HEAD to it.

    The fields come from flags, or from a whole Checkpoint as JSON (--file, or piped on stdin);
    flags add to the JSON's lists and replace its message and summary. The JSON may be a saved
    Checkpoint (`smriti head SPACE --json`, edited): its id, hash, time, parent and authorship are
    left behind. Use --expect-head with the HEAD you read, so that a concurrent save by someone
    else is refused instead of buried.
    """
    from smriti.agent import operations  # noqa: PLC0415

    try:
        data, label = _read_json(source, use_stdin=message is None)
        data = _apply_flags(
            data,
            message=message,
            summary=summary,
            decisions=decisions,
            assumptions=assumptions,
            tasks=[{"text": t, "done": False} for t in tasks] + [{"text": t, "done": True} for t in done_tasks],
            questions=questions,
            artifacts=[_artifact(spec) for spec in artifacts],
        )
        draft = operations.draft_from(data, source=label or "the flags")
    except ClientError as exc:
        fail(exc)
    name = author or operations.default_author()
    expect: Any = msgspec.UNSET if expect_head is None else expect_head

    async def work(client: SmritiClient) -> tuple[Any, Any]:
        return await operations.commit(client, space, draft, author=name, expect_head=expect, parent=parent)

    found, checkpoint = conn.run(work)
    conn.emit(checkpoint, lambda: render.committed(checkpoint, found))


@agent_command("diff")
@click.argument("before")
@click.argument("after")
def diff(conn: Connection, before: str, after: str) -> None:
    """What changed from Checkpoint BEFORE to AFTER (ids, hashes or prefixes; one Space)."""
    result = conn.run(lambda client: client.diff(before, after))
    conn.emit(result, lambda: render.diff(result, before, after))


@agent_command("review")
@click.argument("ref")
@click.option("--provider", help="Provider for the model part of the review (default: the server's).")
@click.option("--model", help="Model for the review.")
def review(conn: Connection, ref: str, provider: str | None, model: str | None) -> None:
    """Review Checkpoint REF for contradictions, hidden assumptions, answered questions, loose entities."""
    from smriti.agent import operations  # noqa: PLC0415

    result = conn.run(lambda client: operations.review(client, ref, provider=provider, model=model))
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
def context(conn: Connection, space: str) -> None:
    """Print a Markdown hand-off brief of SPACE's HEAD, to paste into an agent's prompt."""
    from smriti.agent import operations  # noqa: PLC0415

    handoff = conn.run(lambda client: operations.handoff(client, space, via="cli"))
    conn.emit(handoff, lambda: handoff.brief.rstrip("\n"))


@agent_command("mcp", json_output=False)
def mcp(conn: Connection) -> None:
    """Serve the agent tools over MCP on stdio (for desktop agent hosts), against --url."""
    from smriti.agent.mcp_server import run_stdio  # noqa: PLC0415 (the MCP SDK is slow to import)

    try:
        run_stdio(conn.url, token=conn.token, timeout=conn.timeout)
    except ClientError as exc:
        fail(exc)


def register(main: click.Group) -> None:
    """Add the agent commands to the `smriti` group."""
    space_group.add_command(space_create)
    for command in (spaces, space_group, head, show, log, commit, diff, review, verify, context, mcp):
        main.add_command(command)


# Commit input ---------------------------------------------------------------------------------

_MEDIA_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".py": "text/x-python",
    ".ts": "text/x-typescript",
    ".tsx": "text/x-typescript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
    ".sql": "text/x-sql",
    ".csv": "text/csv",
    ".html": "text/html",
    ".sh": "text/x-shellscript",
}


def _media_type(path: Path) -> str:
    known = _MEDIA_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed = mimetypes.guess_type(path.name)[0]
    return guessed if guessed and guessed.startswith("text/") else "text/plain"


def _artifact(spec: str) -> dict[str, str]:
    name, sep, raw_path = spec.partition("=")
    if not sep:
        raw_path, name = spec, Path(spec).name
    name, raw_path = name.strip(), raw_path.strip()
    if not name or not raw_path:
        raise InvalidInput(f"--artifact takes NAME=PATH (or a PATH), got {spec!r}.")
    path = Path(raw_path).expanduser()
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"--artifact {spec}: {path} is not UTF-8 text; artifacts hold text.") from None
    except OSError as exc:
        raise InvalidInput(f"--artifact {spec}: cannot read {path} ({exc.strerror or exc}).") from None
    return {"name": name, "content": content, "media_type": _media_type(path)}


def _read_json(source: IO[bytes] | None, *, use_stdin: bool) -> tuple[dict[str, Any], str | None]:
    """The JSON object from --file (or from piped stdin when there is no --message) and where it came from."""
    if source is not None:
        label = "stdin" if source.name in {"<stdin>", "-"} else f"--file {source.name}"
        raw = source.read()
    elif use_stdin and not sys.stdin.isatty():
        label, raw = "stdin", sys.stdin.buffer.read()
    else:
        return {}, None
    if not raw.strip():
        if source is None:
            return {}, None  # nothing piped after all; the missing message is reported below
        raise InvalidInput(f"{label} is empty; expected a Checkpoint as a JSON object.")
    try:
        data = msgspec.json.decode(raw)
        repeated = duplicate_key(raw)
    except msgspec.DecodeError as exc:
        raise InvalidInput(f"{label} is not valid JSON: {_where(exc, raw)}") from None
    except RecursionError:
        raise InvalidInput(f"{label} is JSON nested too deeply to read.") from None
    if repeated is not None:
        # Decoding keeps the last of two equal names; say so rather than send one of them silently.
        raise InvalidInput(f"{label} has the key {repeated!r} twice in one object; each name may appear once.")
    if not isinstance(data, dict):
        raise InvalidInput(f"{label} must hold a JSON object with the Checkpoint's fields, not {_json_kind(data)}.")
    from smriti.agent.operations import from_saved  # noqa: PLC0415

    return from_saved(data), label


def _json_kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _where(exc: msgspec.DecodeError, raw: bytes) -> str:
    """msgspec's message, with the byte offset also given as line and column."""
    message = str(exc)
    marker = "(byte "
    if marker in message:
        try:
            offset = int(message.rsplit(marker, 1)[1].rstrip(")"))
        except ValueError:
            return message
        before = raw[:offset]
        line = before.count(b"\n") + 1
        column = offset - (before.rfind(b"\n") + 1) + 1
        return f"{message.rsplit(marker, 1)[0].strip()} at line {line}, column {column}"
    return message


def _apply_flags(
    data: dict[str, Any],
    *,
    message: str | None,
    summary: str | None,
    decisions: tuple[str, ...],
    assumptions: tuple[str, ...],
    tasks: list[dict[str, Any]],
    questions: tuple[str, ...],
    artifacts: list[dict[str, str]],
) -> dict[str, Any]:
    merged = dict(data)
    if message is not None:
        merged["message"] = message
    if summary is not None:
        merged["summary"] = summary
    for key, extra in (
        ("decisions", list(decisions)),
        ("assumptions", list(assumptions)),
        ("tasks", tasks),
        ("open_questions", list(questions)),
        ("artifacts", artifacts),
    ):
        if extra:
            existing = merged.get(key, [])
            if not isinstance(existing, list):
                raise InvalidInput(f"`{key}` in the JSON must be a list.")
            merged[key] = [*existing, *extra]
    if "message" not in merged:
        raise InvalidInput('A Checkpoint needs a message: give --message, or a "message" in the JSON.')
    return merged
