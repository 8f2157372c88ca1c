"""The merge Checkpoints of a Space, newest first, from an index of merges alone.

The merge base (`merges/base.py`) walks both sides' ancestry over merge links only when some
merge Checkpoint of the Space is newer than the two sides' first-parent fork point; without
one, that fork point is the base. This partial index answers "is there one?" from the Space's
merges only, whatever the number of Checkpoints and of other Spaces' merges.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_commits_repo_id_merged_at",
        "commits",
        ["repo_id", sa.text("created_at DESC")],
        postgresql_where=sa.text("merge_parent_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_commits_repo_id_merged_at", table_name="commits")
