"""How a domain declares its HTTP routes: by API version, in the domain's own `routes.py`.

The version split is the seed's: v4 holds Spaces, Sessions, sending and agent state; v5 drafting
and the newer operations; v1 transcripts. `smriti.server.api` assembles every domain's routes
under their versions, behind the API token, so a route is declared once, in its domain.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar.types import ControllerRouterHandler

VERSIONS = ("v1", "v4", "v5")


@dataclass(frozen=True, slots=True)
class Routes:
    v1: tuple[ControllerRouterHandler, ...] = ()
    v4: tuple[ControllerRouterHandler, ...] = ()
    v5: tuple[ControllerRouterHandler, ...] = ()

    def of(self, version: str) -> tuple[ControllerRouterHandler, ...]:
        handlers: tuple[ControllerRouterHandler, ...] = getattr(self, version)
        return handlers


NDJSON = "application/x-ndjson"
"""One JSON object a line: a Space bundle, a Claude Code session's transcript."""

BODY_TYPES = "smriti_body_types"
"""The `opt` key of a handler that reads a body in other media types than JSON (`body_types`)."""
ANY_BODY = "*"
"""For `body_types`: the handler refuses what it cannot read itself (the MCP SDK's transport does)."""


def body_types(*media_types: str) -> dict[str, frozenset[str]]:
    """A handler's `opt=`: the media types besides JSON it reads its body in. Every other POST, PUT
    or PATCH body not declared as JSON is refused with 415 before it is read (`server/request_rules.py`):
    a web page may send those across sites without asking first."""
    return {BODY_TYPES: frozenset(media_types)}


ACCESS = "smriti_access"
"""The `opt` key saying what a route does with the Spaces it names (`access/guard.py` holds agent
keys to it): every route that is not a GET says it, `tests/access/test_space_scope.py` fails on
one that does not."""
READS = "reads"
"""Only reads, whatever its method (a preview, a review, a search): a read-only agent key may use it."""
WRITES = "writes"
"""Changes what is stored: a read-only agent key gets a 403."""
CREATES_SPACES = "creates_spaces"
"""Makes a Space: only the person, or an agent whose key reaches every Space (`spaces: null`)."""


def access(what: str) -> dict[str, str]:
    """A handler's `opt=`: `READS`, `WRITES` or `CREATES_SPACES` (merge it with `body_types`)."""
    return {ACCESS: what}
