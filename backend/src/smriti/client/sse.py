"""Reading Server-Sent Events (the HTML standard's `text/event-stream`) as a client does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Final

STREAM_SILENCE_S: Final = 45.0
"""How long a stream may send nothing (not even its 15 s keep-alive) before it counts as dropped."""


@dataclass(frozen=True, slots=True)
class SseMessage:
    """One message: `event` and `data` (None for a message that only moves the last event id), and
    the last event id as it stands after it."""

    last_id: str | None
    event: str | None
    data: str | None


async def sse_messages(lines: AsyncIterator[str]) -> AsyncIterator[SseMessage]:
    last_id: str | None = None
    event: str | None = None
    data: list[str] = []
    async for line in lines:
        if not line:
            yield SseMessage(last_id, event, "\n".join(data) if data else None)
            event, data = None, []
            continue
        if line.startswith(":"):
            continue  # a comment: the keep-alive
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "id" and "\0" not in value:
            last_id = value
        elif name == "event":
            event = value
        elif name == "data":
            data.append(value)
