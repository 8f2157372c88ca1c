"""The event as the API shows it (SYSTEM.md §14): in a page, and as one Server-Sent Event's data."""

from __future__ import annotations

import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec


class Actor(msgspec.Struct, frozen=True, omit_defaults=True):
    """Who made the change: the person (`human`, no id) or a named agent key."""

    kind: Literal["human", "agent"]
    name: str
    id: UUID | None = None


class Event(msgspec.Struct, frozen=True):
    """One change to a Space. `id` increases with every event, in the order they were committed."""

    id: int
    type: str
    at: datetime.datetime
    repo_id: UUID
    actor: Actor
    data: dict[str, Any]


class EventPage(msgspec.Struct, frozen=True):
    items: list[Event]
    next_after: int
    """The `after` that reads on to newer events (with the same filters): oldest first, the last
    item's id, or this page's own `after` when it is empty; newest first, the first item's id."""
    next_before: int | None
    """Newest first only: the `before` of the next, older page; null when no older event matches."""
