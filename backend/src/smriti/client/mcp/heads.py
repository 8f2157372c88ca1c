"""Which Spaces' HEADs are watched, and one event stream telling when one of them moves.

A Space's HEAD is its default line's HEAD. It moves when a Checkpoint lands on a line
(`checkpoint.created` with a `branch`: a commit, a restore, a merge, a merged proposal) that is
the default one, or when another line becomes the default (`line.updated` with `is_default`).
The events do not say which line is the default, so for each such event of a watched Space the
Space is read again and its HEAD compared with the one last seen: only a HEAD that moved is told
(`notify`), once, however many events moved it. A deleted Space is told too: its HEAD is gone.

One stream (`GET /v5/events`, through `smriti.client.watching`, the code `smriti watch` runs)
serves every watched Space; it starts with the first subscription and stops with the last. It
rejoins after a drop or a restarted server from the last event id it saw, so an event written
while the server was away is still read. Each time it starts afresh, the watched HEADs are read
again, so a move between a subscription and the stream's start is told as well.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

import anyio

from smriti.client.errors import ClientError
from smriti.client.watching import MAX_PAUSE_S, watch

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from smriti.client.api import SmritiClient

log = logging.getLogger("smriti.mcp")

MAY_MOVE_HEAD: Final = frozenset({"checkpoint.created", "line.updated", "space.deleted"})


@dataclass
class _Watched:
    head: UUID | None
    uris: Counter[str] = field(default_factory=Counter)
    """Each URI it is watched by, and how many subscriptions hold it."""


class HeadWatch:
    """The watched HEADs, and the one stream that follows them while any is watched."""

    def __init__(self, client: SmritiClient, tasks: TaskGroup, notify: Callable[[str], Awaitable[None]]) -> None:
        self._client = client
        self._tasks = tasks
        self._notify = notify
        self._spaces: dict[UUID, _Watched] = {}
        self._stream: anyio.CancelScope | None = None

    @property
    def following(self) -> bool:
        """Whether the stream runs (while any HEAD is watched)."""
        return self._stream is not None

    def add(self, uri: str, space_id: UUID, head: UUID | None) -> None:
        """Watch `space_id`'s HEAD (now `head`) for one more subscription to `uri`."""
        self._spaces.setdefault(space_id, _Watched(head)).uris[uri] += 1
        if self._stream is None:
            self._stream = anyio.CancelScope()
            self._tasks.start_soon(self._follow, self._stream)

    def remove(self, uri: str, space_id: UUID) -> None:
        """One subscription to `uri` fewer; the stream stops with the last one."""
        watched = self._spaces.get(space_id)
        if watched is None or watched.uris[uri] == 0:
            return
        watched.uris[uri] -= 1
        if watched.uris[uri] == 0:
            del watched.uris[uri]
        if not watched.uris:
            del self._spaces[space_id]
        if not self._spaces and self._stream is not None:
            self._stream.cancel()
            self._stream = None

    async def _follow(self, scope: anyio.CancelScope) -> None:
        with scope:
            while True:
                try:
                    await watch(self._client, None, None, self._seen, on_retry=_retrying, on_start=self._started)
                except ClientError as exc:
                    # Refused (a revoked key, events pruned past `after`): start again from the next
                    # new event, later; the HEADs are read again then, so no move goes untold.
                    log.warning("Event stream refused (%s); starting again in %g s", exc.one_line(), MAX_PAUSE_S)
                except Exception:
                    # Anything else (an event that is not the JSON it should be) must not end the
                    # MCP server, whose task group this runs in: the same fresh start.
                    log.exception("Event stream failed; starting again in %g s", MAX_PAUSE_S)
                await anyio.sleep(MAX_PAUSE_S)

    async def _started(self, after: int) -> None:
        for space_id in list(self._spaces):
            await self._check(space_id)

    async def _seen(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind not in MAY_MOVE_HEAD:
            return
        try:
            space_id = UUID(str(event.get("repo_id")))
        except ValueError:
            return
        if space_id not in self._spaces:
            return
        data = event.get("data") or {}
        if kind == "space.deleted":
            await self._moved(space_id, None)
        elif (kind == "checkpoint.created" and data.get("branch") is not None) or (
            kind == "line.updated" and data.get("is_default") is True
        ):
            await self._check(space_id)

    async def _check(self, space_id: UUID) -> None:
        """Read the Space's HEAD again; tell its watchers if it moved (or if it cannot be read:
        it may have, and a needless read costs less than a missed move)."""
        try:
            head = (await self._client.get_space(space_id)).head_commit_id
        except ClientError as exc:
            log.warning("Could not read the HEAD of Space %s: %s", space_id, exc.one_line())
            await self._moved(space_id, None, unknown=True)
            return
        watched = self._spaces.get(space_id)
        if watched is not None and head != watched.head:
            await self._moved(space_id, head)

    async def _moved(self, space_id: UUID, head: UUID | None, *, unknown: bool = False) -> None:
        watched = self._spaces.get(space_id)
        if watched is None:
            return
        if not unknown:
            watched.head = head
        for uri in list(watched.uris):
            await self._notify(uri)


def _retrying(exc: ClientError, pause: float) -> None:
    log.info("The event stream dropped (%s); connecting again in %g s", exc.one_line(), pause)
