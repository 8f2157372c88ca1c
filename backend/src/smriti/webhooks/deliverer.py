"""The per-process loop that delivers webhooks (SYSTEM.md §14; docs/reliability.md).

Each round it numbers committed events (`events/sequencer.py`: cheap, and safe from anywhere),
claims up to its free slots of due webhooks in one short transaction (`delivery_sql.CLAIM`: a
lease per webhook, taken FOR UPDATE SKIP LOCKED), and sends each claimed webhook's next event
in a task of its own, with no connection held; the result is written in a second short
transaction, only while the lease is still its own. So:

- at least once: the cursor moves only after a 2xx; a process that dies mid-delivery leaves a
  lease that runs out, and the event is sent again (receivers dedupe by `webhook-id`);
- in order per webhook: a webhook has one event in flight at most, the one after its cursor;
- once across processes: a leased webhook is claimed by no one else until the lease ends, and
  the lease outlasts the attempt (`timeout_s` + a margin);
- one slow receiver holds one slot of `concurrency`, never the others' deliveries.

A stop cancels the attempts in flight and gives their leases back, so a restart carries on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from typing import Any, Final

import asyncpg
import msgspec
import structlog

from smriti.db.pool import Pool
from smriti.events.log import to_event
from smriti.events.sequencer import number_events
from smriti.webhooks import delivery_sql
from smriti.webhooks.addresses import Resolver, resolve_system
from smriti.webhooks.schedule import retry_delay_s
from smriti.webhooks.sender import Outcome, Sender, http_client

log = structlog.get_logger(__name__)

_LEASE_MARGIN_S: Final = 20.0
"""How much longer than an attempt may take a lease lasts: time to write the result."""
_RELEASE_TIMEOUT_S: Final = 2.0


@dataclass(frozen=True, slots=True)
class _Claim:
    webhook_id: uuid.UUID
    url: str
    secret: bytes
    attempt: int
    event_id: int
    body: bytes
    holder: uuid.UUID


def event_body(row: asyncpg.Record) -> bytes:
    """The event as the event pages show it, encoded once."""
    return msgspec.json.encode(to_event(row, id_column="event_id"))


class Deliverer:
    def __init__(
        self,
        pool: Pool,
        *,
        allow_private: bool,
        retry_window_s: float,
        resolve: Resolver = resolve_system,
        timeout_s: float = 10.0,
        concurrency: int = 8,
        poll_s: float = 0.5,
    ) -> None:
        self._pool = pool
        self._retry_window_s = retry_window_s
        self._timeout_s = timeout_s
        self._concurrency = concurrency
        self._poll_s = poll_s
        self._sender = Sender(http_client(timeout_s), allow_private, resolve, timeout_s)
        self._in_flight: dict[asyncio.Task[None], _Claim] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        self._loop: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.create_task(self._run(), name="webhook deliverer")

    def stop_soon(self) -> None:
        """The server is stopping: claim nothing more (`stop` then ends what is in flight)."""
        self._stopping = True
        self._wake.set()

    async def stop(self) -> None:
        """Ends the loop and every attempt in flight, and gives back their leases."""
        self.stop_soon()
        tasks = [t for t in (self._loop, *self._in_flight) if t is not None]
        holders = list({claim.holder for claim in self._in_flight.values()})
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if holders:
            try:
                async with asyncio.timeout(_RELEASE_TIMEOUT_S):
                    await self._pool.fetchval(delivery_sql.RELEASE, holders)
            except Exception:  # the leases then run out by themselves
                log.warning("webhook leases not given back", exc_info=True)
        await self._sender.client.aclose()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                await self._claim_and_start()
            except Exception:
                log.exception("webhook claim failed; trying again")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._poll_s):
                    await self._wake.wait()

    async def _claim_and_start(self) -> None:
        free = self._concurrency - len(self._in_flight)
        if free <= 0:
            return
        await number_events(self._pool)
        holder = uuid.uuid4()
        lease_s = self._timeout_s + _LEASE_MARGIN_S
        rows = await self._pool.fetch(delivery_sql.CLAIM, free, holder, lease_s)  # one statement, committed
        for row in rows:
            if row["event_id"] is None:  # only its cursor moved: nothing for it among the new events
                continue
            claim = _Claim(
                webhook_id=row["id"],
                url=row["url"],
                secret=bytes(row["secret"]),
                attempt=row["attempts"] + 1,
                event_id=row["event_id"],
                body=event_body(row),
                holder=holder,
            )
            task = asyncio.create_task(self._deliver(claim), name=f"webhook {claim.webhook_id}")
            self._in_flight[task] = claim
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._in_flight.pop(task, None)
        self._wake.set()  # a slot is free, and the webhook may have its next event waiting

    async def _deliver(self, claim: _Claim) -> None:
        outcome = await self._sender.send(claim.url, claim.secret, claim.event_id, claim.body)
        try:
            await self._record(claim, outcome)
        except Exception:  # its lease runs out and the event is sent again
            log.exception("webhook result not written", webhook_id=str(claim.webhook_id))

    async def _record(self, claim: _Claim, outcome: Outcome) -> None:
        common: tuple[Any, ...] = (
            claim.webhook_id,
            claim.holder,
            claim.event_id,
            outcome.status_code,
            outcome.error,
            claim.attempt,
        )
        if outcome.delivered:
            await self._pool.fetchval(delivery_sql.DELIVERED, *common)
            return
        gone = "Its receiver answered 410 Gone: it asks to be sent nothing more." if outcome.gone else None
        hours = self._retry_window_s / 3600
        ran_out = (
            f"Every attempt to deliver event {claim.event_id} failed for {hours:g} hours "
            f"(SMRITI_WEBHOOK_RETRY_HOURS); the last: {outcome.error}"
        )
        await self._pool.fetchval(
            delivery_sql.FAILED, *common, retry_delay_s(claim.attempt), self._retry_window_s, gone, ran_out
        )
        log.info(
            "webhook delivery failed",
            webhook_id=str(claim.webhook_id),
            event_id=claim.event_id,
            attempt=claim.attempt,
            error=outcome.error,
        )
