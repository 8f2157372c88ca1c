"""What the event tests share: a pool, Spaces, agent keys, and events written as a change would."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.db.pool import Pool, create_pool
from smriti.events.record import record
from smriti.events.sequencer import number_events


@pytest.fixture
async def events_pool(database_url: str, db: asyncpg.Connection) -> AsyncIterator[Pool]:
    pool = await create_pool(database_url, size=4)
    try:
        yield pool
    finally:
        await pool.close()


async def make_space(client: httpx.AsyncClient, name: str) -> uuid.UUID:
    """A new Space, returned once its own `space.created` is numbered (the app's hub numbers it
    within a tick), so a stream opened after this starts after it."""
    response = await client.post("/v4/repos", json={"name": f"{name}-{uuid.uuid4().hex[:6]}"})
    assert response.status_code == 201, response.text
    repo_id = uuid.UUID(response.json()["id"])
    async with asyncio.timeout(5):
        while not (await client.get(f"/v5/repos/{repo_id}/events")).json()["items"]:  # noqa: ASYNC110 - polled
            await asyncio.sleep(0.02)
    return repo_id


async def get_page(client: httpx.AsyncClient, path: str, **params: Any) -> dict[str, Any]:
    """A page of events (200 asserted)."""
    response = await client.get(path, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def newest(pool: Pool) -> int:
    """The newest numbered event's id: what a test's own events come after."""
    return int(await pool.fetchval("SELECT coalesce(max(id), 0) FROM events"))


def written(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events `write_events` wrote, among a page's or a stream's."""
    return [e for e in items if e["type"] == "turns.added" and "n" in e["data"]]


async def make_agent(
    client: httpx.AsyncClient, spaces: list[uuid.UUID] | None, *, name: str = "planner", write: bool = True
) -> str:
    response = await client.post(
        "/v5/agents",
        json={"name": name, "spaces": None if spaces is None else [str(s) for s in spaces], "write": write},
    )
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


async def write_events(pool: Pool, repo_id: uuid.UUID, count: int, *, number: bool = True) -> None:
    """`count` events of `repo_id`, each in its own transaction, as a change writes them; numbered
    at once unless `number` is False (then a hub, or the test, numbers them)."""
    for n in range(count):
        async with pool.acquire() as conn, conn.transaction():
            await record(
                conn,
                repo_id,
                "turns.added",
                {"n": n, "session_id": None, "from_seq": n, "to_seq": n, "stopped": False},
                agent=None,
            )
    if number:
        await number_all(pool)


async def number_all(pool: Pool) -> None:
    """Every committed event numbered. `number_events` leaves the work to another numberer that holds
    the lock (a running app's hub), so it is asked again until none is left."""
    async with asyncio.timeout(5):
        while True:
            await number_events(pool)
            if not await pool.fetchval("SELECT EXISTS (SELECT 1 FROM events WHERE id IS NULL)"):
                return
            await asyncio.sleep(0.01)
