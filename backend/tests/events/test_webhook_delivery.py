"""Webhook delivery (SYSTEM.md §14): signed, in order, at least once, once across processes,
retried then disabled, never to a private address, never following a redirect; a stopped
deliverer's event is delivered after the restart. A real receiver on 127.0.0.1 (so these allow
private addresses, except where the refusal is the point)."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from smriti.access.caller import Agent
from smriti.core.config import Settings
from smriti.db.pool import Pool, create_pool
from smriti.events.record import EventType, record
from smriti.webhooks.addresses import resolve_system
from smriti.webhooks.deliverer import Deliverer
from smriti.webhooks.schedule import retry_delay_s
from smriti.webhooks.schemas import WebhookCreate
from smriti.webhooks.store import WebhookStore
from tests.conftest import make_client
from tests.events.support import number_all
from tests.support.api import create_space
from tests.support.webhook_receiver import Answer, WebhookReceiver, signature_is_valid


@pytest.fixture
def receiver() -> Any:
    with WebhookReceiver() as running:
        yield running


async def until(condition: Callable[[], Any], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def write_events(pool: Pool, repo_id: uuid.UUID, count: int, type: EventType = "turns.added") -> None:
    for k in range(count):
        async with pool.acquire() as conn, conn.transaction():
            await record(conn, repo_id, type, {"k": k}, agent=None)


async def make_webhook(
    pool: Pool, url: str, *, allow_private: bool = True, resolve: Any = resolve_system, **fields: Any
) -> tuple[uuid.UUID, str]:
    made = await WebhookStore(pool, allow_private=allow_private, resolve=resolve).create(
        WebhookCreate(url=url, **fields)
    )
    return made.id, made.secret


@asynccontextmanager
async def delivering(pool: Pool, **options: Any) -> AsyncIterator[Deliverer]:
    options = {"allow_private": True, "retry_window_s": 3600.0, "poll_s": 0.05, **options}
    deliverer = Deliverer(pool, **options)
    deliverer.start()
    try:
        yield deliverer
    finally:
        await deliverer.stop()


async def test_the_app_delivers_each_new_event_signed_in_order(
    settings: Settings, db: asyncpg.Connection, receiver: WebhookReceiver, pool: Pool
) -> None:
    async with make_client(settings, webhook_allow_private=True) as client:
        space = await create_space(client, "watched")
        repo_id = uuid.UUID(space["id"])
        await write_events(pool, repo_id, 2, "line.created")  # before the webhook: not sent
        await number_all(pool)  # a webhook starts after the newest numbered event
        made = await client.post("/v5/webhooks", json={"url": receiver.url + "/in", "repo_id": space["id"]})
        assert made.status_code == 201, made.text
        secret = made.json()["secret"]
        await write_events(pool, uuid.uuid4(), 3)  # another Space's: not sent
        await write_events(pool, repo_id, 19)
        async with pool.acquire() as conn, conn.transaction():
            agent = Agent(id=uuid.uuid4(), name="planner", spaces=None, write=True)
            await record(conn, repo_id, "line.deleted", {"name": "b"}, agent=agent)
        await until(lambda: len(receiver.received) >= 20)
        await asyncio.sleep(0.3)  # nothing more comes
        deliveries = (await client.get(f"/v5/webhooks/{made.json()['id']}/deliveries")).json()["items"]
    received = receiver.received
    assert len(received) == 20
    events = [r.event for r in received]
    assert all(signature_is_valid(secret, r) for r in received)
    assert not signature_is_valid("whsec_" + "A" * 44, received[0])
    assert [int(r.webhook_id) for r in received] == [e["id"] for e in events]
    ids = [e["id"] for e in events]
    assert ids == sorted(ids)
    assert len(set(ids)) == 20
    assert [e["data"] for e in events[:19]] == [{"k": k} for k in range(19)]
    assert {e["repo_id"] for e in events} == {space["id"]}
    assert events[0]["actor"] == {"kind": "human", "name": "person"}
    assert events[-1]["type"] == "line.deleted"
    assert events[-1]["actor"] == {"kind": "agent", "name": "planner", "id": str(agent.id)}
    assert set(events[0]) == {"id", "type", "at", "repo_id", "actor", "data"}
    first = received[0]
    assert first.path == "/in"
    assert first.headers["content-type"] == "application/json"
    assert abs(int(first.headers["webhook-timestamp"]) - time.time()) < 60
    assert [d["event_id"] for d in deliveries] == ids[::-1]  # newest first
    assert {(d["attempt"], d["status_code"], d["error"]) for d in deliveries} == {(1, 200, None)}


async def test_a_failed_event_is_sent_again_before_the_next(pool: Pool, receiver: WebhookReceiver) -> None:
    webhook_id, _ = await make_webhook(pool, receiver.url)
    receiver.answer(Answer(status=500))
    await write_events(pool, uuid.uuid4(), 2)
    async with delivering(pool):
        await until(lambda: len(receiver.received) >= 3, timeout_s=15)
        await asyncio.sleep(0.2)
    ids = [r.webhook_id for r in receiver.received]
    assert len(ids) == 3
    assert ids[0] == ids[1] != ids[2]  # the same event again (same webhook-id), then the next
    assert int(ids[2]) == int(ids[1]) + 1
    rows = await pool.fetch(
        "SELECT event_id, attempt, status_code, error FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id",
        webhook_id,
    )
    assert [(r["attempt"], r["status_code"]) for r in rows] == [(1, 500), (2, 200), (1, 200)]
    assert rows[0]["error"].startswith("HTTP 500")


async def test_a_hanging_receiver_does_not_hold_up_another_webhook(pool: Pool, receiver: WebhookReceiver) -> None:
    released = threading.Event()
    with WebhookReceiver() as hanging:
        hanging.answer(Answer(hold=released))
        await make_webhook(pool, hanging.url)
        await make_webhook(pool, receiver.url)
        await write_events(pool, uuid.uuid4(), 3)
        try:
            async with delivering(pool):
                await until(lambda: len(receiver.received) == 3 and len(hanging.received) == 1)
                await asyncio.sleep(0.2)
                assert len(hanging.received) == 1  # still on its first event: in order
        finally:
            released.set()


async def test_a_410_disables_the_webhook_at_once(pool: Pool, receiver: WebhookReceiver) -> None:
    webhook_id, _ = await make_webhook(pool, receiver.url)
    receiver.answer(Answer(status=410))
    await write_events(pool, uuid.uuid4(), 2)
    async with delivering(pool):
        await until(lambda: len(receiver.received) >= 1)
        await asyncio.sleep(0.5)
    assert len(receiver.received) == 1
    row = await pool.fetchrow("SELECT active, disabled_reason FROM webhooks WHERE id = $1", webhook_id)
    assert row is not None
    assert row["active"] is False
    assert "410" in row["disabled_reason"]


async def test_a_receiver_failing_past_the_retry_window_disables_the_webhook(
    pool: Pool, receiver: WebhookReceiver
) -> None:
    webhook_id, _ = await make_webhook(pool, receiver.url)
    receiver.answer(*[Answer(status=503)] * 10)
    await write_events(pool, uuid.uuid4(), 1)
    async with delivering(pool, retry_window_s=1.0):
        await until(lambda: len(receiver.received) >= 2)
        await asyncio.sleep(1.0)
    assert len(receiver.received) == 2  # the first attempt, and the last when the window ended
    row = await pool.fetchrow("SELECT active, disabled_reason FROM webhooks WHERE id = $1", webhook_id)
    assert row is not None
    assert row["active"] is False
    assert "failed for" in row["disabled_reason"]
    assert "HTTP 503" in row["disabled_reason"]


async def test_a_redirect_is_not_followed(pool: Pool, receiver: WebhookReceiver) -> None:
    with WebhookReceiver() as redirecting:
        redirecting.answer(Answer(status=302, location=receiver.url + "/private"))
        webhook_id, _ = await make_webhook(pool, redirecting.url)
        await write_events(pool, uuid.uuid4(), 1)
        async with delivering(pool):
            await until(lambda: len(redirecting.received) >= 1)
            await asyncio.sleep(0.5)
    assert receiver.received == []
    row = await pool.fetchrow("SELECT status_code, error FROM webhook_deliveries WHERE webhook_id = $1", webhook_id)
    assert row is not None
    assert row["status_code"] == 302
    assert "not followed" in row["error"]
    assert await pool.fetchval("SELECT attempts FROM webhooks WHERE id = $1", webhook_id) == 1


async def test_a_name_that_resolves_to_a_private_address_at_delivery_is_not_sent(
    pool: Pool, receiver: WebhookReceiver
) -> None:
    answers = iter(["93.184.215.14", "127.0.0.1"])  # public when made; loopback when sent (rebinding)

    async def rebinding(host: str, port: int) -> list[str]:
        assert host == "hooks.example"
        return [next(answers, "127.0.0.1")]

    webhook_id, _ = await make_webhook(
        pool, f"http://hooks.example:{receiver.port}/", allow_private=False, resolve=rebinding
    )
    await write_events(pool, uuid.uuid4(), 1)
    async with delivering(pool, allow_private=False, resolve=rebinding):
        for _ in range(200):
            row = await pool.fetchrow(
                "SELECT status_code, error FROM webhook_deliveries WHERE webhook_id = $1", webhook_id
            )
            if row is not None:
                break
            await asyncio.sleep(0.05)
    assert receiver.received == []
    assert row is not None
    assert row["status_code"] is None
    assert "127.0.0.1" in row["error"]
    assert "not a public address" in row["error"]


async def test_the_connection_goes_to_the_checked_address_with_the_urls_host(
    pool: Pool, receiver: WebhookReceiver
) -> None:
    async def resolve(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    await make_webhook(pool, f"http://hooks.example:{receiver.port}/pinned", resolve=resolve)
    await write_events(pool, uuid.uuid4(), 1)
    async with delivering(pool, resolve=resolve):
        await until(lambda: len(receiver.received) == 1)
    assert receiver.received[0].headers["host"] == f"hooks.example:{receiver.port}"
    assert receiver.received[0].path == "/pinned"


async def test_two_processes_deliver_each_event_once(pool: Pool, database_url: str, receiver: WebhookReceiver) -> None:
    other = await create_pool(database_url, size=4)  # another process's pool
    try:
        for _ in range(3):
            await make_webhook(pool, receiver.url)
        await write_events(pool, uuid.uuid4(), 20)
        async with delivering(pool), delivering(other):
            await until(lambda: len(receiver.received) >= 60, timeout_s=20)
            await asyncio.sleep(0.5)
    finally:
        await other.close()
    received = receiver.received
    assert len(received) == 60
    assert sorted(int(r.webhook_id) for r in received) == sorted(list(range(1, 21)) * 3)


async def test_an_event_in_flight_when_the_deliverer_stops_is_delivered_after_the_restart(
    pool: Pool, database_url: str, receiver: WebhookReceiver
) -> None:
    released = threading.Event()
    receiver.answer(Answer(hold=released))
    webhook_id, _ = await make_webhook(pool, receiver.url)
    await write_events(pool, uuid.uuid4(), 2)
    try:
        async with delivering(pool):
            await until(lambda: len(receiver.received) == 1)
        # stopped while the receiver held the request: its event is not marked delivered
        assert await pool.fetchval("SELECT delivered_through FROM webhooks WHERE id = $1", webhook_id) == 0
    finally:
        released.set()
    restarted = await create_pool(database_url, size=4)
    try:
        async with delivering(restarted):
            await until(lambda: len(receiver.received) == 3)
    finally:
        await restarted.close()
    assert [int(r.webhook_id) for r in receiver.received] == [1, 1, 2]


async def test_a_killed_deliverers_lease_runs_out_and_the_event_is_delivered(
    pool: Pool, database_url: str, receiver: WebhookReceiver
) -> None:
    released = threading.Event()
    receiver.answer(Answer(hold=released))
    webhook_id, _ = await make_webhook(pool, receiver.url)
    await write_events(pool, uuid.uuid4(), 1)
    killed = Deliverer(pool, allow_private=True, retry_window_s=3600, poll_s=0.05)
    killed.start()
    try:
        await until(lambda: len(receiver.received) == 1)
        async with delivering(pool):  # another process: the lease keeps it away
            await asyncio.sleep(0.5)
            assert len(receiver.received) == 1
            # the first process dies (nothing gives its lease back) and its lease's time passes
            await pool.fetchval(
                "UPDATE webhooks SET lease_until = now() - interval '1 second' WHERE id = $1", webhook_id
            )
            await until(lambda: len(receiver.received) == 2)
    finally:
        released.set()
        await killed.stop()
    assert [int(r.webhook_id) for r in receiver.received] == [1, 1]


async def test_only_the_latest_100_deliveries_are_kept(pool: Pool, receiver: WebhookReceiver) -> None:
    webhook_id, _ = await make_webhook(pool, receiver.url)
    await write_events(pool, uuid.uuid4(), 105)
    async with delivering(pool):
        await until(lambda: len(receiver.received) == 105, timeout_s=30)
        await asyncio.sleep(0.3)  # the last result is written
    event_ids = [
        r["event_id"]
        for r in await pool.fetch(
            "SELECT event_id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id", webhook_id
        )
    ]
    assert event_ids == list(range(6, 106))


async def test_the_app_stops_promptly_with_a_delivery_in_flight(
    settings: Settings, db: asyncpg.Connection, receiver: WebhookReceiver, pool: Pool
) -> None:
    released = threading.Event()
    receiver.answer(Answer(hold=released))
    try:
        async with make_client(settings, webhook_allow_private=True) as client:
            made = await client.post("/v5/webhooks", json={"url": receiver.url})
            assert made.status_code == 201, made.text
            await write_events(pool, uuid.uuid4(), 1)
            await until(lambda: len(receiver.received) == 1)
            stopping = time.monotonic()
        assert time.monotonic() - stopping < 2  # not the 10 s the attempt may take
        # its lease was given back: the next process may send the event at once
        assert await pool.fetchval("SELECT lease_holder FROM webhooks") is None
    finally:
        released.set()


def test_retries_come_twice_within_30_s_then_at_most_hourly() -> None:
    delays = [retry_delay_s(n) for n in range(1, 30)]
    assert delays[0] + delays[1] <= 30  # the first two retries, counted from the first attempt
    assert delays == sorted(delays)
    assert max(delays) == 3600
    assert delays[-1] == 3600
