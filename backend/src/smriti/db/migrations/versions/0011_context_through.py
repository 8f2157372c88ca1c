"""Where a message's context ended: `turns.context_through_seq`.

Two sends in one Session can be answered at once: both read the same Turns, and the pair stored
second was answered without the pair stored first, though that pair's numbers come before it.
Rebuilding a reply's context from "every Turn before its message" then gives a context it never
saw (and a receipt that does not match). The user Turn now records the Session's last Turn when
its context was read, in the statement that stores the pair, and the rebuild takes the Turns up
to it (`chat/answered.py`). Turns stored before this migration have none: their rebuild takes
the Turns before the pair, as before.

A nullable column with no default: a catalog change; the CHECK reads the table once.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_RULE = "context_through_seq IS NULL OR (role = 'user' AND context_through_seq BETWEEN 0 AND sequence_number - 1)"


def upgrade() -> None:
    op.add_column("turns", sa.Column("context_through_seq", sa.Integer(), nullable=True))
    op.create_check_constraint(op.f("ck_turns_context_through_seq"), "turns", _RULE)


def downgrade() -> None:
    op.drop_constraint(op.f("ck_turns_context_through_seq"), "turns", type_="check")
    op.drop_column("turns", "context_through_seq")
