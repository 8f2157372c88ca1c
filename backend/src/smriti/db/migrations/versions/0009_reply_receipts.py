"""A receipt on every reply: `turns.context_sha256`.

The SHA-256 (hex) of the RFC 8785 canonical JSON of exactly what the provider was sent for that
reply (`{provider, model, system, messages}`, `chat/receipts.py`), on assistant Turns; the user
Turn of the pair records the model the message was sent to, which the receipt names. Checkpoints
and Turns never change, so the context a reply was answered from can be rebuilt at any time and
its hash held to this one (`GET /v4/sessions/{id}/turns/{seq}/context`). Turns stored before
this migration, and imported ones, have none (NULL).

A nullable column with no default: PostgreSQL adds it as a catalog change, without rewriting
the table; the CHECK reads the table once (every existing row is NULL, and passes).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_RECEIPT_RULE = "context_sha256 IS NULL OR (role = 'assistant' AND context_sha256 ~ '^[0-9a-f]{64}$')"


def upgrade() -> None:
    op.add_column("turns", sa.Column("context_sha256", sa.String(64), nullable=True))
    op.create_check_constraint(op.f("ck_turns_context_sha256"), "turns", _RECEIPT_RULE)


def downgrade() -> None:
    op.drop_constraint(op.f("ck_turns_context_sha256"), "turns", type_="check")
    op.drop_column("turns", "context_sha256")
