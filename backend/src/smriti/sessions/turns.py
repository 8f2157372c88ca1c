"""The Turns of a Session: the one module that writes a Session's exchanges, and its counter with them.

A Session and its Turns are one record: its `last_seq` (the gapless numbering) and the provider
and model it remembers move with every exchange, in the statement that stores the pair. Reads
that need more than Turns in the same round trip (a send's context, `chat/store.py`) join them
there; every write is here, but an import's, which writes whole Sessions at once (`imports.py`,
in the transaction `TurnStore.importing` opens).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from operator import itemgetter
from uuid import UUID

import asyncpg

from smriti.access.authors import agent_name_sql, author, created_by
from smriti.access.caller import Agent
from smriti.core.errors import BadRequest, Conflict, NotFound
from smriti.core.schemas import Page
from smriti.db.pool import Pool
from smriti.events.record import actor_columns
from smriti.sessions.imports import ImportedSession, SessionImport
from smriti.sessions.schemas import Turn
from smriti.sessions.titles import derived_title

TURN_FIELDS: tuple[str, ...] = tuple(name for name in Turn.__struct_fields__ if name != "created_by")
"""A Turn's fields that are also its columns in `turns`: all but `created_by`, whose column keeps
the agent's id and whose answer is the agent with its name (`access/authors.py`)."""
TURN_COLUMNS = ", ".join(TURN_FIELDS)
_READ_COLUMNS = f"{TURN_COLUMNS}, created_by, {agent_name_sql('turns.created_by')}"
"""What a read of Turns selects: the columns, and who sent them (the person's skip the lookup)."""


def to_turn(row: asyncpg.Record) -> Turn:
    return Turn(**{name: row[name] for name in TURN_FIELDS}, created_by=created_by(row))


def retried_pairs(retry_ofs: Iterable[int]) -> frozenset[int]:
    """The sequence numbers of the pairs that retries asked again (`Turn.retry_of` names each
    pair's user Turn; its answer is the next Turn): they stay in the history and out of context."""
    return frozenset(seq + k for seq in retry_ofs for k in (0, 1))


@dataclass(frozen=True, slots=True)
class Exchange:
    user_content: str
    assistant_content: str
    provider: str
    model: str
    checkpoint_id: UUID | None
    history_base_seq: int | None
    input_tokens: int | None
    output_tokens: int | None
    request_id: str | None
    retry_of: int | None = None
    """The user Turn this pair asks again; the pair is stored only while that one's answer is
    still the Session's last Turn."""
    stopped: bool = False
    """The reply is what had arrived when its stream was stopped (`Turn.stopped`)."""
    asked_model: str | None = None
    """The model the message was sent to (the user Turn records it; the reply records `model`,
    the one that answered); None: the same."""
    context_sha256: str | None = None
    """The reply's receipt (`Turn.context_sha256`)."""
    context_through_seq: int | None = None
    """The Session's last Turn when the message's context was read (`Turn.context_through_seq`)."""
    at_limit: bool = False
    """The provider ended the reply at its length limit (`Turn.at_limit`)."""
    agent: Agent | None = None
    """The agent whose key sent the message (`Turn.created_by`); None: the person."""


@dataclass(frozen=True, slots=True)
class TurnsInScope:
    """What a draft reads: the Session's remembered provider and model, and its Turns after a
    boundary, less the pairs that were retried (they are in no context)."""

    provider: str | None
    model: str | None
    turns: list[Turn]


# Both Turns and the Session's counter in one statement. A send with a `request_id` also gives
# up its claim on that key (`sessions/claims.py`) in the same statement. A retry ($11) is stored
# only while the pair it retries is still the last: another exchange stored in the meantime was
# answered with that pair in its context, so replacing the pair now would leave it stranded. The
# user Turn records the model the message was sent to ($13, else the one that answered, $3) and
# the last Turn its context was read up to ($15); the reply its receipt ($14) and whether the
# provider ended it at its length limit ($16); both, who sent it ($18: an agent's id, else NULL).
# A Session that is still untitled when its first exchange is stored takes the title derived from
# its message ($17, `titles.py`): decided on the row the statement locks, so a rename stored
# meanwhile is kept. The exchange's `turns.added` event (SYSTEM.md §14) is one more insert in
# the same statement, by the same actor ($18, and its name $19): no round trip is added to a send.
def _write_sql(*, release_claim: bool) -> str:
    release = (
        "released AS (DELETE FROM send_claims WHERE session_id = $1 AND request_id = $7), " if release_claim else ""
    )
    return (
        f"WITH {release}s AS (UPDATE sessions SET last_seq = last_seq + 2, provider = $2, model = $3, "
        f"input_tokens = input_tokens + coalesce($9::int, 0), output_tokens = output_tokens + coalesce($10::int, 0), "
        f"uncounted_replies = uncounted_replies + ($9::int IS NULL OR $10::int IS NULL)::int, "
        f"title = CASE WHEN last_seq = 0 AND title = '' THEN coalesce($17::text, '') ELSE title END, "
        f"updated_at = clock_timestamp() WHERE id = $1 AND ($11::int IS NULL OR last_seq = $11::int + 1) "
        f"RETURNING last_seq, repo_id), "
        f"event AS (INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data) "
        f"SELECT s.repo_id, 'turns.added', $18::uuid, $19::text, jsonb_build_object('session_id', $1::uuid, "
        f"'from_seq', s.last_seq - 1, 'to_seq', s.last_seq, 'stopped', $12::bool) FROM s) "
        f"INSERT INTO turns ({TURN_COLUMNS}, created_by) "
        f"SELECT $1, s.last_seq - 1, 'user', $4::text, $2::text, coalesce($13::text, $3::text), $5::uuid, "
        f"$6::int, NULL::int, NULL::int, $7::text, clock_timestamp(), $11::int, false, NULL::text, $15::int, "
        f"false, $18::uuid FROM s "
        f"UNION ALL "
        f"SELECT $1, s.last_seq, 'assistant', $8::text, $2, $3, $5, $6, $9::int, $10::int, $7, "
        f"clock_timestamp(), NULL::int, $12::bool, $14::text, NULL::int, $16::bool, $18 FROM s "
        f"RETURNING sequence_number, created_at"
    )


_WRITE_SQL = _write_sql(release_claim=False)
_WRITE_CLAIMED_SQL = _write_sql(release_claim=True)


class TurnStore:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def page(self, session_id: UUID, *, after_seq: int, limit: int, offset: int) -> Page[Turn]:
        async with self._pool.acquire() as conn:
            last_seq = await conn.fetchval("SELECT last_seq FROM sessions WHERE id = $1", session_id)
            if last_seq is None:
                raise NotFound(f"No Session with id {session_id}.", field="session_id", source="path")
            rows = await conn.fetch(
                f"SELECT {_READ_COLUMNS} FROM turns WHERE session_id = $1 AND sequence_number > $2 "
                f"ORDER BY sequence_number LIMIT $3 OFFSET $4",
                session_id,
                after_seq,
                limit,
                offset,
            )
        # Sequence numbers are gapless, so the count after a boundary is a subtraction.
        total = max(0, last_seq - after_seq)
        return Page(items=[to_turn(row) for row in rows], total=total, limit=limit, offset=offset)

    async def in_scope(self, session_id: UUID, *, after_seq: int) -> TurnsInScope:
        """The Turns after `after_seq` (all of them for 0), with what the Session remembers."""
        # One snapshot for both reads, as one statement would be: a Turn stored or a Session
        # deleted in between is seen by neither or by both.
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            session = await conn.fetchrow("SELECT provider, model, last_seq FROM sessions WHERE id = $1", session_id)
            if session is None:
                raise NotFound(f"No Session with id {session_id}.", field="session_id")
            if after_seq > session["last_seq"]:
                raise BadRequest(
                    f"history_base_seq {after_seq} is above this Session's last Turn ({session['last_seq']}).",
                    field="history_base_seq",
                )
            rows = await conn.fetch(
                f"SELECT {_READ_COLUMNS} FROM turns WHERE session_id = $1 AND sequence_number > $2 "
                "ORDER BY sequence_number",
                session_id,
                after_seq,
            )
        turns = [to_turn(row) for row in rows]
        retried = retried_pairs(turn.retry_of for turn in turns if turn.retry_of is not None)
        if retried:
            turns = [turn for turn in turns if turn.sequence_number not in retried]
        return TurnsInScope(session["provider"], session["model"], turns)

    async def import_session(
        self, repo_id: UUID, title: str, provider: str, turns: list[tuple[str, str]], *, agent: Agent | None = None
    ) -> UUID:
        """One new Session holding these (role, content) Turns numbered 1..n, in one transaction."""
        async with self.importing(repo_id, provider, agent=agent) as sessions:
            return (await sessions.add([ImportedSession(title, turns)]))[0].session_id

    @asynccontextmanager
    async def importing(
        self,
        repo_id: UUID,
        provider: str,
        *,
        source: str | None = None,
        copies: bool = False,
        repo_id_in: str = "body",
        agent: Agent | None = None,
    ) -> AsyncIterator[SessionImport]:
        """New Sessions of a Space, added batch by batch in one transaction (all of them are
        stored, or none). The Space is locked against deletion first, so one deleted meanwhile is
        a 404 rather than a broken foreign key. With a `source`, conversations are known by their
        own ids (`SessionImport`). `repo_id_in` says where the request named the Space (its 404
        says so: `body` for a transcript, `path` for a conversation import). An `agent` importing
        is each new Session and Turn's `created_by`."""
        async with self._pool.acquire() as conn, conn.transaction():
            if not await conn.fetchval("SELECT EXISTS (SELECT 1 FROM repos WHERE id = $1 FOR KEY SHARE)", repo_id):
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source=repo_id_in)
            yield SessionImport(conn, repo_id, provider, source, copies, agent=agent)

    async def write_exchange(self, session_id: UUID, exchange: Exchange) -> tuple[Turn, Turn]:
        """Store the user and assistant Turns together, numbered by the Session's counter.

        The counter is bumped in the same statement as the insert, so concurrent sends (from any
        number of processes) serialise on the Session row for one statement only and never
        collide or leave gaps. A duplicate `request_id` fails the whole statement, counter included.
        """
        try:
            rows = await self._pool.fetch(
                _WRITE_CLAIMED_SQL if exchange.request_id is not None else _WRITE_SQL,
                session_id,
                exchange.provider,
                exchange.model,
                exchange.user_content,
                exchange.checkpoint_id,
                exchange.history_base_seq,
                exchange.request_id,
                exchange.assistant_content,
                exchange.input_tokens,
                exchange.output_tokens,
                exchange.retry_of,
                exchange.stopped,
                exchange.asked_model,
                exchange.context_sha256,
                exchange.context_through_seq,
                exchange.at_limit,
                # Only a first exchange can title its Session (a retry never is one): the title is
                # derived only when the message's context was read from no Turns (or not said).
                derived_title(exchange.user_content)
                if exchange.retry_of is None and not exchange.context_through_seq
                else None,
                *actor_columns(exchange.agent),
            )
        except asyncpg.UniqueViolationError:
            if exchange.request_id is None:
                raise
            # Another request with the same key won the race; answer with its pair. The failed
            # statement's release of this send's claim rolled back with it: release it now.
            await self._pool.fetchval(
                "DELETE FROM send_claims WHERE session_id = $1 AND request_id = $2", session_id, exchange.request_id
            )
            return await self.replay(session_id, exchange.request_id, exchange.user_content, exchange.retry_of)
        if not rows:
            await self._nothing_stored(session_id, exchange)
        user_row, assistant_row = sorted(rows, key=itemgetter(0))  # by sequence_number
        user = _stored(session_id, exchange, user_row, user=True)
        return user, _stored(session_id, exchange, assistant_row, user=False)

    async def _nothing_stored(self, session_id: UUID, exchange: Exchange) -> None:
        """Why an exchange's statement stored nothing: the Session is gone, or a retry's pair is
        no longer the last."""
        last_seq = await self._pool.fetchval("SELECT last_seq FROM sessions WHERE id = $1", session_id)
        if last_seq is None:
            raise NotFound(f"Session {session_id} was deleted while the provider was answering.")
        raise Conflict(
            f"Turn {last_seq} was stored while the retry of Turn {exchange.retry_of} was being answered, so "
            "that exchange is no longer the last and nothing was stored. Retry the last exchange instead.",
            field="retry_of",
        )

    async def forget_model(self, session_id: UUID, model: str) -> None:
        """The Session stops remembering a model its provider says it does not know (one it was
        created with, say): it never remembers a model that did not answer."""
        await self._pool.fetchval("UPDATE sessions SET model = NULL WHERE id = $1 AND model = $2", session_id, model)

    async def replay(
        self, session_id: UUID, request_id: str, content: str, retry_of: int | None = None
    ) -> tuple[Turn, Turn]:
        rows = await self._pool.fetch(
            f"SELECT {_READ_COLUMNS} FROM turns WHERE session_id = $1 AND sequence_number IN "
            f"(SELECT u.sequence_number + k FROM turns u, (VALUES (0), (1)) AS o(k) "
            f" WHERE u.session_id = $1 AND u.request_id = $2 AND u.role = 'user') "
            f"ORDER BY sequence_number",
            session_id,
            request_id,
        )
        if len(rows) != 2:
            raise NotFound(f"No stored exchange for request_id {request_id!r}.", field="request_id")
        user, assistant = to_turn(rows[0]), to_turn(rows[1])
        if user.content != content or user.retry_of != retry_of:
            raise Conflict(
                f"request_id {request_id!r} was already used for a different message in this Session.",
                field="request_id",
            )
        return user, assistant


def _stored(session_id: UUID, exchange: Exchange, row: asyncpg.Record, *, user: bool) -> Turn:
    """A Turn just written. The statement returns only its number and time: every other value
    is what was stored, so it is not sent back (5.4% of a send's instructions)."""
    return Turn(
        session_id=session_id,
        sequence_number=row[0],
        role="user" if user else "assistant",
        content=exchange.user_content if user else exchange.assistant_content,
        provider=exchange.provider,
        model=(exchange.asked_model or exchange.model) if user else exchange.model,
        checkpoint_id=exchange.checkpoint_id,
        history_base_seq=exchange.history_base_seq,
        input_tokens=None if user else exchange.input_tokens,
        output_tokens=None if user else exchange.output_tokens,
        request_id=exchange.request_id,
        created_at=row[1],
        retry_of=exchange.retry_of if user else None,
        stopped=False if user else exchange.stopped,
        context_sha256=None if user else exchange.context_sha256,
        context_through_seq=exchange.context_through_seq if user else None,
        at_limit=False if user else exchange.at_limit,
        created_by=None if exchange.agent is None else author(exchange.agent.id, exchange.agent.name),
    )
