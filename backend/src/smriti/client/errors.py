"""What can go wrong when an agent talks to Smriti, as typed exceptions with meaningful exit codes.

Each error carries the server's `detail` (or, when the server could not be reached, the URL that
was tried) and the exit code the CLI ends with. The MCP server turns the same errors into tool
errors. Nothing here ever includes the API token.
"""

from __future__ import annotations

from typing import Any, ClassVar

EXIT_FAILED = 1
"""`smriti verify` found a problem in the history (the command itself worked)."""
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_CONFLICT = 4
EXIT_SERVER = 5
EXIT_MERGE_CONFLICTS = 6
"""`smriti merge` found conflicts for a person to resolve (the command itself worked; nothing was written)."""
EXIT_FORBIDDEN = 7
"""The server knows the caller and refuses it this (403): an agent key where only the person may, a
read-only key writing."""


class ClientError(Exception):
    """Base of every agent-side error. `detail` is one human-readable sentence or more."""

    exit_code: ClassVar[int] = EXIT_SERVER
    kind: ClassVar[str] = "error"

    def __init__(
        self,
        detail: str,
        *,
        status_code: int | None = None,
        errors: list[dict[str, Any]] | None = None,
        provider: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status_code = status_code
        self.errors = errors or []
        self.provider = provider

    def one_line(self) -> str:
        """The detail on a single line (for stderr and tool errors)."""
        return " ".join(self.detail.split())


class InvalidInput(ClientError):
    """The request was wrong: a bad flag value, unreadable JSON, or a 400/413/422 from the server."""

    exit_code = EXIT_USAGE
    kind = "invalid_input"


class MissingError(ClientError):
    """No such Space, Checkpoint or ref (a 404, or a Space name that matches nothing)."""

    exit_code = EXIT_NOT_FOUND
    kind = "not_found"


class ConflictError(ClientError):
    """The state moved underneath the request: HEAD is not the expected one, or a name is taken (409)."""

    exit_code = EXIT_CONFLICT
    kind = "conflict"


class OpenConflicts(ClientError):
    """A merge resolution left conflicts without a person's choice: nothing was written (exit 6, as
    for a preview with conflicts: they are still for a person to choose)."""

    exit_code = EXIT_MERGE_CONFLICTS
    kind = "open_conflicts"


class Refused(ClientError):
    """The caller may not do this (403): only the person merges a proposal or manages agent keys,
    and a read-only agent key only reads. Another key, or the person's token, is the way."""

    exit_code = EXIT_FORBIDDEN
    kind = "forbidden"


class ServerError(ClientError):
    """The server answered with an error that is not the caller's to fix (401, 429, 5xx, a non-Smriti answer)."""

    exit_code = EXIT_SERVER
    kind = "server_error"


class Unreachable(ServerError):
    """No answer at all: connection refused, DNS failure, or a timeout. `url` is what was tried."""

    kind = "unreachable"

    def __init__(self, detail: str, *, url: str) -> None:
        super().__init__(detail)
        self.url = url


def error_for_status(status_code: int, detail: str, **extra: Any) -> ClientError:
    """The typed error for an HTTP error status from the API."""
    kind: type[ClientError]
    if status_code == 404:
        kind = MissingError
    elif status_code == 409:
        kind = ConflictError
    elif status_code in {400, 413, 422}:
        kind = InvalidInput
    elif status_code == 403:
        kind = Refused
    else:
        kind = ServerError
    return kind(detail, status_code=status_code, **extra)
