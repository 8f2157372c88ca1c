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

SpaceRef = Annotated[
    str, msgspec.Meta(min_length=1, description="The Space's exact name, or its id.", examples=["Lisbon trip"])
]
CheckpointRef = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        description="A Checkpoint's id, its full commit_hash, or a unique prefix of the hash (at least 7 hex digits).",
    ),
]
LineName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        description="A line's name (matched ignoring case). Each line of a Space has its own HEAD.",
        examples=["main"],
    ),
]
LineText = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Ref = Annotated[str, msgspec.Meta(min_length=1)]
OptionalLine = Annotated[
    LineText | None,
    msgspec.Meta(
        description="A line's name (matched ignoring case); omit for the Space's default line, whose HEAD is "
        "the Space's HEAD.",
    ),
]
Limit = Annotated[int, msgspec.Meta(ge=1, le=200, description="How many to return (1–200).")]
Offset = Annotated[int, msgspec.Meta(ge=0, description="How many to skip.")]

ClientSource = Callable[[], SmritiClient]


class Args(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every tool's arguments: an unknown argument is an error, not silently ignored."""


@dataclass(frozen=True, slots=True)
class Call:
    """What a tool gets besides its arguments."""

    client: SmritiClient
    default_author: str


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
