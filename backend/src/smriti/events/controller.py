"""API v5: the event log, as pages or as a live stream (SYSTEM.md §14, docs/api.md "Events")."""

from __future__ import annotations

import re
from typing import Annotated, Final, cast
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.types import Scope

from smriti.access.caller import current_caller, space_not_found
from smriti.access.scope import visible_spaces
from smriti.core.error_docs import error_responses
from smriti.core.errors import BadRequest
from smriti.core.pagination import refuse_unknown_query
from smriti.core.routes import READS, access
from smriti.core.streaming import EVENT_STREAM, STREAM_HEADERS, PacedStream, is_head, wants_event_stream
from smriti.db.pool import Pool
from smriti.events.hub import EventHub
from smriti.events.log import check_kept, events_after, newest_id, space_exists
from smriti.events.schemas import EventPage
from smriti.events.stream import EventStream

DEFAULT_LIMIT: Final = 100
MAX_LIMIT: Final = 500
MAX_EVENT_ID: Final = 2**63 - 1  # a bigint
_DIGITS = re.compile(r"[0-9]{1,19}")
_QUERY: Final = frozenset({"after", "limit"})
_ID_SCHEMA: Final = {"type": "integer", "minimum": 0, "maximum": MAX_EVENT_ID}

_DESCRIPTION: Final = (
    "Oldest first, `limit` at a time (1 to 500, default 100); `next_after` is the next page's `after`. Without "
    "`after`, from the oldest event kept. With `Accept: text/event-stream`, a live stream of Server-Sent Events "
    "(`id:` the event id, `event:` its type, `data:` the event): it starts after `Last-Event-ID` (or `after`), "
    "replays what followed, then sends each new event within a second, whichever server process wrote it; "
    "without either, at the next new event; a comment every 15 s. An `after` some of whose following events "
    "are past their retention (SMRITI_EVENT_RETENTION_DAYS) is a 410 naming it; one past the newest event "
    "ever given is a 400. A process holds at most SMRITI_MAX_EVENT_STREAMS streams, an agent key a tenth of "
    "them: past it, a 503. See docs/api.md."
)

AfterQuery = Annotated[
    str | None,
    QueryParameter(
        description="Only events with a greater id: the `next_after` of the previous page, or the last id seen.",
        required=False,
        schema_extra=_ID_SCHEMA,
    ),
]
LimitQuery = Annotated[
    str,
    QueryParameter(
        description="Events per page (not for a stream).",
        schema_extra={"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
    ),
]
LastEventIdHeader = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        description="A stream's start, sent by an EventSource that reconnects; over `after` when both are given.",
        required=False,
        schema_extra=_ID_SCHEMA,
    ),
]


def event_id(name: str, value: str, *, source: str) -> int:
    """An event id as a client sends it: decimal digits, within a bigint; else 400 naming it."""
    if not _DIGITS.fullmatch(value) or int(value) > MAX_EVENT_ID:
        rule = f"Expected an event id: a whole number written in digits from 0 to {MAX_EVENT_ID}, got {value[:40]!r}"
        raise BadRequest(f"Invalid request. {name}: {rule}", field=name, source=source, field_message=rule)
    return int(value)


def _limit(value: str) -> int:
    if not _DIGITS.fullmatch(value) or not 1 <= int(value) <= MAX_LIMIT:
        rule = f"Expected a whole number from 1 to {MAX_LIMIT}, got {value[:40]!r}"
        raise BadRequest(f"Invalid request. limit: {rule}", field="limit", source="query", field_message=rule)
    return int(value)


async def _events(
    scope: Scope,
    pool: Pool,
    hub: EventHub,
    *,
    repo_id: UUID | None,
    after: str | None,
    limit: str,
    last_event_id: str | None,
) -> Response[EventPage]:
    refuse_unknown_query(scope, _QUERY)
    spaces = visible_spaces()
    if wants_event_stream(scope):
        if is_head(scope):  # the stream's headers; its body would never end
            return Response(b"", media_type=EVENT_STREAM, headers=STREAM_HEADERS)  # type: ignore[arg-type]
        return cast(
            "Response[EventPage]",
            await _stream(pool, hub, repo_id=repo_id, spaces=spaces, after=after, last_event_id=last_event_id),
        )
    count = _limit(limit)
    if last_event_id is not None:  # a stream's start, no page's: still a bad one is named, not ignored
        event_id("Last-Event-ID", last_event_id.strip(), source="header")
    start = event_id("after", after, source="query") if after is not None else None
    items = await events_after(pool, start or 0, limit=count, repo_id=repo_id, spaces=spaces)
    if start is not None:
        await check_kept(pool, start, field="after", source="query")
    next_after = items[-1].id if items else (start or 0)
    return Response(EventPage(items=items, next_after=next_after))


async def _stream(
    pool: Pool,
    hub: EventHub,
    *,
    repo_id: UUID | None,
    spaces: frozenset[UUID] | None,
    after: str | None,
    last_event_id: str | None,
) -> PacedStream:
    # What an EventSource sends when it reconnects wins over the `after` of the URL it first opened.
    given: str | None = after
    field, source = "after", "query"
    if last_event_id is not None:
        given, field, source = last_event_id.strip(), "Last-Event-ID", "header"
    start = event_id(field, given, source=source) if given is not None else None
    agent = current_caller().agent
    stream = EventStream(hub, pool, 0, repo_id=repo_id, spaces=spaces, agent_id=None if agent is None else agent.id)
    try:
        # Registered first: an event numbered from here on reaches the stream, from the hub or the log.
        if start is None:
            stream.last_id = await newest_id(pool)
        else:
            stream.last_id = start
            await stream.read_first_page()
            await check_kept(pool, start, field=field, source=source)
    except BaseException:
        stream.close()
        raise
    return PacedStream(stream.frames(), media_type=EVENT_STREAM, headers=STREAM_HEADERS)


class EventController(Controller):
    tags = ["Events"]

    @get(
        "/events",
        operation_id="listEvents",
        opt=access(READS),
        summary="Every change to the Spaces the caller can read, oldest first (or as a live stream)",
        description=_DESCRIPTION + " An agent key sees the events of its Spaces only.",
        responses=error_responses(410, 503),
    )
    async def list_events(
        self,
        *,
        scope: Scope,
        pool: NamedDependency[Pool],
        events: NamedDependency[EventHub],
        after: AfterQuery = None,
        limit: LimitQuery = str(DEFAULT_LIMIT),
        last_event_id: LastEventIdHeader = None,
    ) -> Response[EventPage]:
        return await _events(scope, pool, events, repo_id=None, after=after, limit=limit, last_event_id=last_event_id)

    @get(
        "/repos/{repo_id:str}/events",
        operation_id="listSpaceEvents",
        opt=access(READS),
        summary="Every change to one Space, oldest first (or as a live stream)",
        description=_DESCRIPTION,
        responses=error_responses(404, 410, 503),
    )
    async def list_space_events(
        self,
        *,
        scope: Scope,
        repo_id: FromPath[UUID],
        pool: NamedDependency[Pool],
        events: NamedDependency[EventHub],
        after: AfterQuery = None,
        limit: LimitQuery = str(DEFAULT_LIMIT),
        last_event_id: LastEventIdHeader = None,
    ) -> Response[EventPage]:
        if not await space_exists(pool, repo_id):
            raise space_not_found(repo_id)
        return await _events(
            scope, pool, events, repo_id=repo_id, after=after, limit=limit, last_event_id=last_event_id
        )
