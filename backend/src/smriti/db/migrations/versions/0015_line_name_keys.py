"""Lines are told apart by their name's key: `branches.name_key`, unique in each Space.

Names that look alike were different lines: `café` composed and decomposed, `a b` with a
no-break space and with a space. Each line now keeps `name_key = core.text.line_key(name)` (the
name in NFC, each run of white space one space, case folded), computed in Python by whoever
writes the name (lines/store.py, bundles/write.py, and the trigger below for a new Space's `main`),
and the unique index moves from `(repo_id, lower(name))` to `(repo_id, name_key)`. The rule is
Python's rather than SQL's because PostgreSQL's lower() depends on the database's locale (with
the C locale it folds ASCII only), and its normalize() needs a UTF-8 database.

Lines of one Space whose names already share a key must neither make the upgrade fail nor be
lost. The one that keeps its name is the Space's default line, else the oldest; each other is
renamed `NAME (2)` (or the first free number; the name cut to fit 100 characters), keeps its
HEAD and Checkpoints, and the upgrade logs a warning naming the Space, the old name and the new.
Keeping both names would need every look-up (the commit statement's among them) to prefer an
exact spelling over the key; a visible rename keeps one rule everywhere. A downgrade keeps the new
names.

The column is added, filled and made NOT NULL under the table's lock (`branches` only: requests
take `repos` first, so waiting for `branches` alone cannot deadlock with one); a table of lines
is read once, in Python, and written back in one statement.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import sqlalchemy as sa
import structlog
from alembic import op
from sqlalchemy.dialects import postgresql

from smriti.core.text import line_key

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

log = structlog.get_logger("smriti.db.migrations")

_MAX_NAME = 100  # `core.schemas.MAX_LINE_NAME` as it is now (migrations do not change with the code)

# A copy of 0007's chain of jumps of the Checkpoint `h`, for the trigger's lateral join.
_CHAIN_OF_H = """
    SELECT coalesce(array_agg(up.id ORDER BY up.depth DESC), '{}') AS ids,
           coalesce(array_agg(up.depth ORDER BY up.depth DESC), '{}') AS depths
    FROM (WITH RECURSIVE up(id, depth, jump) AS (
              SELECT j.id, j.depth, j.jump_commit_id FROM commits j
              WHERE j.id = h.jump_commit_id AND h.jump_commit_id <> h.id
              UNION ALL
              SELECT c.id, c.depth, c.jump_commit_id FROM up JOIN commits c ON c.id = up.jump WHERE up.jump <> up.id
          ) SELECT id, depth FROM up) up"""


def _main_line_function(with_key: bool) -> str:
    """0007's trigger function for a new Space's `main`, with its key (`line_key("main")`) or not."""
    key_column, key_value = (" name_key,", " 'main',") if with_key else ("", "")
    return f"""
CREATE OR REPLACE FUNCTION smriti_main_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO branches (id, repo_id, name,{key_column} is_default, head_commit_id, head_commit_hash, head_depth,
                          head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at)
    SELECT gen_random_uuid(), NEW.id, 'main',{key_value} true, NEW.head_commit_id, NEW.head_commit_hash, h.depth,
           CASE WHEN h.id IS NOT NULL THEN chain.ids END, CASE WHEN h.id IS NOT NULL THEN chain.depths END,
           h.first_parent_merges, 0, NEW.created_at, NEW.created_at
    FROM (SELECT 1) one LEFT JOIN commits h ON h.id = NEW.head_commit_id CROSS JOIN LATERAL ({_CHAIN_OF_H}) chain;
    RETURN NULL;
END $$
"""


_SET_KEYS = sa.text(
    "UPDATE branches b SET name_key = k.key FROM unnest(:ids, :keys) AS k(id, key) WHERE b.id = k.id"
).bindparams(
    sa.bindparam("ids", type_=postgresql.ARRAY(sa.Uuid())),
    sa.bindparam("keys", type_=postgresql.ARRAY(sa.Text())),
)
_RENAME = sa.text(
    "UPDATE branches b SET name = k.name, updated_at = clock_timestamp() "
    "FROM unnest(:ids, :names) AS k(id, name) WHERE b.id = k.id"
).bindparams(
    sa.bindparam("ids", type_=postgresql.ARRAY(sa.Uuid())),
    sa.bindparam("names", type_=postgresql.ARRAY(sa.Text())),
)


def names_and_keys(rows: Iterable[Sequence[Any]]) -> dict[UUID, tuple[str, str]]:
    """Each line's (name, key), by id, from its (id, repo_id, name) rows in the order in which
    lines keep their names (a Space's default line first, then oldest first): a line whose key is
    already taken in its Space is renamed `NAME (n)`, n the first number whose key is free."""
    spaces: dict[UUID, list[tuple[UUID, str]]] = {}
    for line_id, repo_id, name in rows:
        spaces.setdefault(repo_id, []).append((line_id, name))
    chosen: dict[UUID, tuple[str, str]] = {}
    for lines in spaces.values():
        taken: set[str] = set()
        later: list[tuple[UUID, str]] = []
        for line_id, name in lines:
            key = line_key(name)
            if key in taken:
                later.append((line_id, name))
            else:
                taken.add(key)
                chosen[line_id] = (name, key)
        for line_id, name in later:
            number = 2
            while True:
                suffix = f" ({number})"
                renamed = name[: _MAX_NAME - len(suffix)].rstrip() + suffix
                key = line_key(renamed)
                if key not in taken:
                    break
                number += 1
            taken.add(key)
            chosen[line_id] = (renamed, key)
    return chosen


def upgrade() -> None:
    # Earlier migrations in the same transaction may leave deferred key checks pending, and a
    # table with pending checks cannot be altered: run them now (as 0007 does).
    op.execute("SET CONSTRAINTS ALL IMMEDIATE")
    op.execute("LOCK TABLE branches IN ACCESS EXCLUSIVE MODE")
    op.add_column("branches", sa.Column("name_key", sa.Text(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(
        sa.text("SELECT id, repo_id, name FROM branches ORDER BY repo_id, is_default DESC, created_at, id")
    ).all()
    before = {row[0]: (row[1], row[2]) for row in rows}
    chosen = names_and_keys(rows)
    if chosen:
        bind.execute(_SET_KEYS, {"ids": list(chosen), "keys": [key for _, key in chosen.values()]})
    renamed = {line_id: name for line_id, (name, _) in chosen.items() if name != before[line_id][1]}
    if renamed:
        bind.execute(_RENAME, {"ids": list(renamed), "names": list(renamed.values())})
        for line_id, name in renamed.items():
            repo_id, old = before[line_id]
            log.warning(
                "line renamed: its name looked like another line's of the same Space",
                space_id=str(repo_id),
                line_id=str(line_id),
                old_name=old,
                new_name=name,
            )
    op.alter_column("branches", "name_key", nullable=False)
    op.drop_index("uq_branches_repo_id_name", table_name="branches")
    op.create_index("uq_branches_repo_id_name_key", "branches", ["repo_id", "name_key"], unique=True)
    op.execute(_main_line_function(with_key=True))


def downgrade() -> None:
    op.execute("SET CONSTRAINTS ALL IMMEDIATE")
    op.execute("LOCK TABLE branches IN ACCESS EXCLUSIVE MODE")
    op.execute(_main_line_function(with_key=False))
    op.drop_index("uq_branches_repo_id_name_key", table_name="branches")
    op.create_index("uq_branches_repo_id_name", "branches", ["repo_id", sa.text("lower(name)")], unique=True)
    op.drop_column("branches", "name_key")
