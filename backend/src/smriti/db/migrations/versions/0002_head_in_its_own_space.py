"""HEAD points at a Checkpoint of its own Space, by a foreign key over (Space, Checkpoint).

The old key (`head_commit_id` → `commits.id`) made deleting a Space quadratic: PostgreSQL checks
every deleted Checkpoint against `repos.head_commit_id`, which has no index, so each check read
the whole `repos` table (3.3 s for 10,000 Checkpoints among 10,000 Spaces, `make bench-delete`,
and past the statement timeout a few times larger; 0.14 s now). Keyed by `(id, head_commit_id)`,
each check is a primary-key lookup, the database also refuses a HEAD from another Space, and
updating HEAD stays a HOT update (an index on `head_commit_id` would have cost every commit ~15%
more PostgreSQL time; the unique index on `commits (repo_id, id)` costs at most ~5%, within the
noise of `make bench-pg`).

Under the old key a HEAD could point into another Space (Smriti never wrote one; `verify` reports
it as `head_missing`). The upgrade refuses such a database, naming the Spaces, and changes nothing.
Both tables are locked first, `repos` then `commits`, the order in which a commit takes them:
a server still committing during the upgrade then waits for it (or it for the commit) instead of
deadlocking with it, which the constraint changes alone did as soon as one commit was in flight.
Reads and writes of both tables wait for the whole upgrade: 1.5 s on 2,000,000 Checkpoints
(1.9 GB) in 100,000 Spaces here. The wait for the locks themselves is bounded by env.py's
lock timeout.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

FK = "fk_repos_head_commit_id_commits"


def _lock_in_commit_order() -> None:
    op.execute("LOCK TABLE repos, commits IN ACCESS EXCLUSIVE MODE")


def upgrade() -> None:
    _lock_in_commit_order()
    crossed = op.get_bind().execute(
        sa.text(
            "SELECT r.id FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id AND c.repo_id = r.id "
            "WHERE r.head_commit_id IS NOT NULL AND c.id IS NULL ORDER BY r.id"
        )
    )
    spaces = [str(space) for (space,) in crossed]
    if spaces:
        raise RuntimeError(
            f"Migration 0002 stopped, nothing changed: the HEAD of {len(spaces)} Space(s) is not one of "
            f"their own Checkpoints: {', '.join(spaces[:20])}. Set each HEAD to one of its own Space's "
            "Checkpoints (or NULL) and migrate again."
        )
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
    _lock_in_commit_order()
    op.drop_constraint(FK, "repos", type_="foreignkey")
    op.create_foreign_key(FK, "repos", "commits", ["head_commit_id"], ["id"], deferrable=True, initially="DEFERRED")
    op.drop_constraint("uq_commits_repo_id_id", "commits", type_="unique")
