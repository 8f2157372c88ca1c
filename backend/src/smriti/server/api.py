"""The API's surface, assembled in one place from what each domain declares in its `routes.py`.

Each version is one router carrying the token check; the web app's fallback and the OpenAPI
document see the same routers, so nothing here is restated elsewhere.
"""

from __future__ import annotations

from litestar import Router

from smriti.access.guard import Middleware
from smriti.access.routes import ROUTES as AGENTS
from smriti.bundles.routes import ROUTES as BUNDLES
from smriti.chat.routes import ROUTES as CHAT
from smriti.checkpoints.routes import ROUTES as CHECKPOINTS
from smriti.core.routes import VERSIONS, Routes
from smriti.drafting.routes import ROUTES as DRAFTING
from smriti.events.routes import ROUTES as EVENTS
from smriti.lines.routes import ROUTES as LINES
from smriti.merges.routes import ROUTES as MERGES
from smriti.proposals.routes import ROUTES as PROPOSALS
from smriti.providers.routes import ROUTES as PROVIDERS
from smriti.review.routes import ROUTES as REVIEW
from smriti.search.routes import ROUTES as SEARCH
from smriti.sessions.routes import ROUTES as SESSIONS
from smriti.spaces.routes import ROUTES as SPACES
from smriti.transcripts.routes import ROUTES as TRANSCRIPTS
from smriti.webhooks.routes import ROUTES as WEBHOOKS

# In this order in the OpenAPI document (and so in the web app's generated types).
DOMAINS: tuple[Routes, ...] = (
    SPACES,
    BUNDLES,
    DRAFTING,
    REVIEW,
    CHECKPOINTS,
    LINES,
    MERGES,
    SESSIONS,
    CHAT,
    PROVIDERS,
    TRANSCRIPTS,
    SEARCH,
    AGENTS,
    PROPOSALS,
    EVENTS,
    WEBHOOKS,
)


def api_routers(protection: list[Middleware]) -> list[Router]:
    """One router per API version, each holding every domain's routes of that version."""
    return [
        Router(
            path=f"/{version}",
            route_handlers=[h for domain in DOMAINS for h in domain.of(version)],
            middleware=protection,
        )
        for version in VERSIONS
    ]
