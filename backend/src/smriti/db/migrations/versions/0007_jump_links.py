"""A jump link and a merge count on every Checkpoint, so the merge base is found in steps that
grow with the log of the distance, not with the distance.

`commits.jump_commit_id` names a first-parent ancestor further back than the parent (the root
names itself), and `jump_depth` is that ancestor's depth. The links form the skew-binary jump
pointers of Myers' "An applicative random-access stack" (1983): set once, when the Checkpoint is
written, from its parent's link and that link's link, so history is never rewritten. From any
Checkpoint, the ancestor at a given depth and the nearest common first-parent ancestor of two
Checkpoints are each reached in O(log depth) steps of "jump or go to the parent"
(`merges/base.py`).

The rule, for a Checkpoint whose parent is p: if p's jump spans as many first parents as the
jump after it (depth(p) - depth(jump(p)) = depth(jump(p)) - depth(jump(jump(p)))), its jump is
jump(jump(p)); otherwise it is p.

`commits.first_parent_merges` counts the merges among a Checkpoint and its first parents, so
"did either side merge anything since the fork point?" is read from three rows; when neither did,
the fork point is the merge base and no walk over merge links is needed. It replaces 0006's
index of a Space's merges, which answered a coarser question (any merge in the Space newer than
the fork point) and is dropped.

A line keeps its HEAD's chain of jumps (`branches.head_jumps`, `head_jump_depths`: HEAD's jump,
that one's jump, ... to the root) and merge count (`head_merges`), as it keeps HEAD's hash and
depth, so a commit that waited for the line's lock makes its links without reading a row its
snapshot may not see. A CHECK holds every line with a HEAD to them; the trigger that makes a new
Space's first line fills them in too.

Derived, not content: not in the hash; `verify` recomputes each from the parent's.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# From the roots down. Each row carries its chain of jumps (jump, jump of jump, ... to the root,
# O(log depth) long), which is what its children's links are made from: a child's chain is its
# parent followed by the parent's chain, or, when the parent's first two jumps span alike, the
# parent's chain without its first.
_BACKFILL = """
WITH RECURSIVE walk(id, depth, merges, chain_ids, chain_depths) AS (
    SELECT id, 0, (merge_parent_id IS NOT NULL)::int, ARRAY[]::uuid[], ARRAY[]::int[]
    FROM commits WHERE parent_commit_id IS NULL
    UNION ALL
    SELECT c.id, w.depth + 1, w.merges + (c.merge_parent_id IS NOT NULL)::int,
           CASE WHEN cardinality(w.chain_ids) >= 2
                     AND w.depth - w.chain_depths[1] = w.chain_depths[1] - w.chain_depths[2]
                THEN w.chain_ids[2:] ELSE w.id || w.chain_ids END,
           CASE WHEN cardinality(w.chain_ids) >= 2
                     AND w.depth - w.chain_depths[1] = w.chain_depths[1] - w.chain_depths[2]
                THEN w.chain_depths[2:] ELSE w.depth || w.chain_depths END
    FROM commits c JOIN walk w ON c.parent_commit_id = w.id
)
UPDATE commits SET jump_commit_id = coalesce(walk.chain_ids[1], walk.id),
                   jump_depth = coalesce(walk.chain_depths[1], 0), first_parent_merges = walk.merges
FROM walk WHERE commits.id = walk.id
"""


# A copy of models.HEAD_LINKS_RULE as it was here (migrations do not change with the models).
_HEAD_LINKS_RULE = (
    "head_commit_id IS NULL OR (head_jumps IS NOT NULL AND head_jump_depths IS NOT NULL AND head_merges IS NOT NULL)"
)

# The chain of jumps of the Checkpoint `h` (its jump, that one's, ... to the root), for a lateral join.
_CHAIN_OF_H = """
    SELECT coalesce(array_agg(up.id ORDER BY up.depth DESC), '{}') AS ids,
           coalesce(array_agg(up.depth ORDER BY up.depth DESC), '{}') AS depths
    FROM (WITH RECURSIVE up(id, depth, jump) AS (
              SELECT j.id, j.depth, j.jump_commit_id FROM commits j
              WHERE j.id = h.jump_commit_id AND h.jump_commit_id <> h.id
              UNION ALL
              SELECT c.id, c.depth, c.jump_commit_id FROM up JOIN commits c ON c.id = up.jump WHERE up.jump <> up.id
          ) SELECT id, depth FROM up) up"""

# Each line's HEAD's chain, by the jump links just filled in.
_BACKFILL_LINES = f"""
UPDATE branches b SET head_jumps = chain.ids, head_jump_depths = chain.depths, head_merges = h.first_parent_merges
FROM commits h CROSS JOIN LATERAL ({_CHAIN_OF_H}) chain
WHERE h.id = b.head_commit_id
"""

# 0004's function, which also fills in the new HEAD's links (a Space made with a HEAD).
_MAIN_LINE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION smriti_main_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth,
                          head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at)
    SELECT gen_random_uuid(), NEW.id, 'main', true, NEW.head_commit_id, NEW.head_commit_hash, h.depth,
           CASE WHEN h.id IS NOT NULL THEN chain.ids END, CASE WHEN h.id IS NOT NULL THEN chain.depths END,
           h.first_parent_merges, 0, NEW.created_at, NEW.created_at
    FROM (SELECT 1) one LEFT JOIN commits h ON h.id = NEW.head_commit_id CROSS JOIN LATERAL ({_CHAIN_OF_H}) chain;
    RETURN NULL;
END $$
"""

# 0004's, restored on downgrade.
_MAIN_LINE_FUNCTION_0004 = """
CREATE OR REPLACE FUNCTION smriti_main_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO branches (id, repo_id, name, is_default, head_commit_id, head_commit_hash, head_depth,
                          commit_count, created_at, updated_at)
    VALUES (gen_random_uuid(), NEW.id, 'main', true, NEW.head_commit_id, NEW.head_commit_hash,
            (SELECT depth FROM commits WHERE id = NEW.head_commit_id), 0, NEW.created_at, NEW.created_at);
    RETURN NULL;
END $$
"""


def upgrade() -> None:
    # Earlier migrations in the same transaction (0004 writes lines) leave deferred key checks
    # pending, and a table with pending checks cannot be altered: run them now.
    op.execute("SET CONSTRAINTS ALL IMMEDIATE")
    op.add_column("branches", sa.Column("head_jumps", sa.ARRAY(sa.Uuid()), nullable=True))
    op.add_column("branches", sa.Column("head_jump_depths", sa.ARRAY(sa.Integer()), nullable=True))
    op.add_column("branches", sa.Column("head_merges", sa.Integer(), nullable=True))
    op.add_column("commits", sa.Column("jump_commit_id", sa.Uuid(), nullable=True))
    op.add_column("commits", sa.Column("jump_depth", sa.Integer(), nullable=True))
    op.add_column("commits", sa.Column("first_parent_merges", sa.Integer(), nullable=True))
    op.execute(_BACKFILL)
    for column in ("jump_commit_id", "jump_depth", "first_parent_merges"):
        op.alter_column("commits", column, nullable=False)
    op.execute(_BACKFILL_LINES)
    op.create_check_constraint(op.f("ck_branches_head_links"), "branches", _HEAD_LINKS_RULE)
    op.execute(_MAIN_LINE_FUNCTION)
    op.drop_index("ix_commits_repo_id_merged_at", table_name="commits")


def downgrade() -> None:
    op.execute(_MAIN_LINE_FUNCTION_0004)
    op.drop_constraint(op.f("ck_branches_head_links"), "branches", type_="check")
    for column in ("head_merges", "head_jump_depths", "head_jumps"):
        op.drop_column("branches", column)
    op.create_index(
        "ix_commits_repo_id_merged_at",
        "commits",
        ["repo_id", sa.text("created_at DESC")],
        postgresql_where=sa.text("merge_parent_id IS NOT NULL"),
    )
    op.drop_column("commits", "first_parent_merges")
    op.drop_column("commits", "jump_depth")
    op.drop_column("commits", "jump_commit_id")
