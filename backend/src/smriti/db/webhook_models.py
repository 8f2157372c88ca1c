"""The webhooks' tables (migration 0022, SYSTEM.md §14). Written and read with SQL of their own
(`webhooks/`); described here so the schema test holds the migration to them."""

from __future__ import annotations

import datetime
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    Text,
    Uuid,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column


class WebhookModel(DefaultBase):
    """Where and what to send, and how far delivery has come (the cursor, retries, the lease)."""

    __tablename__ = "webhooks"
    __table_args__ = (Index("webhooks_due", "next_attempt_at", postgresql_where=text("active")),)

    id: Mapped[UUID] = mapped_column(Uuid, primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    repo_id: Mapped[UUID | None] = mapped_column(Uuid)
    types: Mapped[list[str] | None] = mapped_column(ARRAY(Text))
    secret: Mapped[bytes] = mapped_column(LargeBinary)
    active: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    disabled_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True), server_default=text("now()"))
    delivered_through: Mapped[int] = mapped_column(BigInteger)
    next_attempt_at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True), server_default=text("now()"))
    failing_since: Mapped[datetime.datetime | None] = mapped_column(DateTimeUTC(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    lease_holder: Mapped[UUID | None] = mapped_column(Uuid)
    lease_until: Mapped[datetime.datetime | None] = mapped_column(DateTimeUTC(timezone=True))


class WebhookDeliveryModel(DefaultBase):
    """One attempt to deliver one event; the latest 100 per webhook are kept."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("webhook_deliveries_latest", "webhook_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    webhook_id: Mapped[UUID] = mapped_column(Uuid, ForeignKey("webhooks.id", ondelete="CASCADE"))
    event_id: Mapped[int] = mapped_column(BigInteger)
    attempt: Mapped[int] = mapped_column(Integer)
    status_code: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime.datetime] = mapped_column(DateTimeUTC(timezone=True), server_default=text("now()"))
