"""Streamed sends over a real socket: the app under uvicorn in the test's event loop, and a reader
of Server-Sent Events.

httpx's ASGI transport collects a whole response before it returns, so a client that goes away
mid-stream, or a server that stops under one, needs a real server; this one shares the test's
loop (and its fake providers), so it starts in well under a second.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from litestar import Litestar

from smriti.core.config import Settings
from smriti.server.app import create_app
from smriti.server.stopping import GracefulServer
from tests.support.live_server import free_port

EVENT_STREAM = {"accept": "text/event-stream"}


@dataclass
class Served:
    url: str
    server: GracefulServer
    app: Litestar

    def stop(self) -> None:
        """What SIGTERM does: the shutdown begins (its streams get their grace period)."""
        self.server.should_exit = True


@asynccontextmanager
async def serving(settings: Settings, **changes: Any) -> AsyncIterator[Served]:
    app = create_app(dataclasses.replace(settings, **changes) if changes else settings)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = GracefulServer(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            await task
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.01)
    try:
        yield Served(f"http://127.0.0.1:{port}", server, app)
    finally:
        server.should_exit = True
        await task


@dataclass
class Event:
    name: str
    data: dict[str, Any]


@dataclass
class EventReader:
    """The events of one streamed response, read as they come."""

    response: httpx.Response
    comments: list[str] = field(default_factory=list)
    _lines: AsyncIterator[str] | None = None

    async def next(self) -> Event | None:
        """The next event, or None at the end of the stream."""
        if self._lines is None:
            self._lines = self.response.aiter_lines()
        name, data = "message", []
        async for line in self._lines:
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
            elif line.startswith("event:"):
                name = line[len("event:") :].strip()
            elif line.startswith("data:"):
                data.append(line[len("data:") :].strip())
            elif line == "" and data:
                return Event(name, json.loads("\n".join(data)))
        return None

    async def all(self) -> list[Event]:
        events = []
        while (event := await self.next()) is not None:
            events.append(event)
        return events


def reply_of(events: list[Event]) -> str:
    return "".join(event.data["text"] for event in events if event.name == "delta")
