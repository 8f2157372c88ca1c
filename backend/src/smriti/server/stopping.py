"""What a server that was told to stop (SIGTERM, SIGINT) does before it waits for its requests.

uvicorn stops accepting connections and then waits for the open ones to finish, with no word to
the application until they have. A streamed reply can take minutes, so each app registers what
it does when the stop begins (`when_stopping`: its streams get a grace period, then end with an
`error` event, chat/streaming.py), and `GracefulServer` calls it at the start of the shutdown.
granian gives no such hook: under it a stream runs to its end (bounded by the provider's
deadline) before the worker stops.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn

_callbacks: list[Callable[[], None]] = []


def when_stopping(callback: Callable[[], None]) -> Callable[[], None]:
    """Run `callback` (in the event loop) when this process's server begins to stop; returns
    what unregisters it."""
    _callbacks.append(callback)
    return lambda: _callbacks.remove(callback)


def stopping() -> None:
    for callback in list(_callbacks):
        callback()


class GracefulServer(uvicorn.Server):
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        stopping()
        await super().shutdown(sockets)
