"""The floor: a bare Litestar app on the same server and pool settings as Smriti.

`GET /constant` is pure HTTP cost; `GET /row/{id}` is one asyncpg primary-key SELECT of a ~4 KB
JSONB row, decoded and encoded again; `POST /write` stores the ~4 KB JSON body it is sent as one
durable JSONB row (one INSERT, committed) and answers with its id; `GET /search?q=` is the bare
full-text lookup search is measured against, `GET /search-ranked?q=` the same ranked with an
excerpt of each of the best 20 (bench/searching.py). No Smriti read can do less work
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


# The floor of `GET /v5/search` (bench/searching.py): the bare index lookup on both tables,
# the first 20 rows found, nothing ranked, counted or cut into snippets.
_SEARCH_FLOOR = """
WITH q AS (SELECT websearch_to_tsquery('english', $1) AS query)
(SELECT id FROM commits WHERE search_vector @@ (SELECT query FROM q) LIMIT 20)
UNION ALL
(SELECT session_id FROM turns WHERE search_vector @@ (SELECT query FROM q) LIMIT 20)
LIMIT 20
"""


# What no ranked search with snippets can do without: the same candidates ranked, and an
# excerpt of each of the best 20 (no counts, no field, no offsets): a second, fairer floor.
_RANKED_FLOOR = """
WITH q AS (SELECT websearch_to_tsquery('english', $1) AS query),
hits AS (
  (SELECT id, search_vector AS vector, summary AS body FROM commits
   WHERE search_vector @@ (SELECT query FROM q) LIMIT 10001)
  UNION ALL
  (SELECT session_id, search_vector, content FROM turns
   WHERE search_vector @@ (SELECT query FROM q) LIMIT 10001)
)
SELECT id, ts_headline('english', body, (SELECT query FROM q)) FROM (
  SELECT id, body FROM hits ORDER BY ts_rank(vector, (SELECT query FROM q), 1) DESC LIMIT 20
) AS best
"""


@get("/search")
async def search(q: str, state: State) -> list[str]:
    return [str(row[0]) for row in await state.pool.fetch(_SEARCH_FLOOR, q)]


@get("/search-ranked")
async def search_ranked(q: str, state: State) -> list[list[str]]:
    return [[str(row[0]), row[1]] for row in await state.pool.fetch(_RANKED_FLOOR, q)]


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
        route_handlers=[constant, row, write, search, search_ranked],
        lifespan=[lifespan],
        openapi_config=None,
        logging_config=None,
    )
