from __future__ import annotations

import asyncio

import msgspec
from litestar import Response, get
from litestar.di import NamedDependency

from smriti.core.error_docs import error_responses
from smriti.db.pool import Pool


class Health(msgspec.Struct):
    status: str
    database: str


@get(
    "/health",
    operation_id="health",
    summary="Liveness and database reachability",
    tags=["Health"],
    responses=error_responses(),  # a refused Host header (request_rules) is a 400
    security=[{}],  # answered without the token: a load balancer has none
)
async def health(pool: NamedDependency[Pool]) -> Response[Health]:
    """Reports only status words: nothing about versions, hosts or configuration."""
    try:
        await asyncio.wait_for(pool.fetchval("SELECT 1"), timeout=2)
    except Exception:  # any failure to answer means the same thing here
        return Response(Health(status="degraded", database="unavailable"), status_code=503)
    return Response(Health(status="ok", database="ok"), status_code=200)
