"""The context a past reply was answered from, rebuilt, with its receipt checked (docs/api.md,
"Sending and the exact context").

A reply's context is fixed by what its pair recorded: the Checkpoint in context, the mount's
boundary and the Session's last Turn when the context was read (on the user Turn), and the
Session's Turns between the boundary and that one, less the pairs that retries had asked again
by then (a retry's own included). A send answered at the same time as another in the Session
did not see that one's pair, though its numbers come first, and its rebuild leaves it out too.
Checkpoints and Turns are never edited, so the same read, assembled by the same function as a
send, gives the same context, and hashing it the same way gives the reply's receipt, or shows
that something differs. The offline provider's replies are left out of it as the send left them
out: of every provider's context but its own. A reply answered before they were left out was
sent them: when its receipt is that context's hash, that context is the one shown.
One statement reads it all.
"""

from __future__ import annotations

from collections.abc import Set
from uuid import UUID

from smriti.chat.context import AssembledContext, HistoryTurn, MountedCheckpoint, assemble, left_out_for
from smriti.chat.receipts import context_sha256
from smriti.chat.schemas import AnsweredContext, ContextMessage
from smriti.chat.store import OFFLINE_REPLY_SQL
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS
from smriti.checkpoints.store import to_checkpoint
from smriti.core.errors import BadRequest, NotFound
from smriti.db.pool import Pool
from smriti.sessions.turns import retried_pairs

_CHECKPOINT = ", ".join(f"c.{name} AS c_{name}" for name in CHECKPOINT_FIELDS)

# $2 is the reply's sequence number; its message is the Turn before it, whose context held the
# Turns up to `context_through_seq` (before 0011: up to the Turn before the message).
_ANSWERED_SQL = f"""
SELECT a.role AS reply_role, a.context_sha256, u.role AS message_role, u.content AS message,
       u.provider, u.model, u.checkpoint_id, u.history_base_seq, {_CHECKPOINT},
       history.seqs, history.roles, history.contents, history.offline_replies, retried.retry_ofs
FROM sessions s
LEFT JOIN turns a ON a.session_id = s.id AND a.sequence_number = $2
LEFT JOIN turns u ON u.session_id = s.id AND u.sequence_number = $2 - 1
LEFT JOIN commits c ON c.id = u.checkpoint_id
LEFT JOIN LATERAL (
    SELECT array_agg(t.sequence_number ORDER BY t.sequence_number) AS seqs,
           array_agg(t.role ORDER BY t.sequence_number) AS roles,
           array_agg(t.content ORDER BY t.sequence_number) AS contents,
           array_agg(t.sequence_number) FILTER (WHERE {OFFLINE_REPLY_SQL}) AS offline_replies
    FROM turns t
    WHERE t.session_id = s.id AND t.sequence_number > coalesce(u.history_base_seq, 0)
      AND t.sequence_number <= coalesce(u.context_through_seq, $2 - 2)
) history ON true
LEFT JOIN LATERAL (
    SELECT array_agg(t.retry_of) AS retry_ofs
    FROM turns t
    WHERE t.session_id = s.id AND t.retry_of IS NOT NULL
      AND (t.sequence_number <= coalesce(u.context_through_seq, $2 - 2) OR t.sequence_number = $2 - 1)
) retried ON true
WHERE s.id = $1
"""


async def answered_context(pool: Pool, session_id: UUID, sequence_number: int) -> AnsweredContext:
    row = await pool.fetchrow(_ANSWERED_SQL, session_id, sequence_number)
    if row is None:
        raise NotFound(f"No Session with id {session_id}.", field="session_id")
    if row["reply_role"] is None:
        raise NotFound(f"Session {session_id} has no Turn {sequence_number}.", field="sequence_number")
    if row["reply_role"] != "assistant" or row["message_role"] != "user":
        raise BadRequest(
            f"Turn {sequence_number} is a message, not a reply: its reply, Turn {sequence_number + 1}, was "
            "answered from the context that ends with it.",
            field="sequence_number",
        )
    mounted = None
    if row["checkpoint_id"] is not None:
        if row["c_id"] is None:  # cannot happen: a Checkpoint goes only with its Space, and the Turns too
            raise NotFound(f"No Checkpoint with id {row['checkpoint_id']}.", field="checkpoint_id")
        mounted = MountedCheckpoint.render(to_checkpoint(row, prefix="c_"))
    retried = retried_pairs(row["retry_ofs"] or [])
    history = [
        HistoryTurn(role, content, seq)
        for seq, role, content in zip(row["seqs"] or [], row["roles"] or [], row["contents"] or [], strict=True)
        if seq not in retried
    ]
    provider, model, recorded = row["provider"] or "", row["model"] or "", row["context_sha256"]

    def rebuild(leave_out: Set[int]) -> tuple[AssembledContext, str]:
        assembled = assemble(mounted, history, row["message"], leave_out=leave_out)
        return assembled, context_sha256(provider, model, assembled.system, assembled.messages)

    assembled, rebuilt = rebuild(left_out_for(provider, frozenset(row["offline_replies"] or ())))
    if assembled.left_out and recorded is not None and rebuilt != recorded:
        # Answered before the offline provider's replies were left out? Then it was sent them.
        sent_all, its_hash = rebuild(frozenset())
        if its_hash == recorded:
            assembled, rebuilt = sent_all, its_hash
    messages = [ContextMessage(turn.role, turn.content, turn.sequence_number) for turn in assembled.history]
    messages.append(ContextMessage("user", row["message"], sequence_number - 1))
    return AnsweredContext(
        session_id=session_id,
        sequence_number=sequence_number,
        provider=row["provider"],
        model=row["model"],
        checkpoint_id=row["checkpoint_id"],
        history_base_seq=row["history_base_seq"],
        system=assembled.system,
        messages=messages,
        context_sha256=rebuilt,
        recorded_sha256=recorded,
        matches=None if recorded is None else recorded == rebuilt,
        left_out=assembled.left_out_note(),
    )
