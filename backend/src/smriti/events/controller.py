"""API v5: the event log, as pages or as a live stream (SYSTEM.md §14, docs/api.md "Events")."""

from __future__ import annotations

import re
from typing import Annotated, Final, cast
from uuid import UUID

import msgspec
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
from smriti.events.log import EventFilter, check_kept, newest_id, read_events, space_exists
from smriti.events.record import EVENT_TYPES
from smriti.events.schemas import EventPage
from smriti.events.stream import EventStream

DEFAULT_LIMIT: Final = 100
MAX_LIMIT: Final = 500
MAX_EVENT_ID: Final = 2**63 - 1  # a bigint
_DIGITS = re.compile(r"[0-9]{1,19}")
_PAGE_QUERY: Final = frozenset({"after", "before", "limit", "order", "type", "actor"})
# A stream takes no page's parameters, nor (yet) the filters: the hub hands it every event of
# its Spaces. Refused by name rather than ignored, so nobody believes a stream is filtered.
_STREAM_QUERY: Final = frozenset({"after"})
_HUMAN: Final = "human"
_ID_SCHEMA: Final = {"type": "integer", "minimum": 0, "maximum": MAX_EVENT_ID}

_DESCRIPTION: Final = (
    "Oldest first, `limit` at a time (1 to 500, default 100); `next_after` is the next page's `after`. Without "
    "`after`, from the oldest event kept. With `Accept: text/event-stream`, a live stream of Server-Sent Events "
    "(`id:` the event id, `event:` its type, `data:` the event): it starts after `Last-Event-ID` (or `after`), "
    "replays what followed, then sends each new event within a second, whichever server process wrote it; "
    "without either, at the next new event; a comment every 15 s. An `after` some of whose following events "
    "are past their retention (SMRITI_EVENT_RETENTION_DAYS) is a 410 naming it; one past the newest event "
    "ever given is a 400. A page (not a stream) can be newest first: `order=newest`, then `before` (the "
    "previous page's `next_before`) for older ones; and hold only some types (`type`, repeatable) or one "
    "actor (`actor`: `human`, or an agent key's id). A process holds at most SMRITI_MAX_EVENT_STREAMS "
    "streams, an agent key a tenth of them: past it, a 503. See docs/api.md."
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
BeforeQuery = Annotated[
    str | None,
    QueryParameter(
        description="Newest first, only events with a smaller id: the `next_before` of the previous page.",
        required=False,
        schema_extra=_ID_SCHEMA,
    ),
]
OrderQuery = Annotated[
    str,
    QueryParameter(
        description="`oldest` first (from `after`), or `newest` first (below `before`). Pages only.",
        schema_extra={"type": "string", "enum": ["oldest", "newest"], "default": "oldest"},
    ),
]
TypeQuery = Annotated[
    list[str] | None,
    QueryParameter(
        name="type",
        description="Only events of this type; repeatable (any of them). Pages only.",
        required=False,
        schema_extra={"items": {"type": "string", "enum": list(EVENT_TYPES)}},
    ),
]
ActorQuery = Annotated[
    str | None,
    QueryParameter(
        description="Only the changes of `human` (the person) or of one agent key (its id). Pages only.",
        required=False,
        schema_extra={"type": "string", "examples": [_HUMAN]},
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


def _refused(field: str, rule: str) -> BadRequest:
    return BadRequest(f"Invalid request. {field}: {rule}", field=field, source="query", field_message=rule)


def _kept(types: list[str] | None, actor: str | None) -> EventFilter:
    """The filters of a page: each type one of §14's, the actor `human` or a UUID; else 400 naming them."""
    for value in types or []:
        if value not in EVENT_TYPES:
            raise _refused("type", f"Expected an event type, one of {', '.join(EVENT_TYPES)}; got {value[:40]!r}")
    chosen = None if types is None else frozenset(types)
    if actor is None:
        return EventFilter(types=chosen)
    if actor == _HUMAN:
        return EventFilter(types=chosen, actor="human")
    try:
        return EventFilter(types=chosen, actor=UUID(actor))
    except ValueError:
        raise _refused("actor", f"Expected 'human' or an agent key's id (a UUID), got {actor[:40]!r}") from None


def _limit(value: str) -> int:
    if not _DIGITS.fullmatch(value) or not 1 <= int(value) <= MAX_LIMIT:
        raise _refused("limit", f"Expected a whole number from 1 to {MAX_LIMIT}, got {value[:40]!r}")
    return int(value)


class PageQuery(msgspec.Struct, frozen=True):
    """A page's query parameters as they came (text), checked by `_page`."""

    after: str | None = None
    before: str | None = None
    limit: str = str(DEFAULT_LIMIT)
    order: str = "oldest"
    types: list[str] | None = None
    actor: str | None = None


async def _events(
    scope: Scope,
    pool: Pool,
    hub: EventHub,
    *,
    repo_id: UUID | None,
    query: PageQuery,
    last_event_id: str | None,
) -> Response[EventPage]:
    spaces = visible_spaces()
    if wants_event_stream(scope):
        refuse_unknown_query(scope, _STREAM_QUERY)
        if is_head(scope):  # the stream's headers; its body would never end
            return Response(b"", media_type=EVENT_STREAM, headers=STREAM_HEADERS)  # type: ignore[arg-type]
        return cast(
            "Response[EventPage]",
            await _stream(pool, hub, repo_id=repo_id, spaces=spaces, after=query.after, last_event_id=last_event_id),
        )
    refuse_unknown_query(scope, _PAGE_QUERY)
    if last_event_id is not None:  # a stream's start, no page's: still a bad one is named, not ignored
        event_id("Last-Event-ID", last_event_id.strip(), source="header")
    return Response(await _page(pool, repo_id=repo_id, spaces=spaces, query=query))


async def _page(pool: Pool, *, repo_id: UUID | None, spaces: frozenset[UUID] | None, query: PageQuery) -> EventPage:
    count = _limit(query.limit)
    kept = _kept(query.types, query.actor)
    if query.order == "newest":
        if query.after is not None:
            raise _refused("after", "A newest-first page goes down from `before`; `after` is for oldest first")
        below = event_id("before", query.before, source="query") if query.before is not None else MAX_EVENT_ID
        read = await read_events(pool, below, newest_first=True, limit=count, repo_id=repo_id, spaces=spaces, kept=kept)
        items = read.events
        # `after=` the page's newest id reads what came since; an empty first page starts at the
        # newest id the statement saw, so nothing numbered after it is skipped.
        newer = items[0].id if items else max(below - 1, 0) if query.before is not None else read.newest
        return EventPage(items=items, next_after=newer, next_before=read.cursor if read.more else None)
    if query.order != "oldest":
        raise _refused("order", f"Expected 'oldest' or 'newest', got {query.order[:40]!r}")
    if query.before is not None:
        raise _refused("before", "`before` pages go newest first: add order=newest")
    start = event_id("after", query.after, source="query") if query.after is not None else None
    read = await read_events(
        pool, start or 0, newest_first=False, limit=count, repo_id=repo_id, spaces=spaces, kept=kept
    )
    if start is not None:
        await check_kept(pool, start, field="after", source="query")
    # Past what a filter passed over too: a page that kept nothing still moves the next one on.
    next_after = read.cursor if read.cursor is not None else (start or 0)
    return EventPage(items=read.events, next_after=next_after, next_before=None)


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
        before: BeforeQuery = None,
        limit: LimitQuery = str(DEFAULT_LIMIT),
        order: OrderQuery = "oldest",
        types: TypeQuery = None,
        actor: ActorQuery = None,
        last_event_id: LastEventIdHeader = None,
    ) -> Response[EventPage]:
        query = PageQuery(after=after, before=before, limit=limit, order=order, types=types, actor=actor)
        return await _events(scope, pool, events, repo_id=None, query=query, last_event_id=last_event_id)

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
        before: BeforeQuery = None,
        limit: LimitQuery = str(DEFAULT_LIMIT),
        order: OrderQuery = "oldest",
        types: TypeQuery = None,
        actor: ActorQuery = None,
        last_event_id: LastEventIdHeader = None,
    ) -> Response[EventPage]:
        if not await space_exists(pool, repo_id):
            raise space_not_found(repo_id)
        query = PageQuery(after=after, before=before, limit=limit, order=order, types=types, actor=actor)
        return await _events(scope, pool, events, repo_id=repo_id, query=query, last_event_id=last_event_id)
