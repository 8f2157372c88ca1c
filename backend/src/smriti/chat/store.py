"""The first of a send's two short database visits: read the context, in one statement.

The second, storing the exchange, is the Turns' own (`sessions/turns.py`). No connection is held
between them, so a slow provider never ties up the pool. This statement reads across the
Session, its Turns, the Checkpoint in context and the Space's HEAD in one round trip; it writes
nothing.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from uuid import UUID

import asyncpg

from smriti.access.scope import hides
from smriti.chat.context import HistoryTurn, MountedCheckpoint
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS
from smriti.checkpoints.store import to_checkpoint
from smriti.core.errors import BadRequest, NotFound
from smriti.core.lru import SizedLru
from smriti.db.pool import Pool
from smriti.providers.offline import OFFLINE_PROVIDER
from smriti.sessions.turns import retried_pairs

_CHECKPOINT_PREFIXED = ", ".join(f"c.{name} AS c_{name}" for name in CHECKPOINT_FIELDS)


@dataclass(frozen=True, slots=True)
class SessionContext:
    session_id: UUID
    repo_id: UUID
    last_seq: int
    provider: str | None
    model: str | None
    mounted: MountedCheckpoint | None
    head_created_at: datetime.datetime | None
    """When the Space's HEAD was made; read for unmounted Sessions only (None when mounted)."""
    history: list[HistoryTurn]
    turns_after_head: int
    """Turns in `history` created after the Space's HEAD (all of them when there is no HEAD);
    read for unmounted Sessions only (0 when mounted: the nudge counts from the mount)."""
    replay_seq: int | None
    checkpoint_id: UUID | None = None
    """The Checkpoint in context: the mounted one, else the Session's base, else None."""
    history_base_seq: int | None = None
    """The mount's boundary; None without a mount (a Session's base needs none: every Turn of
    the Session is after it). A Turn records it, so a based Turn says so: a Checkpoint and no
    boundary."""
    based: bool = False
    """Whether the Checkpoint in context is the Session's base (no mount was sent)."""
    offline_replies: frozenset[int] = frozenset()
    """The sequence numbers of the offline provider's replies after the boundary: no other
    provider is sent them (`context.left_out_for`)."""


# An offline provider's reply (`providers.offline.is_offline_reply`), as SQL over `turns t`.
OFFLINE_REPLY_SQL = f"t.role = 'assistant' AND t.provider = '{OFFLINE_PROVIDER}'"


# The Session, a replayed request, the mounted Checkpoint and the Turns after the boundary (a
# range of the primary key), all in one round trip. Without a mount, the nudge counts the Turns
# newer than the Space's HEAD, so that statement also joins HEAD and PostgreSQL counts them; with
# one, the nudge counts from the mount, and leaving HEAD out saves ~17% of the statement's CPU.
def _context_sql(checkpoint_columns: str, *, since_head: bool, checkpoint: str = "$2") -> str:
    if since_head:
        head_time = "head.created_at"
        head_join = "JOIN repos r ON r.id = s.repo_id LEFT JOIN commits head ON head.id = r.head_commit_id"
        after_head = "count(*) FILTER (WHERE head.created_at IS NULL OR t.created_at > head.created_at)"
    else:
        head_time, head_join, after_head = "NULL::timestamptz", "", "0"
    return f"""
SELECT s.repo_id, s.last_seq, s.provider, s.model, s.base_commit_id, {head_time} AS head_created_at,
       (SELECT t.sequence_number FROM turns t
         WHERE t.session_id = s.id AND t.request_id = $3 AND t.role = 'user') AS replay_seq,
       {checkpoint_columns},
       history.seqs, history.roles, history.contents, history.after_head, history.retried,
       history.offline_replies
FROM sessions s
{head_join}
LEFT JOIN commits c ON c.id = {checkpoint}
LEFT JOIN LATERAL (
    SELECT array_agg(t.sequence_number ORDER BY t.sequence_number) AS seqs,
           array_agg(t.role ORDER BY t.sequence_number) AS roles,
           array_agg(t.content ORDER BY t.sequence_number) AS contents,
           {after_head} AS after_head,
           array_agg(t.retry_of) FILTER (WHERE t.retry_of IS NOT NULL) AS retried,
           array_agg(t.sequence_number) FILTER (WHERE {OFFLINE_REPLY_SQL}) AS offline_replies
    FROM turns t WHERE t.session_id = s.id AND t.sequence_number > $4
) history ON true
WHERE s.id = $1
"""


_CHECKPOINT_ID_ONLY = "c.id AS c_id, c.repo_id AS c_repo_id"
_UNMOUNTED_SQL = _context_sql(_CHECKPOINT_ID_ONLY, since_head=True)
_MOUNTING_SQL = _context_sql(_CHECKPOINT_PREFIXED, since_head=False)
# A Checkpoint already rendered: only whether it still exists, and in which Space.
_MOUNTED_SQL = _context_sql(_CHECKPOINT_ID_ONLY, since_head=False)
# An unmounted send to a Session whose base this process does not know yet: the base, if it has
# one, comes in the same statement (every Turn is after it, and $4 is 0).
_FIRST_SQL = _context_sql(_CHECKPOINT_PREFIXED, since_head=True, checkpoint="coalesce($2::uuid, s.base_commit_id)")


def _history(row: asyncpg.Record) -> list[HistoryTurn]:
    """The Turns in scope, less the pairs that were asked again (sessions/turns.py)."""
    # array_agg over no rows is NULL, not an empty array.
    history = list(map(HistoryTurn, row["roles"] or [], row["contents"] or [], row["seqs"] or []))
    if row["retried"]:
        retried = retried_pairs(row["retried"])
        return [turn for turn in history if turn.sequence_number not in retried]
    return history


# The cache's mark for a Session known to have no base.
_NO_BASE = UUID(int=0)


class ChatStore:
    def __init__(self, pool: Pool, *, rendered_checkpoints_bytes: int = 16 * 2**20, known_bases: int = 50_000) -> None:
        self._pool = pool
        # Each Session's base Checkpoint (or `_NO_BASE`), by Session id. A base is set when the
        # Session is made and never changes, so a send on a based Session that is known here
        # reads its context like a mounted send, in one statement.
        self._bases: SizedLru[UUID, UUID] = SizedLru(known_bases, lambda _: 1)
        # Mounted Checkpoints as rendered for the provider, by id. A Checkpoint never changes, so
        # a rendering stays right; whether the Checkpoint still exists, and in the Session's
        # Space, is read on every send all the same. Sized by the system text and its sections.
        self._rendered: SizedLru[UUID, MountedCheckpoint] = SizedLru(
            rendered_checkpoints_bytes, lambda mounted: 2 * len(mounted.system)
        )

    @property
    def pool(self) -> Pool:
        return self._pool

    async def read_context(
        self,
        session_id: UUID,
        *,
        checkpoint_id: UUID | None,
        history_base_seq: int | None,
        request_id: str | None = None,
    ) -> SessionContext:
        """The Session, the Checkpoint in context and the Turns in scope, in one statement, then
        validated. Without a mount, a Session's base is the Checkpoint in context, and all its
        Turns are in scope."""
        based = False
        base_known = True
        if checkpoint_id is None:
            base = self._bases.get(session_id)
            base_known = base is not None
            if base is not None and base != _NO_BASE:
                checkpoint_id, history_base_seq, based = base, 0, True
        if checkpoint_id is None:
            mounted, sql = None, _UNMOUNTED_SQL if base_known else _FIRST_SQL
        else:
            mounted = self._rendered.get(checkpoint_id)
            sql = _MOUNTED_SQL if mounted is not None else _MOUNTING_SQL
        row = await self._pool.fetchrow(sql, session_id, checkpoint_id, request_id, history_base_seq or 0)
        if row is None:
            raise NotFound(f"No Session with id {session_id}.", field="session_id")
        if not base_known:
            self._bases.put(session_id, row["base_commit_id"] or _NO_BASE)
            if row["base_commit_id"] is not None:  # the statement read the base in context
                checkpoint_id, history_base_seq, based = row["base_commit_id"], 0, True
                mounted = self._rendered.get(checkpoint_id)
        if checkpoint_id is not None:
            if row["c_id"] is None or (row["c_repo_id"] != row["repo_id"] and hides(row["c_repo_id"])):
                raise NotFound(f"No Checkpoint with id {checkpoint_id}.", field="checkpoint_id")
            if row["c_repo_id"] != row["repo_id"]:
                raise BadRequest("checkpoint_id belongs to another Space than this Session.", field="checkpoint_id")
            if mounted is None:
                mounted = MountedCheckpoint.render(to_checkpoint(row, prefix="c_"))
                self._rendered.put(checkpoint_id, mounted)
        last_seq: int = row["last_seq"]
        if history_base_seq is not None and history_base_seq > last_seq:
            raise BadRequest(
                f"history_base_seq {history_base_seq} is above this Session's last Turn ({last_seq}).",
                field="history_base_seq",
            )
        return SessionContext(
            session_id=session_id,
            repo_id=row["repo_id"],
            last_seq=last_seq,
            provider=row["provider"],
            model=row["model"],
            mounted=mounted,
            head_created_at=row["head_created_at"],
            history=_history(row),
            offline_replies=frozenset(row["offline_replies"] or ()),
            turns_after_head=row["after_head"] or 0,
            replay_seq=row["replay_seq"],
            checkpoint_id=checkpoint_id,
            history_base_seq=history_base_seq if checkpoint_id is not None and not based else None,
            based=based,
        )
