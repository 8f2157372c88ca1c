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
