"""Full-text search: `search_vector` on Checkpoints and Turns, kept by a trigger, with GIN indexes.

docs/api.md, "Search". A `GENERATED ALWAYS AS (…) STORED` column would say the same thing more plainly,
but adding one rewrites the whole table under an ACCESS EXCLUSIVE lock: on a Space history of a
million Turns that stops every send for as long as the rewrite takes. So, step by step, none of
which holds a lock that stops writes for long:

1. a nullable column with no default on each table (a catalog change) and a BEFORE INSERT OR
   UPDATE trigger that fills it, so every row written from now on has its vector;
2. the rows already there filled in batches of `_BATCH` along the primary key, each its own
   short transaction (row locks only; Checkpoints and Turns are never updated by Smriti, so
   nothing waits on them);
3. `CREATE INDEX CONCURRENTLY`, which lets writes go on while it builds. A build that failed
   half-way leaves an INVALID index behind; it is dropped and built again on the next try.

Steps 2 and 3 run outside the migration's transaction (`autocommit_block`), so every step is
written to be run again after an interruption; `env.py` holds its advisory lock for the whole
session, so two servers never run them at once.

What is indexed, and how heavily it counts in the rank (the weights): a Checkpoint's message (A),
summary (B), decisions, assumptions, tasks and open questions (C), entities' names, kinds and
descriptions (C) and artifacts' names and content (D); a Turn's content. Each part is cut to a
fixed length first (`smriti_search_text`), far beyond anything a request body may hold except an
artifact's content, whose first 100,000 characters are searched. Text made to give a vector past
PostgreSQL's 1 MB limit anyway (which would refuse the write, and so the send or the save) is
indexed by its first 20,000 characters instead: the trigger catches `program_limit_exceeded`.

`smriti_first_match` serves search's snippets: the first of a Checkpoint's parts (in the order a
reader meets them) that matches a query by itself, trying them one by one and stopping there, so
a hit in the message costs one parse of the message and not one of every part.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Connection, text

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_BATCH = 5000

_FUNCTIONS = tuple(
    statement.strip()
    for statement in r"""
CREATE OR REPLACE FUNCTION smriti_search_text(items jsonb, path jsonpath, max_chars integer)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(coalesce(string_agg(item #>> '{}', E'\n'), ''), max_chars)
  FROM jsonb_path_query(items, path) AS item
$$;

CREATE OR REPLACE FUNCTION smriti_checkpoint_vector(
  message text, summary text, decisions jsonb, assumptions jsonb, tasks jsonb,
  open_questions jsonb, entities jsonb, artifacts jsonb
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', left(message, 20000)), 'A')
      || setweight(to_tsvector('english', left(summary, 100000)), 'B')
      || setweight(to_tsvector('english', smriti_search_text(decisions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(assumptions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(tasks, '$[*].text', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(open_questions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english',
           smriti_search_text(entities, '$[*].* ? (@.type() == "string")', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(artifacts, '$[*].name', 20000)), 'D')
      || setweight(to_tsvector('english', smriti_search_text(artifacts, '$[*].content', 100000)), 'D')
$$;

CREATE OR REPLACE FUNCTION smriti_turn_vector(content text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('english', left(content, 200000))
$$;

CREATE OR REPLACE FUNCTION smriti_first_match(bodies text[], query tsquery)
RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  FOR i IN 1 .. coalesce(array_length(bodies, 1), 0) LOOP
    IF to_tsvector('english', bodies[i]) @@ query THEN RETURN i; END IF;
  END LOOP;
  RETURN 1;
EXCEPTION WHEN program_limit_exceeded THEN
  FOR i IN 1 .. coalesce(array_length(bodies, 1), 0) LOOP
    IF to_tsvector('english', left(bodies[i], 20000)) @@ query THEN RETURN i; END IF;
  END LOOP;
  RETURN 1;
END $$;

CREATE OR REPLACE FUNCTION smriti_commits_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := smriti_checkpoint_vector(NEW.message, NEW.summary, NEW.decisions,
    NEW.assumptions, NEW.tasks, NEW.open_questions, NEW.entities, NEW.artifacts);
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.search_vector := setweight(to_tsvector('english', left(NEW.message, 2000)), 'A')
    || setweight(to_tsvector('english', left(NEW.summary, 20000)), 'B');
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION smriti_turns_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := smriti_turn_vector(NEW.content);
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.search_vector := to_tsvector('english', left(NEW.content, 20000));
  RETURN NEW;
END $$;
""".split("\n\n")
)

_CHECKPOINT_VECTOR = (
    "smriti_checkpoint_vector(message, summary, decisions, assumptions, tasks, open_questions, entities, artifacts)"
)
_TABLES = {
    "commits": (
        _CHECKPOINT_VECTOR,
        "message, summary, decisions, assumptions, tasks, open_questions, entities, artifacts",
        "id",
    ),
    "turns": ("smriti_turn_vector(content)", "content", "session_id, sequence_number"),
}


def _fill(connection: Connection, table: str, vector: str, key: str) -> None:
    """Every row's vector, `_BATCH` rows a transaction, walking the primary key onwards (so no
    batch scans again the rows the ones before it filled)."""
    names = [name.strip() for name in key.split(",")]
    after = ", ".join(f":after_{n}" for n in range(len(names)))
    last: tuple[object, ...] | None = None
    while True:
        onwards = f"AND ({key}) > ({after})" if last is not None else ""
        keys = connection.execute(
            text(
                f"UPDATE {table} SET search_vector = {vector} WHERE ({key}) IN "
                f"(SELECT {key} FROM {table} WHERE search_vector IS NULL {onwards} ORDER BY {key} LIMIT {_BATCH}) "
                f"RETURNING {key}"
            ),
            {f"after_{n}": value for n, value in enumerate(last or ())},
        ).all()
        if not keys:
            return
        last = tuple(max(keys))


def upgrade() -> None:
    for statement in _FUNCTIONS:
        op.execute(text(statement))
    for table, (_vector, columns, _key) in _TABLES.items():
        op.execute(text(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS search_vector tsvector"))
        op.execute(text(f"DROP TRIGGER IF EXISTS smriti_search_vector ON {table}"))
        op.execute(
            text(
                f"CREATE TRIGGER smriti_search_vector BEFORE INSERT OR UPDATE OF {columns} ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION smriti_{table}_search_vector()"
            )
        )
    with op.get_context().autocommit_block():
        connection = op.get_bind()
        for table, (vector, _columns, key) in _TABLES.items():
            _fill(connection, table, vector, key)
        # A concurrent build waits for transactions that started before it, blocking nobody.
        before = connection.execute(text("SELECT current_setting('lock_timeout')")).scalar_one()
        connection.execute(text("SET lock_timeout = 0"))
        for table in _TABLES:
            index = f"ix_{table}_search_vector"
            connection.execute(
                text(
                    "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_index WHERE indexrelid = to_regclass("
                    f"'{index}') AND NOT indisvalid) THEN EXECUTE 'DROP INDEX {index}'; END IF; END $$"
                )
            )
            connection.execute(
                text(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {index} ON {table} USING gin (search_vector)")
            )
        connection.execute(text("SELECT set_config('lock_timeout', :before, false)"), {"before": before})


def downgrade() -> None:
    for table in _TABLES:
        op.execute(text(f"DROP INDEX IF EXISTS ix_{table}_search_vector"))
        op.execute(text(f"DROP TRIGGER IF EXISTS smriti_search_vector ON {table}"))
        op.execute(text(f"ALTER TABLE {table} DROP COLUMN IF EXISTS search_vector"))
        op.execute(text(f"DROP FUNCTION IF EXISTS smriti_{table}_search_vector()"))
    op.execute(text("DROP FUNCTION IF EXISTS smriti_turn_vector(text)"))
    op.execute(text("DROP FUNCTION IF EXISTS smriti_first_match(text[], tsquery)"))
    op.execute(
        text("DROP FUNCTION IF EXISTS smriti_checkpoint_vector(text, text, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb)")
    )
    op.execute(text("DROP FUNCTION IF EXISTS smriti_search_text(jsonb, jsonpath, integer)"))
