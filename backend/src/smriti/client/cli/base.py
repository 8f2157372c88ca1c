"""What every agent command of `smriti` shares: the connection options, one-line errors, `--json`.

Every command prints readable text by default and the API's JSON with `--json` (on stdout, and
nothing else there). Errors are one line on stderr, and the exit code says what happened:

    0 ok · 1 verify found a problem · 2 usage (bad flags, bad JSON, a request the server rejects as invalid)
    3 not found · 4 conflict (HEAD moved, name taken, a parent that is not its line's HEAD) · 5 server or network error
    6 `merge` or `proposal merge` found conflicts for a person to resolve (nothing written)
    7 refused: only the person may (merge a proposal, manage agent keys), or a read-only key wrote

This module imports only click at the top, so `smriti --help` stays fast; the HTTP client is
loaded when a command runs.
"""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click
import msgspec

from smriti.client.errors import ClientError, InvalidInput
from smriti.core.json_checks import duplicate_key

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:8000"
EXIT_CODES = (
    "0 ok; 2 usage error or invalid input (or a deletion not confirmed); "
    "3 Space, line, Checkpoint or Session not found; "
    "4 conflict (HEAD moved, the name is taken, or the parent is not the line's HEAD); 5 server or network error; "
    "6 merge conflicts for a person to resolve (nothing written); "
    "7 refused (only the person may, or the agent key only reads)."
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
        from smriti.client.api import SmritiClient  # noqa: PLC0415 (httpx loads only when a command runs)

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


def space_option() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--space NAME|ID`: the Space whose HEAD a `HEAD`, `HEAD~N` or `HEAD^` ref means."""
    return click.option(
        "--space", metavar="SPACE", default=None, help="The Space (name or id) that HEAD, HEAD~N, HEAD^ refer to."
    )


def line_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--line NAME` (also spelled `--branch`, the API's name for a line)."""
    return click.option("--line", "--branch", "line", metavar="NAME", default=None, help=help_text)


def decode_json_input(raw: bytes, label: str) -> Any:
    """JSON a person or agent handed the CLI (`label` names where from), or a usage error saying
    what is wrong with it and where."""
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
    return data


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
