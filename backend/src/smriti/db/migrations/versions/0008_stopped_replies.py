"""A reply the person stopped: `turns.stopped`.

A streamed reply (`POST /v4/chat/send` with `Accept: text/event-stream`) whose client goes away
before it is complete is stored with what had arrived, as the pair it is part of, and marked, so
nobody mistakes it for the model's whole answer. Every Turn carries the flag, false otherwise;
only an assistant Turn can be stopped.

The column has a constant default, so PostgreSQL adds it without rewriting the table (a catalog
change under a short ACCESS EXCLUSIVE lock); the CHECK then reads the table once, and every
existing row passes it (all are false).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_STOPPED_RULE = "NOT stopped OR role = 'assistant'"


def upgrade() -> None:
    op.add_column("turns", sa.Column("stopped", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_check_constraint(op.f("ck_turns_stopped"), "turns", _STOPPED_RULE)


def downgrade() -> None:
    op.drop_constraint(op.f("ck_turns_stopped"), "turns", type_="check")
    op.drop_column("turns", "stopped")
