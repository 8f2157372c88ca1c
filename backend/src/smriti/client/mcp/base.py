"""What every MCP tool is made of: argument Structs, the call context and the tool's description.

Tool arguments are msgspec Structs, so their JSON schemas come from the same types the API uses;
the tools themselves live by domain in `tools` (Spaces and Checkpoints), `commit` (saving) and
`lines` (lines, restore, forks), and `server` serves them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec

from smriti.client.api import SmritiClient
from smriti.client.errors import ClientError, ConflictError, InvalidInput, MissingError, OpenConflicts, Unreachable

# Every text argument that reaches the API's address (a path or a query) is bounded here by what
# the API itself accepts, so an over-long one is refused as an invalid argument, by its name,
# before any request: one of 100 KB made a URL httpx refuses (an "internal error").
MAX_REF = 64
"""A full commit_hash (64 hex digits) is the longest ref; a Checkpoint id is 36 characters."""
MAX_NAME = 200
"""The longest name of a Space the API takes (`ShortName`)."""
SpaceRef = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=MAX_NAME, description="The Space's exact name, or its id.", examples=["Lisbon trip"]
    ),
]
CheckpointRef = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_REF,
        description="A Checkpoint's id, its full commit_hash, a unique prefix of the hash (at least 7 hex digits), "
        "or HEAD, HEAD~N, HEAD^ of `space` (its default line's, or `line`'s).",
    ),
]
LineName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        description="A line's name (matched whatever its case, Unicode form or spacing). Each line of a Space has "
        "its own HEAD.",
        examples=["main"],
    ),
]
LineText = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Ref = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REF)]
"""A Checkpoint ref (id, hash or prefix); the description is the argument's."""
Message = Annotated[str, msgspec.Meta(min_length=1)]
"""A Checkpoint's message: as long as the API's body limit allows."""
OptionalLine = Annotated[
    LineText | None,
    msgspec.Meta(
        description="A line's name (matched whatever its case, Unicode form or spacing); omit for the Space's "
        "default line, whose HEAD is the Space's HEAD.",
    ),
]
Limit = Annotated[int, msgspec.Meta(ge=1, le=200, description="How many to return (1–200).")]
Offset = Annotated[int, msgspec.Meta(ge=0, description="How many to skip.")]

ClientSource = Callable[[], SmritiClient]


class Args(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every tool's arguments: an unknown argument is an error, not silently ignored."""


DEFAULT_AGENT = "mcp-agent"


@dataclass(frozen=True, slots=True)
class Call:
    """What a tool gets besides its arguments."""

    client: SmritiClient
    configured_author: str | None = None
    """The name set for this connection outside the model: the `X-Smriti-Agent` header over HTTP,
    `SMRITI_AGENT_NAME` over stdio."""
    client_name: str | None = None
    """The name the MCP client gave in its handshake (`clientInfo`), where the server sees it."""

    def author(self, given: str | None) -> str:
        """Who a save is credited to: the configured name first (whoever set up the host chose it;
        the model cannot change it), then the tool's `author` argument, then the client's own
        name, then `mcp-agent`. docs/agents.md lists the same order."""
        for name in (self.configured_author, given, self.client_name):
            if name is not None and name.strip():
                return name.strip()
        return DEFAULT_AGENT


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    title: str
    description: str
    args: type[Args]
    output: Any
    run: Callable[[Call, Any], Awaitable[Any]]
    read_only: bool = True
    destructive: bool = False
    """Removes something (a line's name; never a Checkpoint): hosts may ask the person first."""
    text: Callable[[Any], str] | None = None
    """The text content of a result; JSON of the structured result when None."""


def shown(text: str, limit: int = 120) -> str:
    """`text` quoted for a message, cut: an unknown name or address may be as long as the request."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


_KIND_LABELS: tuple[tuple[type[ClientError], str], ...] = (
    (Unreachable, "Smriti server unreachable"),
    (InvalidInput, "Invalid input"),
    (MissingError, "Not found"),
    (ConflictError, "Conflict"),
    (OpenConflicts, "Open conflicts"),
)


def error_label(exc: ClientError) -> str:
    """What kind of failure `exc` is, as the first words of a tool's or a request's error."""
    for kind, label in _KIND_LABELS:
        if isinstance(exc, kind):
            return label
    return f"Server error{f' {exc.status_code}' if exc.status_code else ''}"
