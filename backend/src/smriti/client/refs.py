"""Relative Checkpoint refs, as Git spells them: `HEAD`, `HEAD~2`, `HEAD^`.

The API names Checkpoints by id, full hash or unique prefix. An agent at a shell thinks in
"HEAD" and "the one before": these resolve, against one Space (and optionally one of its lines),
to an id through that line's first-parent history, in at most three requests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from smriti.client.errors import InvalidInput, MissingError

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient

_RELATIVE = re.compile(r"^HEAD(?:~(\d{1,6})|(\^+))?$")
MAX_STEPS = 100_000


def steps_back(ref: str) -> int | None:
    """How many first parents back from HEAD `ref` means, or None when it is not a relative ref."""
    match = _RELATIVE.match(ref.strip())
    if match is None:
        return None
    tilde, carets = match.groups()
    return int(tilde) if tilde is not None else len(carets or "")


async def resolve_ref(client: SmritiClient, ref: str, *, space: str | None, line: str | None) -> str:
    """`ref` as the API takes it: an id for `HEAD`-relative refs, anything else unchanged."""
    steps = steps_back(ref)
    if steps is None:
        return ref
    if space is None:
        raise InvalidInput(
            f"{ref.strip()} needs a Space (the CLI's --space, the MCP tool's `space`): HEAD is a Space's "
            "(or, with a line, one line's)."
        )
    if steps > MAX_STEPS:
        raise InvalidInput(f"{ref.strip()}: at most {MAX_STEPS:,} steps back.")
    found = await client.resolve_space(space)
    name = line
    if name is None:  # the Space's HEAD is its default line's
        name = next((each.name for each in await client.all_lines(found.id) if each.is_default), None)
        if name is None:
            raise MissingError(f"Space {found.name!r} has no Checkpoint yet, so it has no HEAD.")
    page = await client.log(found.id, limit=1, offset=steps, line=name)
    if not page.items:
        before = max(page.total - 1, 0)
        raise MissingError(
            f"{ref.strip()}: line {name!r} of {found.name!r} has {before} Checkpoint(s) before its HEAD"
            + ("" if page.total else " (it has none at all)")
            + "."
        )
    return str(page.items[0].id)
