"""HEAD points at a Checkpoint of its own Space, by a foreign key over (Space, Checkpoint).

The old key (`head_commit_id` → `commits.id`) made deleting a Space quadratic: PostgreSQL checks
every deleted Checkpoint against `repos.head_commit_id`, which has no index, so each check read
the whole `repos` table (2.7 s for 10,000 Checkpoints among 10,000 Spaces, and past the statement
timeout a few times larger). Keyed by `(id, head_commit_id)`, each check is a primary-key lookup,
the database also refuses a HEAD from another Space, and updating HEAD stays a HOT update (an
index on `head_commit_id` would have cost every commit ~15% more PostgreSQL time).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

FK = "fk_repos_head_commit_id_commits"


def upgrade() -> None:
    op.create_unique_constraint("uq_commits_repo_id_id", "commits", ["repo_id", "id"])
    op.drop_constraint(FK, "repos", type_="foreignkey")
    op.create_foreign_key(
        FK,
        "repos",
        "commits",
        ["id", "head_commit_id"],
        ["repo_id", "id"],
        deferrable=True,
        initially="DEFERRED",
    )


def downgrade() -> None:
    op.drop_constraint(FK, "repos", type_="foreignkey")
    op.create_foreign_key(FK, "repos", "commits", ["head_commit_id"], ["id"], deferrable=True, initially="DEFERRED")
    op.drop_constraint("uq_commits_repo_id_id", "commits", type_="unique")
