"""What a Session's next save starts from, and the Sessions continued from it (docs/api.md, "A
Session's context lives on the server").

`GET /v4/sessions/{id}` answers `last_saved: {commit_id, branch}`, the newest Checkpoint whose
`metadata.source.session_id` names the Session and the line it went to, and `continued_in`, the
Sessions forked from it. Three things make those reads cheap and exact:

- `commits.branch_id`: the line whose HEAD a Checkpoint became when it was written (commit,
  apply, restore, a merge: the statements of `checkpoints/commit_sql.py` fill it). A line's HEAD
  moves on, so "the line it went to" cannot be read from the lines later; a Checkpoint had no line
  of its own until now. Derived, not content: not in the hash. No foreign key: a line may be
  deleted (the Checkpoint then went to a line that is gone, and says so by naming none), and a
  key would make deleting a line rewrite every Checkpoint made on it. Filled here only where it
  is known for sure: a line's HEAD that is younger than the line was written to it (a line
  started at an older Checkpoint is younger than its HEAD). Older Checkpoints keep NULL, a line
  not known.
- `ix_commits_source_session`: a Space's Checkpoints by the Session they were saved from, newest
  first, for the one lookup of `last_saved`. The key is `metadata #>> '{source,session_id}'` in
  lower case (a client may spell a UUID in capitals); the expression never fails, whatever the
  free-form metadata holds. Partial: only Checkpoints saved from a Session are in it, so every
  other commit pays one NULL test.
- `ix_sessions_forked_from`: the Sessions forked from one, newest first.

Locks: `commits` first (ACCESS EXCLUSIVE, for the column; the backfill and the index under the
same lock), then `sessions` (SHARE, for its index). A fork's statement reads `sessions`, then
`commits`, and only then writes `sessions`, so it waits for this migration at `commits` holding
nothing this migration will ask for. Each lock wait is bounded by SMRITI_MIGRATION_LOCK_TIMEOUT.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

SOURCE_SESSION = "lower(metadata #>> '{source,session_id}')"
"""The key of `ix_commits_source_session` (`db/models.py` declares the same expression)."""
SAVED_FROM_A_SESSION = "(metadata #>> '{source,session_id}') IS NOT NULL"


def upgrade() -> None:
    # Earlier migrations in the same transaction may leave deferred key checks pending, and a
    # table with pending checks cannot be altered: run them now (as 0007 does).
    op.execute("SET CONSTRAINTS ALL IMMEDIATE")
    op.execute("LOCK TABLE commits IN ACCESS EXCLUSIVE MODE")
    op.add_column("commits", sa.Column("branch_id", sa.Uuid(), nullable=True))
    op.execute(
        "UPDATE commits c SET branch_id = b.id FROM branches b "
        "WHERE b.head_commit_id = c.id AND b.repo_id = c.repo_id AND c.created_at >= b.created_at"
    )
    op.create_index(
        "ix_commits_source_session",
        "commits",
        ["repo_id", sa.text(SOURCE_SESSION), sa.text("created_at DESC"), sa.text("id DESC")],
        postgresql_where=sa.text(SAVED_FROM_A_SESSION),
    )
    op.execute("LOCK TABLE sessions IN SHARE MODE")
    op.create_index(
        "ix_sessions_forked_from",
        "sessions",
        ["forked_from_session_id", sa.text("created_at DESC")],
        postgresql_where=sa.text("forked_from_session_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.execute("SET CONSTRAINTS ALL IMMEDIATE")
    op.execute("LOCK TABLE commits IN ACCESS EXCLUSIVE MODE")
    op.drop_index("ix_commits_source_session", table_name="commits")
    op.drop_column("commits", "branch_id")
    op.execute("LOCK TABLE sessions IN SHARE MODE")
    op.drop_index("ix_sessions_forked_from", table_name="sessions")
