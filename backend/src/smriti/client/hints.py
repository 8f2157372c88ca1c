"""What to do next, said where a name is not found: the CLI's command or MCP's tool for it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hints:
    spaces: str
    """Said after "No Space named …"."""
    lines: str
    """Said after the server's "This Space has no line named …" (`core.errors.NO_LINE`)."""


CLI_HINTS = Hints(
    spaces="`smriti spaces` lists the Spaces there are.",
    lines="`smriti line list SPACE` lists a Space's lines.",
)
MCP_HINTS = Hints(
    spaces="The `list_spaces` tool lists the Spaces there are.",
    lines="The `list_lines` tool lists a Space's lines.",
)
