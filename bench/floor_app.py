"""The floor: a bare Litestar app on the same server and pool settings as Smriti.

`GET /constant` is pure HTTP cost; `GET /row/{id}` is one asyncpg primary-key SELECT of a ~4 KB
JSONB row, decoded and encoded again; `POST /write` stores the ~4 KB JSON body it is sent as one
durable JSONB row (one INSERT, committed) and answers with its id. No Smriti read can do less work
than the one-query floor, and no Smriti write less than the write floor.
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from litestar import Litestar, get, post
from litestar.datastructures import State
from litestar.params import FromPath

from smriti.db.pool import create_pool


class Constant(msgspec.Struct):
    status: str
    value: int


@get("/constant", sync_to_thread=False)
def constant() -> Constant:
    return Constant(status="ok", value=42)


@get("/row/{row_id:int}")
async def row(row_id: FromPath[int], state: State) -> Any:
    return await state.pool.fetchval("SELECT doc FROM bench_floor WHERE id = $1", row_id)


@post("/write")
async def write(data: dict[str, Any], state: State) -> Constant:
    row_id = await state.pool.fetchval("INSERT INTO bench_floor_writes (doc) VALUES ($1) RETURNING id", data)
    return Constant(status="stored", value=row_id)


def create_floor_app() -> Litestar:
    url = os.environ["DATABASE_URL"]

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        app.state.pool = await create_pool(url, size=10)
        gc.collect()
        gc.freeze()  # as Smriti does at the end of start-up
        try:
            yield
        finally:
            await app.state.pool.close()

    return Litestar(
        route_handlers=[constant, row, write], lifespan=[lifespan], openapi_config=None, logging_config=None
    )
