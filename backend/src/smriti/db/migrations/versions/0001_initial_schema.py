"""Initial schema: Spaces (repos), Checkpoints (commits), Sessions and Turns.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

UUID = postgresql.UUID(as_uuid=True)
JSONB = postgresql.JSONB(astext_type=sa.Text())
TIMESTAMPTZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "repos",
        sa.Column("id", UUID, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("head_commit_id", UUID, nullable=True),
        sa.Column("head_commit_hash", sa.String(length=64), nullable=True),
        sa.Column("commit_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", TIMESTAMPTZ, nullable=False),
        sa.Column("updated_at", TIMESTAMPTZ, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_repos"),
        sa.UniqueConstraint("name", name="uq_repos_name"),
    )
    op.create_table(
        "commits",
        sa.Column("id", UUID, nullable=False),
        sa.Column("repo_id", UUID, nullable=False),
        sa.Column("parent_commit_id", UUID, nullable=True),
        sa.Column("commit_hash", sa.String(length=64), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("decisions", JSONB, nullable=False),
        sa.Column("assumptions", JSONB, nullable=False),
        sa.Column("tasks", JSONB, nullable=False),
        sa.Column("open_questions", JSONB, nullable=False),
        sa.Column("entities", JSONB, nullable=False),
        sa.Column("artifacts", JSONB, nullable=False),
        sa.Column("metadata", JSONB, nullable=False),
        sa.Column("created_at", TIMESTAMPTZ, nullable=False),
        sa.ForeignKeyConstraint(["parent_commit_id"], ["commits.id"], name="fk_commits_parent_commit_id_commits"),
        sa.ForeignKeyConstraint(["repo_id"], ["repos.id"], name="fk_commits_repo_id_repos", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_commits"),
        sa.UniqueConstraint("commit_hash", name="uq_commits_commit_hash"),
    )
    op.create_index("ix_commits_parent_commit_id", "commits", ["parent_commit_id"])
    op.create_index(
        "ix_commits_repo_id_created_at",
        "commits",
        ["repo_id", sa.literal_column("created_at DESC"), sa.literal_column("id DESC")],
    )
    # The Space ↔ HEAD cycle: added once both tables exist, checked at commit time.
    op.create_foreign_key(
        "fk_repos_head_commit_id_commits",
        "repos",
        "commits",
        ["head_commit_id"],
        ["id"],
        deferrable=True,
        initially="DEFERRED",
    )
    op.create_table(
        "sessions",
        sa.Column("id", UUID, nullable=False),
        sa.Column("repo_id", UUID, nullable=False),
        sa.Column("title", sa.Text(), server_default="", nullable=False),
        sa.Column("provider", sa.String(length=32), nullable=True),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("last_seq", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", TIMESTAMPTZ, nullable=False),
        sa.Column("updated_at", TIMESTAMPTZ, nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repos.id"], name="fk_sessions_repo_id_repos", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
    )
    op.create_index("ix_sessions_repo_id_created_at", "sessions", ["repo_id", "created_at"])
    op.create_table(
        "turns",
        sa.Column("session_id", UUID, nullable=False),
        sa.Column("sequence_number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("provider", sa.String(length=32), nullable=True),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("checkpoint_id", UUID, nullable=True),
        sa.Column("history_base_seq", sa.Integer(), nullable=True),
        sa.Column("input_tokens", sa.Integer(), nullable=True),
        sa.Column("output_tokens", sa.Integer(), nullable=True),
        sa.Column("request_id", sa.String(length=200), nullable=True),
        sa.Column("created_at", TIMESTAMPTZ, server_default=sa.text("clock_timestamp()"), nullable=False),
        sa.CheckConstraint("role IN ('user', 'assistant')", name=op.f("ck_turns_role")),
        sa.CheckConstraint("sequence_number > 0", name=op.f("ck_turns_sequence_number_positive")),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_turns_session_id_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("session_id", "sequence_number", name="pk_turns"),
    )
    op.create_index(
        "uq_turns_session_id_request_id",
        "turns",
        ["session_id", "request_id"],
        unique=True,
        postgresql_where=sa.text("request_id IS NOT NULL AND role = 'user'"),
    )


def downgrade() -> None:
    op.drop_table("turns")
    op.drop_table("sessions")
    op.drop_constraint("fk_repos_head_commit_id_commits", "repos", type_="foreignkey")
    op.drop_table("commits")
    op.drop_table("repos")
