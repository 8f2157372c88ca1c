"""How this process learns of new events and hands them to its streams (SYSTEM.md §14).

One loop per process, every `TICK_S`: it numbers what was committed (`sequencer.number_events`;
one process at a time does the work) and reads the events after the last id it has seen, one
short statement on a pooled connection. Each event is then handed, in memory, to every
subscriber of this process it concerns. It polls rather than LISTENs: LISTEN needs a session of
its own for as long as it listens, which a transaction-mode pooler (PgBouncer) does not give,
and which would be one more connection held per process; polling costs two indexed statements a
tick whatever the number of streams, and an event reaches a stream within a tick or two after
its change commits, on whichever process wrote it.

A subscriber's queue is bounded (`QUEUE_LIMIT`): one whose client reads slower than events come
is marked `behind`, its queue emptied, and its stream catches up from the log itself
(`events/stream.py`), so a client that stops reading costs a bounded amount of memory. The
streams themselves are bounded too: `max_streams` a process (each holds a socket and a file
descriptor), and an agent key a tenth of them, so that one agent cannot shut out the rest; past
either, opening one is a 503. The hub holds its subscribers weakly: a stream whose response never
ran (its client went before the first byte) leaves nothing registered behind it.

Once an hour (and at start) the loop also applies retention (`retention.py`), and twice a second
it ends the streams of agent keys revoked since they opened (one query for all of them). A database error
in a tick is logged and the next tick tries again; `stop` ends every stream and the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final
from uuid import UUID

import structlog

from smriti.core.errors import Unavailable
from smriti.db.pool import Pool
from smriti.events.log import events_after, newest_id
from smriti.events.retention import prune_events
from smriti.events.schemas import Event
from smriti.events.sequencer import number_events

log = structlog.get_logger("smriti")

TICK_S: Final = 0.1
QUEUE_LIMIT: Final = 256
"""Events waiting for one stream's client; past it the stream catches up from the log."""
MAX_STREAMS: Final = 2000
"""Event streams a process holds at once (`SMRITI_MAX_EVENT_STREAMS`); an agent key a tenth of them."""
STREAMS_FULL_RETRY_S: Final = 5
READ_BATCH: Final = 1000
PRUNE_EVERY_S: Final = 3600.0
RETRY_S: Final = 60.0
"""The longest a failed round (retention's, at start with the database away) waits to try again."""
KEYS_CHECK_S: Final = 0.5
"""How often the agent keys of open streams are checked: a revoked key's streams end within a
second, as every other request with it is refused (`access/keys.FRESH_S`)."""
_LIVE_KEYS_SQL: Final = "SELECT id FROM agents WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL"


@dataclass(eq=False)
class Subscriber:
    """One stream's share of the feed: the events of `repo_id` (None: any Space) among `spaces`
    (None: every Space)."""

    repo_id: UUID | None
    spaces: frozenset[UUID] | None
    agent_id: UUID | None = None
    """The agent key the stream was opened with (None: the person): its revocation ends the stream."""
    pending: deque[Event] = field(default_factory=deque)
    behind: bool = False
    """Events were dropped for want of room: the stream must read the log from its last id."""
    closed: bool = False
    """The hub stopped: the stream ends."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def wants(self, event: Event) -> bool:
        return (self.repo_id is None or event.repo_id == self.repo_id) and (
            self.spaces is None or event.repo_id in self.spaces
        )

    def offer(self, event: Event) -> None:
        if self.behind:
            return
        if len(self.pending) >= QUEUE_LIMIT:
            self.pending.clear()
            self.behind = True
        else:
            self.pending.append(event)
        self.wake.set()


class EventHub:
    def __init__(
        self, pool: Pool, *, retention_days: int, max_streams: int = MAX_STREAMS, tick_s: float = TICK_S
    ) -> None:
        self._pool = pool
        self._retention_days = retention_days
        self._max_streams = max_streams
        self._tick_s = tick_s
        # Weak: a subscriber lives as long as its stream does (`events/stream.py` holds it).
        self._subscribers: weakref.WeakSet[Subscriber] = weakref.WeakSet()
        self._seen: int | None = None  # the last id handed out; None until the first tick read it
        self._keys_checked_at = float("-inf")
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._every(self._tick_s, self.tick), name="event hub"),
            # Apart, so that a long backlog to remove never holds up the streams.
            asyncio.create_task(self._every(PRUNE_EVERY_S, self.prune), name="event retention"),
        ]

    def stop(self) -> None:
        """Ends every stream of this process (each sees `closed`) and the loop; idempotent."""
        self._stopped = True
        for subscriber in self._subscribers:
            subscriber.closed = True
            subscriber.wake.set()
        for task in self._tasks:
            task.cancel()

    async def close(self) -> None:
        self.stop()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def subscribe(
        self, *, repo_id: UUID | None, spaces: frozenset[UUID] | None, agent_id: UUID | None = None
    ) -> Subscriber:
        """A new stream's share of the feed; 503 when this process holds its `max_streams`, or the
        agent key a tenth of them."""
        if len(self._subscribers) >= self._max_streams:
            raise Unavailable(
                f"This server process holds {self._max_streams:,} event streams already (SMRITI_MAX_EVENT_STREAMS); "
                "retry in a moment.",
                retry_after_s=STREAMS_FULL_RETRY_S,
            )
        per_key = max(1, self._max_streams // 10)
        if agent_id is not None and sum(1 for s in self._subscribers if s.agent_id == agent_id) >= per_key:
            raise Unavailable(
                f"This agent key holds {per_key:,} event streams on this server process already; close one "
                "(GET /v5/events streams every Space the key reads at once).",
                retry_after_s=STREAMS_FULL_RETRY_S,
            )
        subscriber = Subscriber(repo_id, spaces, agent_id, closed=self._stopped)
        self._subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.discard(subscriber)

    async def _every(self, period_s: float, work: Callable[[], Awaitable[bool]]) -> None:
        while True:
            started = time.monotonic()
            try:
                more = await work()
            except Exception as exc:  # the database is away or busy: the next round tries again
                log.warning(
                    "event hub round failed", work=work.__name__, error=type(exc).__name__, detail=str(exc)[:200]
                )
                await asyncio.sleep(min(period_s, RETRY_S))
                continue
            if not more:
                await asyncio.sleep(max(0.0, period_s - (time.monotonic() - started)))

    async def prune(self) -> bool:
        removed = await prune_events(self._pool, retention_days=self._retention_days)
        if removed:
            log.info("events past their retention removed", count=removed)
        return False

    async def tick(self) -> bool:
        """One round: numbering, then the new events to the subscribers. Returns whether more
        events are waiting to be read at once."""
        await number_events(self._pool)
        if time.monotonic() - self._keys_checked_at >= KEYS_CHECK_S:
            await self._end_revoked()
        if self._seen is None:
            # From here on, what is numbered is handed out. A stream that started before this knew
            # nothing of where the hub starts: it reads the log from its own last id.
            self._seen = await newest_id(self._pool)
            for subscriber in self._subscribers:
                subscriber.behind = True
                subscriber.wake.set()
            return False
        read = await events_after(self._pool, self._seen, limit=READ_BATCH)
        for event in read.events:
            for subscriber in self._subscribers:
                if subscriber.wants(event):
                    subscriber.offer(event)
        if read.events:
            self._seen = read.events[-1].id
        return read.more

    async def _end_revoked(self) -> None:
        """Ends the streams of agent keys revoked since they opened: one query for all of them."""
        agents = {s.agent_id for s in self._subscribers if s.agent_id is not None}
        if agents:
            live = {row["id"] for row in await self._pool.fetch(_LIVE_KEYS_SQL, list(agents))}
            for subscriber in self._subscribers:
                if subscriber.agent_id is not None and subscriber.agent_id not in live:
                    subscriber.closed = True
                    subscriber.wake.set()
        self._keys_checked_at = time.monotonic()
