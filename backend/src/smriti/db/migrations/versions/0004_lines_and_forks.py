"""Lines (internal `branches`), forked Sessions, and a second parent for merges.

- `branches`: every Space has lines of Checkpoints, each with its own HEAD, moved by
  compare-and-swap under that line's row lock, so commits to different lines never wait for one
  another. Exactly one line per Space is the default (a partial unique index); the Space's
  `head_commit_id` and `head_commit_hash` stay a copy of the default line's HEAD, moved in the
  same statement, so every reader of the Space's HEAD is unchanged. Existing Spaces get `main`
  at their HEAD; a trigger gives every new Space its `main`, however the row is inserted.
- The Space's Checkpoint count moves to the lines (`branches.commit_count`, the Checkpoints
  made on each line; the Space's is their sum): keeping it on the Space would make every
  commit, to any line, update the Space's row and wait for the others.
- `commits.depth`: the number of first parents behind a Checkpoint, so a line's history
  (first parents from its HEAD) knows its length without walking it. Each line keeps its HEAD's
  depth beside its hash (`head_depth`): a commit that waited for the line's lock reads both
  from the locked row, where a read of the parent Checkpoint would not yet see it.
- `commits.merge_parent_id`: the second parent of a merge (null otherwise).
- `sessions.base_commit_id` (the Checkpoint a Session starts from) and `forked_from_*` (the
  Session and Turn it was forked at).

Tables are locked in the order a commit takes them (`repos`, `branches`, `commits`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# A new Space gets its default line in the statement that inserts it.
_MAIN_LINE_FUNCTION = """
CREATE FUNCTION smriti_main_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth,
                          commit_count, created_at, updated_at)
    VALUES (gen_random_uuid(), NEW.id, 'main', true, NEW.head_commit_id, NEW.head_commit_hash,
            (SELECT depth FROM commits WHERE id = NEW.head_commit_id), 0, NEW.created_at, NEW.created_at);
    RETURN NULL;
END $$
"""
_MAIN_LINE_TRIGGER = (
    "CREATE TRIGGER repos_main_line AFTER INSERT ON repos FOR EACH ROW EXECUTE FUNCTION smriti_main_line()"
)

# Each Checkpoint's depth, from the roots down its parent links.
_BACKFILL_DEPTH = """
WITH RECURSIVE walk AS (
    SELECT id, 0 AS depth FROM commits WHERE parent_commit_id IS NULL
    UNION ALL
    SELECT c.id, walk.depth + 1 FROM commits c JOIN walk ON c.parent_commit_id = walk.id
)
UPDATE commits SET depth = walk.depth FROM walk WHERE commits.id = walk.id AND walk.depth > 0
"""


def upgrade() -> None:
    op.execute("LOCK TABLE repos, commits, sessions IN ACCESS EXCLUSIVE MODE")
    op.create_table(
        "branches",
        sa.Column("id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("repo_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("is_default", sa.Boolean(), nullable=False),
        sa.Column("head_commit_id", postgresql.UUID(as_uuid=True), nullable=True),
        sa.Column("head_commit_hash", sa.String(length=64), nullable=True),
        sa.Column("head_depth", sa.Integer(), nullable=True),
        sa.Column("commit_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repos.id"], name="fk_branches_repo_id_repos", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["repo_id", "head_commit_id"],
            ["commits.repo_id", "commits.id"],
            name="fk_branches_head_commit_id_commits",
            deferrable=True,
            initially="DEFERRED",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_branches"),
    )
    op.create_index("uq_branches_repo_id_name", "branches", ["repo_id", sa.text("lower(name)")], unique=True)
    op.create_index(
        "uq_branches_repo_id_default", "branches", ["repo_id"], unique=True, postgresql_where=sa.text("is_default")
    )
    op.create_index("ix_branches_repo_id_head_commit_id", "branches", ["repo_id", "head_commit_id"])
    op.add_column("commits", sa.Column("depth", sa.Integer(), server_default="0", nullable=False))
    op.execute(_BACKFILL_DEPTH)
    op.execute(
        "INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth, "
        "commit_count, created_at, updated_at) SELECT gen_random_uuid(), r.id, 'main', true, r.head_commit_id, "
        "r.head_commit_hash, c.depth, r.commit_count, r.created_at, r.updated_at "
        "FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id"
    )
    op.drop_column("repos", "commit_count")
    op.execute(_MAIN_LINE_FUNCTION)
    op.execute(_MAIN_LINE_TRIGGER)

    op.add_column("commits", sa.Column("merge_parent_id", postgresql.UUID(as_uuid=True), nullable=True))
    op.create_foreign_key("fk_commits_merge_parent_id_commits", "commits", "commits", ["merge_parent_id"], ["id"])
    op.create_index(
        "ix_commits_merge_parent_id",
        "commits",
        ["merge_parent_id"],
        postgresql_where=sa.text("merge_parent_id IS NOT NULL"),
    )

    op.add_column("sessions", sa.Column("base_commit_id", postgresql.UUID(as_uuid=True), nullable=True))
    op.add_column("sessions", sa.Column("forked_from_session_id", postgresql.UUID(as_uuid=True), nullable=True))
    op.add_column("sessions", sa.Column("forked_from_seq", sa.Integer(), nullable=True))
    op.create_foreign_key(
        "fk_sessions_base_commit_id_commits",
        "sessions",
        "commits",
        ["repo_id", "base_commit_id"],
        ["repo_id", "id"],
        deferrable=True,
        initially="DEFERRED",
    )
    op.create_index(
        "ix_sessions_repo_id_base_commit_id",
        "sessions",
        ["repo_id", "base_commit_id"],
        postgresql_where=sa.text("base_commit_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.execute("LOCK TABLE repos, branches, commits, sessions IN ACCESS EXCLUSIVE MODE")
    op.drop_index("ix_sessions_repo_id_base_commit_id", table_name="sessions")
    op.drop_constraint("fk_sessions_base_commit_id_commits", "sessions", type_="foreignkey")
    op.drop_column("sessions", "forked_from_seq")
    op.drop_column("sessions", "forked_from_session_id")
    op.drop_column("sessions", "base_commit_id")
    op.drop_index("ix_commits_merge_parent_id", table_name="commits")
    op.drop_constraint("fk_commits_merge_parent_id_commits", "commits", type_="foreignkey")
    op.drop_column("commits", "merge_parent_id")
    op.drop_column("commits", "depth")
    op.execute("DROP TRIGGER repos_main_line ON repos")
    op.execute("DROP FUNCTION smriti_main_line()")
    op.add_column("repos", sa.Column("commit_count", sa.Integer(), server_default="0", nullable=False))
    op.execute(
        "UPDATE repos SET commit_count = counts.total "
        "FROM (SELECT repo_id, sum(commit_count) AS total FROM branches GROUP BY repo_id) counts "
        "WHERE repos.id = counts.repo_id"
    )
    op.drop_table("branches")
