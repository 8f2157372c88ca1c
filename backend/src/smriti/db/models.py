"""The tables. Internal names follow Git (repo, commit); users see Space and Checkpoint."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    Uuid,
    cast,
    false,
    func,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR
from sqlalchemy.orm import Mapped, column_property, mapped_column

from smriti.core.ids import uuid7


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class Entity(DefaultBase):
    """A row with a server-generated UUID and a creation time."""

    __abstract__ = True

    id: Mapped[UUID] = mapped_column(primary_key=True, default=uuid7, sort_order=-100)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True), default=_now, sort_order=900)


class MutableEntity(Entity):
    __abstract__ = True

    updated_at: Mapped[datetime.datetime] = mapped_column(
        DateTimeUTC(timezone=True), default=_now, onupdate=_now, sort_order=901
    )


class RepoModel(MutableEntity):
    """A Space."""

    __tablename__ = "repos"
    __table_args__ = (
        # HEAD is a Checkpoint of this Space. Keyed by (Space, Checkpoint) so that the check
        # for each Checkpoint deleted with its Space is a primary-key lookup here, not a scan of
        # every Space (migration 0002). Deferred so that deleting a Space never trips over its
        # own HEAD pointer mid-statement; at commit time the Space row is gone too.
        ForeignKeyConstraint(
            ["id", "head_commit_id"],
            ["commits.repo_id", "commits.id"],
            name="fk_repos_head_commit_id_commits",
            use_alter=True,
            deferrable=True,
            initially="DEFERRED",
        ),
    )

    name: Mapped[str] = mapped_column(String(200), unique=True)
    description: Mapped[str] = mapped_column(Text, default="", server_default="")
    head_commit_id: Mapped[UUID | None] = mapped_column(default=None)
    # HEAD's hash, moved together with HEAD. Both are a copy of the default line's HEAD
    # (`BranchModel`), moved in the statement that moves that line's.
    head_commit_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    # Proposals made in this Space so far: the next one's number is one more (0020).
    proposal_count: Mapped[int] = mapped_column(Integer, server_default="0")
    if TYPE_CHECKING:
        head_message: Mapped[str | None]
        input_tokens: Mapped[int]
        output_tokens: Mapped[int]
        uncounted_replies: Mapped[int]


class CommitModel(Entity):
    """A Checkpoint. Never updated after insert; `commit_hash` makes tampering visible."""

    __tablename__ = "commits"
    __table_args__ = (
        Index("ix_commits_repo_id_created_at", "repo_id", text("created_at DESC"), text("id DESC")),
        Index("ix_commits_parent_commit_id", "parent_commit_id"),
        Index("ix_commits_merge_parent_id", "merge_parent_id", postgresql_where=text("merge_parent_id IS NOT NULL")),
        UniqueConstraint("repo_id", "id", name="uq_commits_repo_id_id"),
        Index("ix_commits_search_vector", "search_vector", postgresql_using="gin"),
        # A Space's Checkpoints by the Session they were saved from, newest first: a Session's
        # `last_saved` is one lookup (migration 0016; the key is lower-cased, never fails).
        Index(
            "ix_commits_source_session",
            "repo_id",
            text("lower(metadata #>> '{source,session_id}')"),
            text("created_at DESC"),
            text("id DESC"),
            postgresql_where=text("(metadata #>> '{source,session_id}') IS NOT NULL"),
        ),
    )

    repo_id: Mapped[UUID] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    parent_commit_id: Mapped[UUID | None] = mapped_column(ForeignKey("commits.id"), default=None)
    # The second parent of a merge (migration 0004); null for every other Checkpoint.
    merge_parent_id: Mapped[UUID | None] = mapped_column(ForeignKey("commits.id"), default=None)
    # How many first parents stand behind this one: a line's history from its HEAD is depth + 1
    # Checkpoints long, known without walking it. Derived, not content: not in the hash.
    depth: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A first-parent ancestor further back than the parent (the root's is itself) and its depth:
    # skew-binary jump links, so the merge base is found in O(log depth) steps (migration 0007).
    # Derived, not content: not in the hash. No foreign key: it names an ancestor of the same
    # Space, and Checkpoints are only ever deleted with their Space.
    jump_commit_id: Mapped[UUID] = mapped_column()
    jump_depth: Mapped[int] = mapped_column(Integer)
    # The merges among this Checkpoint and its first parents: the merge base needs no walk over
    # merge links when neither side has merged anything since their fork point (migration 0007).
    first_parent_merges: Mapped[int] = mapped_column(Integer)
    # The line whose HEAD this Checkpoint became when it was written (migration 0016): "the line
    # it went to", which the lines cannot tell later, their HEADs having moved on. Derived, not
    # content: not in the hash. NULL where not known (written before 0016 and no line's HEAD
    # then, or imported). No foreign key: the line may be deleted, and a key would make deleting
    # a line rewrite every Checkpoint made on it.
    branch_id: Mapped[UUID | None] = mapped_column(default=None)
    commit_hash: Mapped[str] = mapped_column(String(64), unique=True)
    message: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text, default="")
    decisions: Mapped[list[str]] = mapped_column(JSONB, default=list)
    assumptions: Mapped[list[str]] = mapped_column(JSONB, default=list)
    tasks: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    open_questions: Mapped[list[str]] = mapped_column(JSONB, default=list)
    entities: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    artifacts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, default=dict)
    # Filled by a trigger from the fields above (migration 0012); read only by search.
    search_vector: Mapped[str | None] = mapped_column(TSVECTOR, default=None, deferred=True)
    # The trigger's copies of two parts of it, for a child that carries them unchanged (0013).
    items_vector: Mapped[str | None] = mapped_column(TSVECTOR, default=None, deferred=True)
    artifacts_vector: Mapped[str | None] = mapped_column(TSVECTOR, default=None, deferred=True)


# A line with a HEAD keeps that HEAD's jump chain and merge count (see the columns).
HEAD_LINKS_RULE = (
    "head_commit_id IS NULL OR (head_jumps IS NOT NULL AND head_jump_depths IS NOT NULL AND head_merges IS NOT NULL)"
)


class BranchModel(MutableEntity):
    """A line of Checkpoints: a named HEAD of its own, moved by compare-and-swap under this row's
    lock (migration 0004). Exactly one line of a Space is its default; the Space's HEAD is a copy
    of that line's. `commit_count` counts the Checkpoints made on this line; the Space's total is
    the sum over its lines (a line deleted hands its count to the default line)."""

    __tablename__ = "branches"
    __table_args__ = (
        ForeignKeyConstraint(
            ["repo_id", "head_commit_id"],
            ["commits.repo_id", "commits.id"],
            name="fk_branches_head_commit_id_commits",
            deferrable=True,
            initially="DEFERRED",
        ),
        # Names are unique by their key (`core.text.line_key`, migration 0015).
        Index("uq_branches_repo_id_name_key", "repo_id", "name_key", unique=True),
        Index("uq_branches_repo_id_default", "repo_id", unique=True, postgresql_where=text("is_default")),
        Index("ix_branches_repo_id_head_commit_id", "repo_id", "head_commit_id"),
        CheckConstraint(HEAD_LINKS_RULE, name="head_links"),
    )

    repo_id: Mapped[UUID] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    # What the name is compared by, for uniqueness and look-ups: `core.text.line_key(name)`,
    # computed by whoever writes the name (lines/store.py, bundles/write.py, the main line's
    # trigger), since PostgreSQL's lower() depends on the database's locale.
    name_key: Mapped[str] = mapped_column(Text)
    is_default: Mapped[bool] = mapped_column(Boolean)
    head_commit_id: Mapped[UUID | None] = mapped_column(default=None)
    head_commit_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    # HEAD's hash and depth, moved with HEAD: a commit reads its parent's from the row it locks
    # (a Checkpoint written by the commit it waited for is not yet visible to its statement).
    head_depth: Mapped[int | None] = mapped_column(Integer, default=None)
    # HEAD's chain of jump links and its merge count, moved with HEAD for the same reason
    # (migration 0007); NULL only while the line has no HEAD (HEAD_LINKS_RULE).
    head_jumps: Mapped[list[UUID] | None] = mapped_column(ARRAY(Uuid), default=None)
    head_jump_depths: Mapped[list[int] | None] = mapped_column(ARRAY(Integer), default=None)
    head_merges: Mapped[int | None] = mapped_column(Integer, default=None)
    commit_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Only the person moves, renames, deletes or re-defaults a protected line (0020).
    protected: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The agent whose key made it; NULL: the person (0020).
    created_by: Mapped[UUID | None] = mapped_column(ForeignKey("agents.id"), default=None)


class SessionModel(MutableEntity):
    """A conversation inside a Space. `last_seq` is the per-Session Turn counter.

    A Session with a `base_commit_id` starts from that Checkpoint: every Turn in it comes after
    the base, so the boundary is the Session itself (migration 0004). A fork also records where
    it came from (`forked_from_session_id`, and that Session's last Turn then)."""

    __tablename__ = "sessions"
    __table_args__ = (
        Index("ix_sessions_repo_id_created_at", "repo_id", "created_at"),
        ForeignKeyConstraint(
            ["repo_id", "base_commit_id"],
            ["commits.repo_id", "commits.id"],
            name="fk_sessions_base_commit_id_commits",
            deferrable=True,
            initially="DEFERRED",
        ),
        Index(
            "ix_sessions_repo_id_base_commit_id",
            "repo_id",
            "base_commit_id",
            postgresql_where=text("base_commit_id IS NOT NULL"),
        ),
        # The Sessions continued from one (its forks), newest first (migration 0016).
        Index(
            "ix_sessions_forked_from",
            "forked_from_session_id",
            text("created_at DESC"),
            postgresql_where=text("forked_from_session_id IS NOT NULL"),
        ),
    )

    repo_id: Mapped[UUID] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(Text, default="", server_default="")
    provider: Mapped[str | None] = mapped_column(String(32), default=None)
    model: Mapped[str | None] = mapped_column(String(200), default=None)
    last_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    base_commit_id: Mapped[UUID | None] = mapped_column(default=None)
    # Not a foreign key: the Session forked from may be deleted; the fork stands on its own
    # (and says that its origin is gone: `ForkedFrom.deleted`).
    forked_from_session_id: Mapped[UUID | None] = mapped_column(default=None)
    forked_from_seq: Mapped[int | None] = mapped_column(Integer, default=None)
    # What its replies cost, as the providers reported it (0010): moved by the write of each pair.
    input_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    output_tokens: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    uncounted_replies: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_by: Mapped[UUID | None] = mapped_column(ForeignKey("agents.id"), default=None)


class TurnModel(DefaultBase):
    """One message. Keyed by (session_id, sequence_number) so "the Turns after N" is one index range.

    The rules a Turn's row follows (a role of "user" or "assistant", a positive number, which
    fields only a message or only a reply may carry, and their bounds) are checked by the
    trigger `smriti_turn_rules` (migration 0014), not by CHECK constraints: PostgreSQL prepares
    CHECK expressions again for every statement, which cost more than the rest of a send's write.
    A broken rule is still reported under its constraint's name (`ck_turns_role`, ...)."""

    __tablename__ = "turns"
    __table_args__ = (
        Index(
            "uq_turns_session_id_request_id",
            "session_id",
            "request_id",
            unique=True,
            postgresql_where=text("request_id IS NOT NULL AND role = 'user'"),
        ),
        Index("ix_turns_search_vector", "search_vector", postgresql_using="gin"),
    )

    session_id: Mapped[UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    sequence_number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    provider: Mapped[str | None] = mapped_column(String(32), default=None)
    model: Mapped[str | None] = mapped_column(String(200), default=None)
    # The mount a Turn was sent under. Not a foreign key: a Checkpoint only ever disappears
    # together with its Space, and so do the Space's Sessions and Turns.
    checkpoint_id: Mapped[UUID | None] = mapped_column(default=None)
    history_base_seq: Mapped[int | None] = mapped_column(Integer, default=None)
    input_tokens: Mapped[int | None] = mapped_column(Integer, default=None)
    output_tokens: Mapped[int | None] = mapped_column(Integer, default=None)
    request_id: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime.datetime] = mapped_column(
        DateTimeUTC(timezone=True), server_default=text("clock_timestamp()")
    )
    # On the user Turn of a retry: the user Turn it asks again (migration 0005). That pair stays
    # in the history and leaves every later context.
    retry_of: Mapped[int | None] = mapped_column(Integer, default=None)
    # A streamed reply whose client went away before it was complete: what had arrived (0008).
    stopped: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # On a reply: the SHA-256 of exactly what the provider was sent for it (0009, chat/receipts.py).
    context_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    # Filled by a trigger from `content` (migration 0012); read only by search.
    search_vector: Mapped[str | None] = mapped_column(TSVECTOR, default=None, deferred=True)
    # On a message: the Session's last Turn when its context was read (0011, chat/answered.py).
    context_through_seq: Mapped[int | None] = mapped_column(Integer, default=None)
    # A reply the provider ended at its length limit, so maybe cut off mid-answer (0019).
    at_limit: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The agent whose key sent it (0020); not a foreign key: agents are never deleted, and this
    # is the hot path.
    created_by: Mapped[UUID | None] = mapped_column(Uuid, default=None)


class ImportedConversationModel(DefaultBase):
    """The Session a conversation import made of a conversation, by that conversation's own id in
    its source (migration 0017): importing the same file again skips what the Space holds. Gone
    with its Session, so a conversation whose Session was deleted imports again. Written by
    `sessions/turns.py` with the Session."""

    __tablename__ = "imported_conversations"
    __table_args__ = (
        UniqueConstraint(
            "repo_id", "source", "conversation_id", name="uq_imported_conversations_repo_id_source_conversation_id"
        ),
    )

    session_id: Mapped[UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    # The Session's Space, kept here so that the look-up by conversation is one index range.
    repo_id: Mapped[UUID] = mapped_column(Uuid)
    # The export's format (`transcripts/conversations.ExportFormat`): ids are unique within one.
    source: Mapped[str] = mapped_column(String(16))
    conversation_id: Mapped[str] = mapped_column(String(200))


class SendClaimModel(DefaultBase):
    """A send with a `request_id` whose provider call is under way (migration 0003): others with
    the same key wait for its pair instead of calling the provider again."""

    __tablename__ = "send_claims"

    session_id: Mapped[UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    request_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    content_sha256: Mapped[bytes] = mapped_column(LargeBinary)
    expires_at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True))


# A Space lists with its HEAD's message, read in the same query as the Space itself.
RepoModel.head_message = column_property(
    select(CommitModel.message).where(CommitModel.id == RepoModel.head_commit_id).scalar_subquery()
)
# And with its usage: the sum of its Sessions' counters, in the same query.
RepoModel.input_tokens = column_property(
    # sum() of a bigint is a numeric in PostgreSQL: cast back, so it reads as an int.
    select(cast(func.coalesce(func.sum(SessionModel.input_tokens), 0), BigInteger))
    .where(SessionModel.repo_id == RepoModel.id)
    .scalar_subquery()
)
RepoModel.output_tokens = column_property(
    select(cast(func.coalesce(func.sum(SessionModel.output_tokens), 0), BigInteger))
    .where(SessionModel.repo_id == RepoModel.id)
    .scalar_subquery()
)
RepoModel.uncounted_replies = column_property(
    select(cast(func.coalesce(func.sum(SessionModel.uncounted_replies), 0), BigInteger))
    .where(SessionModel.repo_id == RepoModel.id)
    .scalar_subquery()
)
