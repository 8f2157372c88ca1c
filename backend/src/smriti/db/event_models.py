"""The event log's tables (migration 0021, SYSTEM.md §14). Written and read with SQL of their own
(`events/`); described here so the schema test holds the migration to them."""

from __future__ import annotations

import datetime
from typing import Any
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import BigInteger, Boolean, CheckConstraint, Identity, Index, Text, Uuid, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column


class EventModel(DefaultBase):
    """One change to a Space. `id` is NULL until the sequencer numbers it (`events/sequencer.py`)."""

    __tablename__ = "events"
    __table_args__ = (
        Index("events_id", "id", unique=True, postgresql_where=text("id IS NOT NULL")),
        Index("events_repo_id", "repo_id", "id", postgresql_where=text("id IS NOT NULL")),
        Index("events_unnumbered", "seq", postgresql_where=text("id IS NULL")),
    )

    seq: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    id: Mapped[int | None] = mapped_column(BigInteger)
    repo_id: Mapped[UUID] = mapped_column(Uuid)
    type: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True), server_default=text("now()"))
    actor_agent_id: Mapped[UUID | None] = mapped_column(Uuid)
    actor_name: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)


class EventsPrunedModel(DefaultBase):
    """One row: the highest event id retention has removed (an `after` below it is a 410)."""

    __tablename__ = "events_pruned"
    __table_args__ = (CheckConstraint("one", name="one"),)

    one: Mapped[bool] = mapped_column(Boolean, primary_key=True, server_default=text("true"))
    through: Mapped[int] = mapped_column(BigInteger)
