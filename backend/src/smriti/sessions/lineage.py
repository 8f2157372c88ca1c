"""What a Session's reads add to its row: where its next save starts, and its lineage (docs/api.md,
"A Session's context lives on the server").

- `last_saved`: the newest Checkpoint of its Space whose `metadata.source.session_id` names it
  (`ix_commits_source_session`, one index lookup), with the line that Checkpoint went to
  (`commits.branch_id`, by the line's name now; null when the line is gone or not known).
- `forked_from.deleted`: whether the Session it was forked from still exists (the id is kept as
  history; there is no foreign key, so a fork outlives its origin).
- `continued_in` / `continued_count`: the Sessions forked from it, newest first, at most
  `CONTINUED_SHOWN` listed (`ix_sessions_forked_from`).
- `created_by`'s name: the current name of the agent that made it (a primary-key lookup).

One statement for a whole page of Sessions, however many there are on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import msgspec
from sqlalchemy import bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Uuid

from smriti.access.authors import author
from smriti.core.schemas import Usage
from smriti.db.models import SessionModel
from smriti.sessions.schemas import CONTINUED_SHOWN, Continuation, ForkedFrom, LastSaved, Session

# `lower(...) = s.id::text` with its IS NOT NULL is exactly the key and predicate of the partial
# index (migration 0016): a UUID's text is lower case, a client's spelling of it may not be.
_CONTEXT_SQL = text(
    f"""
SELECT s.id, json_build_object(
    'last_saved', (
        SELECT json_build_object('commit_id', c.id, 'commit_hash', c.commit_hash, 'branch', b.name)
        FROM commits c LEFT JOIN branches b ON b.id = c.branch_id AND b.repo_id = c.repo_id
        WHERE c.repo_id = s.repo_id AND lower(c.metadata #>> '{{source,session_id}}') = s.id::text
              AND (c.metadata #>> '{{source,session_id}}') IS NOT NULL
        ORDER BY c.created_at DESC, c.id DESC LIMIT 1),
    'base_commit_hash', (SELECT commit_hash FROM commits WHERE id = s.base_commit_id),
    'origin_deleted', s.forked_from_session_id IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM sessions o WHERE o.id = s.forked_from_session_id),
    'continued_in', coalesce((
        SELECT json_agg(json_build_object('session_id', f.id, 'title', f.title, 'base_commit_id', f.base_commit_id,
                                          'base_commit_hash', fb.commit_hash, 'created_at', f.created_at)
                        ORDER BY f.created_at DESC, f.id DESC)
        FROM (SELECT id, title, base_commit_id, created_at FROM sessions
              WHERE forked_from_session_id = s.id ORDER BY created_at DESC, id DESC LIMIT {CONTINUED_SHOWN}) f
        LEFT JOIN commits fb ON fb.id = f.base_commit_id),
        '[]'::json),
    'continued_count', (SELECT count(*) FROM sessions f WHERE f.forked_from_session_id = s.id),
    'created_by_name', (SELECT name FROM agents WHERE agents.id = s.created_by)
)::text AS context
FROM sessions s WHERE s.id = ANY(:ids)
"""
).bindparams(bindparam("ids", type_=ARRAY(Uuid())))


class _Context(msgspec.Struct):
    base_commit_hash: str | None
    last_saved: LastSaved | None
    origin_deleted: bool
    continued_in: list[Continuation]
    continued_count: int
    created_by_name: str | None = None


_decode = msgspec.json.Decoder(_Context).decode
_NONE = _Context(base_commit_hash=None, last_saved=None, origin_deleted=False, continued_in=[], continued_count=0)


def session_of(
    model: SessionModel, base_commit_hash: str | None = None, *, created_by_name: str | None = None
) -> Session:
    """A Session's row as the API shows it, with nothing added but its base's hash and the name of
    the agent that made it (which the caller read): right for a Session just made (nothing was
    saved from it, nothing continued from it, its origin was there a moment ago)."""
    origin, seq = model.forked_from_session_id, model.forked_from_seq
    return Session(
        id=model.id,
        repo_id=model.repo_id,
        title=model.title,
        provider=model.provider,
        model=model.model,
        turn_count=model.last_seq,
        base_commit_id=model.base_commit_id,
        base_commit_hash=base_commit_hash,
        forked_from=(
            ForkedFrom(session_id=origin, sequence_number=seq, deleted=False)
            if origin is not None and seq is not None
            else None
        ),
        last_saved=None,
        continued_in=[],
        continued_count=0,
        created_at=model.created_at,
        updated_at=model.updated_at,
        usage=Usage(
            input_tokens=model.input_tokens,
            output_tokens=model.output_tokens,
            uncounted_replies=model.uncounted_replies,
        ),
        created_by=author(model.created_by, created_by_name),
    )


async def sessions_with_context(db: AsyncSession, models: Sequence[SessionModel]) -> list[Session]:
    """These Sessions as the API shows them, each with what its reads add (one statement)."""
    if not models:
        return []
    rows = await db.execute(_CONTEXT_SQL, {"ids": [model.id for model in models]})
    found: dict[UUID, _Context] = {row.id: _decode(row.context) for row in rows}
    # A Session deleted since its row was read shows as it was read, with nothing added.
    return [_with(model, found.get(model.id, _NONE)) for model in models]


def _with(model: SessionModel, context: _Context) -> Session:
    session = session_of(model, created_by_name=context.created_by_name)
    origin = session.forked_from
    forked_from = (
        ForkedFrom(session_id=origin.session_id, sequence_number=origin.sequence_number, deleted=context.origin_deleted)
        if origin is not None
        else None
    )
    return msgspec.structs.replace(
        session,
        base_commit_hash=context.base_commit_hash,
        forked_from=forked_from,
        last_saved=context.last_saved,
        continued_in=context.continued_in,
        continued_count=context.continued_count,
    )
