"""Conversation imports remember what they imported: `imported_conversations`.

Importing the same export again made a second copy of every conversation (three imports, three
Sessions each). Each Session a conversation import makes is now recorded with that
conversation's own id in its source (ChatGPT's `conversation_id`, Claude's `uuid`, Claude Code's
`sessionId`, Open WebUI's `id`) and the export's format, unique per Space: a later import skips a
conversation the Space holds, naming its Session, unless it asks for copies. The row goes with its
Session (a foreign key that cascades), so a conversation whose Session was deleted imports again,
and a Space's deletion takes its rows with its Sessions.

A new table: no row of another table is touched. Creating its foreign key takes a brief SHARE
ROW EXCLUSIVE lock on `sessions` (bounded by SMRITI_MIGRATION_LOCK_TIMEOUT, as every migration's).

Revision ID: 0017
Revises: 0015
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imported_conversations",
        sa.Column("session_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("repo_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("conversation_id", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_imported_conversations_session_id_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("session_id", name="pk_imported_conversations"),
        sa.UniqueConstraint(
            "repo_id", "source", "conversation_id", name="uq_imported_conversations_repo_id_source_conversation_id"
        ),
    )


def downgrade() -> None:
    op.drop_table("imported_conversations")
