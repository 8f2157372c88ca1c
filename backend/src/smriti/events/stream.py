"""One Server-Sent Events stream of the event log (SYSTEM.md §14, docs/api.md "Events").

The stream registers with this process's hub first, then replays from the log what follows its
start, a page at a time, the connection released before any page is sent; then it sends what
the hub hands it. An event the replay already sent and the hub hands it again is skipped (ids
only grow, so the last id sent is the whole dedup state). A stream the hub marks `behind` (its
client read slower than events came) reads the log again from its last id, as at the start.
It begins with its start as a bare `id:` field (the last event id a client resumes from, however
soon it drops). A comment every `KEEP_ALIVE_S` keeps proxies from closing a quiet stream; the
hub's `stop` (the server is stopping) ends it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Final
from uuid import UUID

import msgspec

from smriti.db.pool import Pool
from smriti.events.hub import EventHub, Subscriber
from smriti.events.log import EventRead, events_after
from smriti.events.schemas import Event

KEEP_ALIVE_S: Final = 15.0
REPLAY_PAGE: Final = 200
_KEEP_ALIVE: Final = b": keep-alive\n\n"
_encode = msgspec.json.Encoder().encode


def frame(event: Event) -> bytes:
    # msgspec writes no newline inside JSON, so the event is one `data:` line.
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (event.id, event.type.encode(), _encode(event))


class EventStream:
    """A stream of the events of `repo_id` (None: every Space) among `spaces` (None: all), after `after`."""

    def __init__(
        self,
        hub: EventHub,
        pool: Pool,
        after: int,
        *,
        repo_id: UUID | None,
        spaces: frozenset[UUID] | None,
        agent_id: UUID | None = None,
        keep_alive_s: float = KEEP_ALIVE_S,
    ) -> None:
        self._pool = pool
        self._hub = hub
        self._repo_id = repo_id
        self._spaces = spaces
        self._keep_alive_s = keep_alive_s
        self.last_id = after
        # Before the first read of the log: whatever is numbered after it reaches this stream.
        self.subscriber: Subscriber = hub.subscribe(repo_id=repo_id, spaces=spaces, agent_id=agent_id)
        self._first = EventRead([], None, more=False, newest=0)

    async def read_first_page(self) -> None:
        """The start of the replay, read before the response begins (so a 410 can still be JSON)."""
        self._first = await self._page(self.last_id)

    def close(self) -> None:
        self._hub.unsubscribe(self.subscriber)

    async def frames(self) -> AsyncIterator[bytes]:
        subscriber = self.subscriber
        try:
            # An id with no data: an EventSource (or `smriti watch`) that reconnects before any
            # event came resumes from here, so nothing between the drop and its return is missed.
            yield b"id: %d\n\n" % self.last_id
            read = self._first
            while True:
                for event in read.events:
                    if event.id > self.last_id:
                        yield frame(event)
                        self.last_id = event.id
                if read.more:  # the log may hold more: read on, past what a filter passed over too
                    self.last_id = max(self.last_id, read.cursor or 0)
                    read = await self._page(self.last_id)
                    continue
                async for chunk in self._live():
                    yield chunk
                if subscriber.closed:
                    return
                # Behind: what the hub dropped is in the log; what it hands over meanwhile is kept.
                subscriber.behind = False
                subscriber.pending.clear()
                read = await self._page(self.last_id)
        finally:
            self.close()

    async def _live(self) -> AsyncIterator[bytes]:
        """What the hub hands this stream, until it falls behind or the hub stops; a keep-alive
        comment whenever nothing came for `keep_alive_s`."""
        subscriber = self.subscriber
        while not (subscriber.closed or subscriber.behind):
            if subscriber.pending:
                event = subscriber.pending.popleft()
                if event.id > self.last_id:
                    yield frame(event)
                    self.last_id = event.id
                continue
            subscriber.wake.clear()
            try:
                await asyncio.wait_for(subscriber.wake.wait(), self._keep_alive_s)
            except TimeoutError:
                yield _KEEP_ALIVE

    async def _page(self, after: int) -> EventRead:
        return await events_after(self._pool, after, limit=REPLAY_PAGE, repo_id=self._repo_id, spaces=self._spaces)
