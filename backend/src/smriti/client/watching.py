"""`smriti watch`: the event log as it happens, across dropped connections and server restarts.

Each connection is one stream (`SmritiClient.event_stream`); when it ends or drops, the next one
starts after the last id the stream gave (every stream first says where it starts, so a drop
before the first event loses nothing either), after a pause that grows to `MAX_PAUSE_S` while the
server stays away. What the server refuses (a bad id, a Space not there, an id past retention, a
wrong token) ends the watch with its error: trying again would get the same answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

import anyio
import msgspec

from smriti.client.errors import ClientError, ServerError

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient

FIRST_PAUSE_S: Final = 0.5
MAX_PAUSE_S: Final = 10.0


async def watch(
    client: SmritiClient,
    space_id: UUID | None,
    after: int | None,
    show: Callable[[dict[str, Any]], Awaitable[None]],
    *,
    on_retry: Callable[[ClientError, float], None] | None = None,
    on_start: Callable[[int], Awaitable[None]] | None = None,
) -> None:
    """Awaits `show` with each event (the API's JSON, decoded) for as long as it runs, and
    `on_start` once, with the id the watch starts after, as soon as the first stream says it: from
    then on, every new event reaches `show`."""
    pause = FIRST_PAUSE_S
    started = False
    while True:
        try:
            async for message in client.event_stream(space_id, after):
                if message.last_id is not None and message.last_id.isdigit():
                    after = int(message.last_id)
                    if not started and on_start is not None:
                        await on_start(after)
                    started = True
                if message.data is not None:
                    await show(msgspec.json.decode(message.data))
                    pause = FIRST_PAUSE_S  # it was up: the next drop starts the pauses over
        except ClientError as exc:
            if not _worth_retrying(exc):
                raise
            if on_retry is not None:
                on_retry(exc, pause)
        await anyio.sleep(pause)
        pause = min(pause * 2, MAX_PAUSE_S)


def _worth_retrying(exc: ClientError) -> bool:
    """The server away, restarting or too busy: yes. A refusal of this request (4xx): no."""
    status = exc.status_code
    return isinstance(exc, ServerError) and (status is None or status >= 500 or status == 429)
