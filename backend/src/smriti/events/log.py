"""Reading the event log: numbered events after an id, oldest first, or before one, newest first,
of some types and one actor (SYSTEM.md §14).

Every read is one short statement on a pooled connection, released before the caller does
anything with what it read, so a reader that waits (a stream's client, the hub's next tick)
never holds a connection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal
from uuid import UUID

from smriti.core.errors import BadRequest, Gone
from smriti.db.pool import Pool
from smriti.events.schemas import Actor, Event

_COLUMNS: Final = "id, type, at, repo_id, actor_agent_id, actor_name, data"
# The newest id ever given: the log's, or the highest one retention removed when it removed all.
_NEWEST_SQL: Final = (
    "SELECT greatest((SELECT max(id) FROM events WHERE id IS NOT NULL), (SELECT through FROM events_pruned), 0)"
)
_PRUNED_SQL: Final = "SELECT through FROM events_pruned"


def to_event(row: Any, *, id_column: str = "id") -> Event:
    """The event of a row of `events` (its id read from `id_column`): the one shape pages, streams
    and webhooks send."""
    agent_id: UUID | None = row["actor_agent_id"]
    actor = (
        Actor(kind="human", name=row["actor_name"])
        if agent_id is None
        else Actor(kind="agent", name=row["actor_name"], id=agent_id)
    )
    return Event(
        id=row[id_column], type=row["type"], at=row["at"], repo_id=row["repo_id"], actor=actor, data=row["data"]
    )


@dataclass(frozen=True, slots=True)
class EventFilter:
    """What a page keeps besides its Spaces: events of some `types` (None: all), made by one
    `actor` ("human": the person; an agent key's id; None: anyone)."""

    types: frozenset[str] | None = None
    actor: UUID | Literal["human"] | None = None


_ANYONE: Final = EventFilter()


SCAN_LIMIT: Final = 5000
"""Events a filtered read looks through at most: a filter that matches little (a rare type, one
actor, an agent key's few Spaces in `GET /v5/events`) must not walk the whole log on a pooled
connection. A read that stops there says where (`EventRead.cursor`) and that more may follow."""


@dataclass(frozen=True, slots=True)
class EventRead:
    """What one read found: up to its limit of `events`; `cursor`, the id the next read in the same
    direction starts from (the last event kept when the page is full, else the last event looked
    at; None when the range held none); `more`, whether the range may hold more past it; `newest`,
    the highest numbered id the statement saw."""

    events: list[Event]
    cursor: int | None
    more: bool
    newest: int


def _page_sql(
    start: int,
    *,
    newest_first: bool,
    limit: int,
    repo_id: UUID | None,
    spaces: frozenset[UUID] | None,
    kept: EventFilter,
) -> tuple[str, list[Any], int]:
    """The statement of one read, and how many events it may look through. It holds only the
    conditions it needs (a generic `$n IS NULL OR` would let a cached generic plan walk every
    Space's events): the id range, and the Space, pick the index range (`events_repo_id (repo_id,
    id)` for one Space, backward when newest first; `events_id` for all), of which at most
    `SCAN_LIMIT` events are looked through when a filter may pass over some; one more than `limit`
    is kept, to tell a full page from the range's end. The id bound also keeps out events not
    numbered yet (NULL ids). One statement, one snapshot: the cursor and `newest` agree with the
    events."""
    args: list[Any] = [start]

    def bind(value: Any) -> str:
        args.append(value)
        return f"${len(args)}"

    scan = ["id < $1" if newest_first else "id > $1"]
    if repo_id is not None:
        scan.append(f"repo_id = {bind(repo_id)}")
    where = ["true"]
    if spaces is not None:
        where.append(f"repo_id = ANY({bind(list(spaces))}::uuid[])")
    if kept.types is not None:
        where.append(f"type = ANY({bind(sorted(kept.types))}::text[])")
    if kept.actor == "human":
        where.append("actor_agent_id IS NULL")
    elif kept.actor is not None:
        where.append(f"actor_agent_id = {bind(kept.actor)}")
    window = limit + 1 if len(where) == 1 else max(SCAN_LIMIT, limit + 1)
    order, edge = ("id DESC", "min(id)") if newest_first else ("id", "max(id)")
    sql = f"""
WITH scanned AS MATERIALIZED (
  SELECT {_COLUMNS} FROM events WHERE {" AND ".join(scan)} ORDER BY {order} LIMIT {bind(window)}
)
SELECT k.*, s.scanned, s.edge, s.newest
FROM (SELECT count(*) AS scanned, {edge} AS edge,
             (SELECT coalesce(max(id), 0) FROM events WHERE id IS NOT NULL) AS newest FROM scanned) s
LEFT JOIN LATERAL (
  SELECT {_COLUMNS} FROM scanned WHERE {" AND ".join(where)} ORDER BY {order} LIMIT {bind(limit + 1)}
) k ON true
ORDER BY k.{order}"""
    return sql, args, window


async def read_events(
    pool: Pool,
    start: int,
    *,
    newest_first: bool,
    limit: int,
    repo_id: UUID | None = None,
    spaces: frozenset[UUID] | None = None,
    kept: EventFilter = _ANYONE,
) -> EventRead:
    """Up to `limit` numbered events of one Space (`repo_id`), of some (`spaces`), or of all, that
    `kept` lets through: those with ids above `start`, oldest first, or (`newest_first`) below it."""
    sql, args, window = _page_sql(
        start, newest_first=newest_first, limit=limit, repo_id=repo_id, spaces=spaces, kept=kept
    )
    rows: Sequence[Any] = await pool.fetch(sql, *args)
    summary = rows[0]  # one row even when nothing is kept (the LEFT JOIN)
    events = [to_event(row) for row in rows if row["id"] is not None]
    if len(events) > limit:
        return EventRead(events[:limit], events[limit - 1].id, more=True, newest=summary["newest"])
    return EventRead(events, summary["edge"], more=summary["scanned"] == window, newest=summary["newest"])


async def events_after(
    pool: Pool, after: int, *, limit: int, repo_id: UUID | None = None, spaces: frozenset[UUID] | None = None
) -> EventRead:
    """Up to `limit` numbered events with ids above `after`, oldest first (a stream's replay, the
    hub's feed)."""
    return await read_events(pool, after, newest_first=False, limit=limit, repo_id=repo_id, spaces=spaces)


async def newest_id(pool: Pool) -> int:
    """The highest id any event has had (0 before the first)."""
    newest: int = await pool.fetchval(_NEWEST_SQL)
    return newest


async def check_kept(pool: Pool, after: int, *, field: str, source: str) -> None:
    """410 when events following `after` were removed by retention; 400 when `after` is past the
    newest id ever given (an id from another database, or one reset since: a stream would wait
    for it without a word). Read after the events it vouches for, so a removal that lands in
    between is answered 410 rather than missed."""
    async with pool.acquire() as conn:
        pruned: int = await conn.fetchval(_PRUNED_SQL)
        if after < pruned:
            raise Gone(
                f"The events following {field} {after} are past their retention (SMRITI_EVENT_RETENTION_DAYS) "
                f"and were removed, up to id {pruned}; start again without {field}, from the oldest kept.",
                field=field,
                source=source,
            )
        if after > pruned and after > (newest := await conn.fetchval(_NEWEST_SQL)):
            raise BadRequest(
                f"Invalid request. {field}: No event has id {after} yet (the newest is {newest}); ids come from "
                f"this server's event log. Start without {field}.",
                field=field,
                source=source,
                field_message=f"No event has id {after} yet (the newest is {newest}).",
            )


async def space_exists(pool: Pool, repo_id: UUID) -> bool:
    exists: bool = await pool.fetchval("SELECT EXISTS (SELECT 1 FROM repos WHERE id = $1)", repo_id)
    return exists
