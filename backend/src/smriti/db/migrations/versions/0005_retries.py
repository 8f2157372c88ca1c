"""Retry the last exchange: a new pair that answers the same message again.

`turns.retry_of` is set on the user Turn of a retry: the `sequence_number` of the user Turn it
asks again. The retried pair stays in the history, unchanged (Turns are never edited), and is
left out of every later context, which is what a retry means; the marker lives on the new Turn
so that nothing already written is touched. Only a user Turn can carry it, and only pointing
back.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


# Only a user Turn retries, and only a message said before it.
_RETRY_OF_RULE = "retry_of IS NULL OR (role = 'user' AND retry_of BETWEEN 1 AND sequence_number - 1)"


def upgrade() -> None:
    op.add_column("turns", sa.Column("retry_of", sa.Integer(), nullable=True))
    op.create_check_constraint(op.f("ck_turns_retry_of"), "turns", _RETRY_OF_RULE)


def downgrade() -> None:
    op.drop_constraint(op.f("ck_turns_retry_of"), "turns", type_="check")
    op.drop_column("turns", "retry_of")
