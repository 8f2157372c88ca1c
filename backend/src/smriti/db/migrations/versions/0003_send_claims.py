"""Send claims: concurrent sends with one `request_id` call the provider once.

A send with a `request_id` claims it here before calling the provider and gives the claim up
when its exchange is stored (in the same statement) or when it failed. Another send with the
same key, in any process, finds the claim and waits for the stored pair instead of calling the
provider a second time. A claim whose process died expires (`expires_at`), and a waiting send
then takes it over. The table stays small: a row lives only while its provider call does.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "send_claims",
        sa.Column("session_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("request_id", sa.String(length=200), nullable=False),
        sa.Column("content_sha256", sa.LargeBinary(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_send_claims_session_id_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("session_id", "request_id", name="pk_send_claims"),
    )


def downgrade() -> None:
    op.drop_table("send_claims")
