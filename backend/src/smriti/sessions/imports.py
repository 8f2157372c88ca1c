"""An import's Sessions: written in one transaction with their Turns, each recorded with its
conversation's own id so that a Space knows a conversation it holds already.

`TurnStore.importing` (`turns.py`) opens the transaction and hands out a `SessionImport`; this is
the rest of the only code that writes imported Sessions and `imported_conversations`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from uuid import UUID

import asyncpg

from smriti.access.caller import Agent
from smriti.core.errors import Conflict
from smriti.core.ids import uuid7
from smriti.events.record import actor_columns


@dataclass(frozen=True, slots=True)
class ImportedSession:
    """A Session to import: its title, its (role, content) Turns, and when it began and last
    changed where the source says (migrated conversations keep their own times)."""

    title: str
    turns: list[tuple[str, str]]
    created_at: datetime.datetime | None = None
    updated_at: datetime.datetime | None = None
    source_id: str | None = None
    """The conversation's own id in its source, by which the Space knows it again."""


@dataclass(frozen=True, slots=True)
class Imported:
    """What became of an ImportedSession: the Session made for it, or (`earlier`) the Session the
    Space already holds for that conversation, and nothing was written."""

    session_id: UUID
    earlier: bool = False


class SessionImport:
    """The Sessions of one import, written in the transaction `TurnStore.importing` holds.

    With a `source` (the export's format), each Session is recorded with its conversation's own
    id in `imported_conversations`, and a conversation the Space already holds (imported before,
    or earlier in this import) is not written again unless `copies` is asked for. The table's
    unique key settles a race with another import of the same conversation: the later one's
    write fails (a 409, nothing written) instead of making a second Session."""

    def __init__(
        self,
        conn: asyncpg.Connection,
        repo_id: UUID,
        provider: str,
        source: str | None,
        copies: bool,
        *,
        agent: Agent | None,
    ) -> None:
        self._conn = conn
        # Who imports: each Session and Turn's `created_by`, and each Session's event's actor.
        self._agent_id, self._agent_name = actor_columns(agent)
        self._repo_id = repo_id
        self._provider = provider
        self._source = source
        self._copies = copies

    async def add(self, sessions: list[ImportedSession]) -> list[Imported]:
        """These Sessions, created in this order (but those the Space holds); one with no time is
        as new as the import."""
        held = await self._held(sessions) if self._source is not None and not self._copies else {}
        new = [i for i in range(len(sessions)) if i not in held]
        ids = {i: uuid7() for i in new}
        await self._write([sessions[i] for i in new], [ids[i] for i in new])
        imported = []
        for i in range(len(sessions)):
            found = held.get(i)
            if found is None:
                imported.append(Imported(ids[i]))
            else:  # a Session from before, or the one made for the same conversation in this batch
                imported.append(Imported(found if isinstance(found, UUID) else ids[found], earlier=True))
        return imported

    async def _held(self, sessions: list[ImportedSession]) -> dict[int, UUID | int]:
        """The conversations the Space holds already, by their place in `sessions`: the Session of
        an earlier import (or of an earlier batch of this one: this transaction sees it), or the
        place of the same conversation earlier in this batch."""
        keys = [s.source_id for s in sessions if s.source_id is not None]
        if not keys:
            return {}
        rows = await self._conn.fetch(
            "SELECT conversation_id, session_id FROM imported_conversations "
            "WHERE repo_id = $1 AND source = $2 AND conversation_id = ANY($3::text[])",
            self._repo_id,
            self._source,
            keys,
        )
        stored: dict[str, UUID] = {row[0]: row[1] for row in rows}
        first: dict[str, int] = {}
        held: dict[int, UUID | int] = {}
        for i, session in enumerate(sessions):
            key = session.source_id
            if key is None:
                continue
            if key in stored:
                held[i] = stored[key]
            elif key in first:
                held[i] = first[key]
            else:
                first[key] = i
        return held

    async def _write(self, sessions: list[ImportedSession], ids: list[UUID]) -> None:
        if not sessions:
            return
        numbered = [
            (session_id, n, role, content)
            for session_id, session in zip(ids, sessions, strict=True)
            for n, (role, content) in enumerate(session.turns, start=1)
        ]
        # Imported replies carry no token counts: each is uncounted. clock_timestamp() moves on
        # row by row, so Sessions without a time of their own keep the given order. Each Session
        # made is one `session.created` event (SYSTEM.md §14), in that order, by the same statement.
        await self._conn.execute(
            "WITH event AS (INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data) "
            "SELECT $1, 'session.created', $9::uuid, $10::text, "
            "jsonb_build_object('session_id', id, 'base_commit_id', NULL, 'forked_from', NULL) "
            "FROM unnest($3::uuid[]) WITH ORDINALITY AS e(id, n) ORDER BY n) "
            "INSERT INTO sessions (id, repo_id, title, provider, last_seq, uncounted_replies, created_at, "
            "updated_at, created_by) SELECT id, $1, title, $2, last_seq, uncounted, "
            "coalesce(created, clock_timestamp()), coalesce(updated, created, clock_timestamp()), $9::uuid "
            "FROM unnest($3::uuid[], $4::text[], $5::integer[], $6::integer[], $7::timestamptz[], "
            "$8::timestamptz[]) WITH ORDINALITY AS s(id, title, last_seq, uncounted, created, updated, n) "
            "ORDER BY n",
            self._repo_id,
            self._provider,
            ids,
            [session.title for session in sessions],
            [len(session.turns) for session in sessions],
            [sum(role == "assistant" for role, _ in session.turns) for session in sessions],
            [session.created_at for session in sessions],
            [session.updated_at for session in sessions],
            self._agent_id,
            self._agent_name,
        )
        await self._conn.execute(
            "INSERT INTO turns (session_id, sequence_number, role, content, provider, created_by) "
            "SELECT session_id, n, role, content, $5, $6::uuid "
            "FROM unnest($1::uuid[], $2::integer[], $3::text[], $4::text[]) AS t(session_id, n, role, content)",
            [turn[0] for turn in numbered],
            [turn[1] for turn in numbered],
            [turn[2] for turn in numbered],
            [turn[3] for turn in numbered],
            self._provider,
            self._agent_id,
        )
        await self._record(sessions, ids)

    async def _record(self, sessions: list[ImportedSession], ids: list[UUID]) -> None:
        keyed = [(i, s.source_id) for i, s in zip(ids, sessions, strict=True) if s.source_id is not None]
        if self._source is None or not keyed:
            return
        # A copy is recorded only when the Space held no Session of its conversation.
        on_conflict = " ON CONFLICT DO NOTHING" if self._copies else ""
        try:
            await self._conn.execute(
                "INSERT INTO imported_conversations (session_id, repo_id, source, conversation_id) "
                "SELECT session_id, $1, $2, conversation_id FROM unnest($3::uuid[], $4::text[]) "
                f"AS k(session_id, conversation_id){on_conflict}",
                self._repo_id,
                self._source,
                [session_id for session_id, _ in keyed],
                [key for _, key in keyed],
            )
        except asyncpg.UniqueViolationError:
            raise Conflict(
                "Another import into this Space stored some of these conversations while this one ran; nothing "
                "was imported. Import the file again: what the other stored is then skipped.",
                field="body",
            ) from None
