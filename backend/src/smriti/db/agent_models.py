"""The tables of agents and proposals (migration 0020, SYSTEM.md §13)."""

from __future__ import annotations

import datetime
from uuid import UUID

from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import (
    ARRAY,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    Uuid,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from smriti.db.models import Entity, MutableEntity


class AgentModel(Entity):
    """A key the person gave an agent. Only the key's SHA-256 is kept; a revoked key keeps its row,
    since what the agent made still names it (`created_by`, a Checkpoint's `metadata.author`)."""

    __tablename__ = "agents"

    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    # The Spaces it may reach; NULL: every Space (and it may create Spaces).
    spaces: Mapped[list[UUID] | None] = mapped_column(ARRAY(Uuid), default=None)
    write: Mapped[bool] = mapped_column(Boolean)
    # To the minute: touched when a request finds it older than that (`access/keys.py`).
    last_used_at: Mapped[datetime.datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    revoked_at: Mapped[datetime.datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)


class ProposalModel(MutableEntity):
    """An agent's request that the person merge one line into another. Its lines are followed by
    id, so a rename is followed; a deleted line leaves NULL and its name as last seen."""

    __tablename__ = "proposals"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'merged', 'closed')", name="status"),
        UniqueConstraint("repo_id", "number", name="uq_proposals_repo_id_number"),
        # One open proposal per pair of lines.
        Index(
            "uq_proposals_open_pair",
            "from_branch_id",
            "into_branch_id",
            unique=True,
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_proposals_repo_id_status_number", "repo_id", "status", "number"),
    )

    repo_id: Mapped[UUID] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    # From 1 in each Space (`repos.proposal_count`).
    number: Mapped[int] = mapped_column(Integer)
    from_branch_id: Mapped[UUID | None] = mapped_column(ForeignKey("branches.id", ondelete="SET NULL"))
    into_branch_id: Mapped[UUID | None] = mapped_column(ForeignKey("branches.id", ondelete="SET NULL"))
    from_name: Mapped[str] = mapped_column(String(100))
    into_name: Mapped[str] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="", server_default="")
    status: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    created_by: Mapped[UUID | None] = mapped_column(ForeignKey("agents.id"), default=None)
    merge_commit_id: Mapped[UUID | None] = mapped_column(ForeignKey("commits.id"), default=None)
    closed_reason: Mapped[str | None] = mapped_column(Text, default=None)
