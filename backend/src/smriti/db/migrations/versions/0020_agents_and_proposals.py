"""Agents, protected lines and proposals (SYSTEM.md §13).

- `agents`: the keys the person gives agents. Only a SHA-256 of each key is stored (a key is 256
  random bits, so no salt or slow hash is needed: nothing short enough to guess is ever hashed).
  A revoked key keeps its row (`revoked_at`): what the agent made still names it.
- `branches.protected`: a line only the person can move, rename, delete or re-default.
- `created_by` on lines, Sessions, Turns and proposals: the agent whose key made the row; NULL is
  the person. No foreign key on `turns.created_by`: agents are never deleted, and a send's write
  is the hot path (a key check per Turn).
- `proposals`: an agent's request that the person merge one line into another. Its lines are
  followed by id (a rename is followed; a deleted line leaves NULL and its last name), and at most
  one proposal per pair of lines is open at a time. `repos.proposal_count` numbers them from 1 in
  each Space, taken under the Space's row lock.

Constant defaults and nullable columns: PostgreSQL adds them without rewriting the tables.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "agents",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(), nullable=False),
        sa.Column("spaces", postgresql.ARRAY(sa.Uuid()), nullable=True),
        sa.Column("write", sa.Boolean(), nullable=False),
        sa.Column("last_used_at", _TIME, nullable=True),
        sa.Column("revoked_at", _TIME, nullable=True),
        sa.Column("created_at", _TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_agents"),
        sa.UniqueConstraint("token_hash", name="uq_agents_token_hash"),
    )
    op.add_column("branches", sa.Column("protected", sa.Boolean(), server_default=sa.false(), nullable=False))
    for table in ("branches", "sessions"):
        op.add_column(table, sa.Column("created_by", sa.Uuid(), nullable=True))
        op.create_foreign_key(f"fk_{table}_created_by_agents", table, "agents", ["created_by"], ["id"])
    op.add_column("turns", sa.Column("created_by", sa.Uuid(), nullable=True))
    op.add_column("repos", sa.Column("proposal_count", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "proposals",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("repo_id", sa.Uuid(), sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("from_branch_id", sa.Uuid(), sa.ForeignKey("branches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("into_branch_id", sa.Uuid(), sa.ForeignKey("branches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("from_name", sa.String(100), nullable=False),
        sa.Column("into_name", sa.String(100), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("status", sa.String(16), server_default="open", nullable=False),
        sa.Column("created_by", sa.Uuid(), sa.ForeignKey("agents.id"), nullable=True),
        sa.Column("merge_commit_id", sa.Uuid(), sa.ForeignKey("commits.id"), nullable=True),
        sa.Column("closed_reason", sa.Text(), nullable=True),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("updated_at", _TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_proposals"),
        sa.CheckConstraint("status IN ('open', 'merged', 'closed')", name=op.f("ck_proposals_status")),
        sa.UniqueConstraint("repo_id", "number", name="uq_proposals_repo_id_number"),
    )
    op.create_index(
        "uq_proposals_open_pair",
        "proposals",
        ["from_branch_id", "into_branch_id"],
        unique=True,
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_index("ix_proposals_repo_id_status_number", "proposals", ["repo_id", "status", "number"])


def downgrade() -> None:
    op.drop_table("proposals")
    op.drop_column("repos", "proposal_count")
    op.drop_column("turns", "created_by")
    for table in ("sessions", "branches"):
        op.drop_constraint(f"fk_{table}_created_by_agents", table, type_="foreignkey")
        op.drop_column(table, "created_by")
    op.drop_column("branches", "protected")
    op.drop_table("agents")
