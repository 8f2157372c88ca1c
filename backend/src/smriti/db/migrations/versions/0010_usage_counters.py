"""What a Session's replies cost: token counters kept on `sessions`.

`input_tokens` and `output_tokens` sum what the provider reported for each reply, and
`uncounted_replies` counts the replies it reported no count for (an OpenAI-compatible server
that ignores `stream_options`, a stopped reply, an imported one), so a total never passes for
complete when it is not. They move in the statement that stores a pair, on the row that
statement updates already (`sessions/turns.py`), so reading a Session's usage, or a Space's (the
sum over its Sessions), never reads its Turns.

The columns have constant defaults (a catalog change, no rewrite); the backfill is one UPDATE from
one pass over `turns`, grouped by Session.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("input_tokens", sa.BigInteger(), nullable=False, server_default="0"))
    op.add_column("sessions", sa.Column("output_tokens", sa.BigInteger(), nullable=False, server_default="0"))
    op.add_column("sessions", sa.Column("uncounted_replies", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        """
        UPDATE sessions s
           SET input_tokens = totals.input_tokens, output_tokens = totals.output_tokens,
               uncounted_replies = totals.uncounted
          FROM (SELECT session_id,
                       coalesce(sum(input_tokens) FILTER (WHERE role = 'assistant'), 0) AS input_tokens,
                       coalesce(sum(output_tokens) FILTER (WHERE role = 'assistant'), 0) AS output_tokens,
                       count(*) FILTER (WHERE role = 'assistant' AND (input_tokens IS NULL OR output_tokens IS NULL))
                           AS uncounted
                  FROM turns GROUP BY session_id) totals
         WHERE s.id = totals.session_id
        """
    )


def downgrade() -> None:
    op.drop_column("sessions", "uncounted_replies")
    op.drop_column("sessions", "output_tokens")
    op.drop_column("sessions", "input_tokens")
