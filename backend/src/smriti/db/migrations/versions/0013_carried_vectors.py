"""A Checkpoint's search vector reuses what it carries unchanged from its parent.

Migration 0012's trigger parsed every part of a Checkpoint on every commit, and parsing is what
costs (~0.45 µs a word for PostgreSQL's parser): a 4 KB state tripled a commit's database CPU
(`bench/pg_cpu.py`: 304 → 873 µs). Yet a Checkpoint mostly carries its parent's state forward:
the same decisions, tasks and artifacts, a new message and summary.

So the two large parts' vectors are kept beside the whole one: `items_vector` (decisions,
assumptions, tasks, open questions, entities: weight C) and `artifacts_vector` (artifacts' names
and content: weight D). The trigger takes a part's vector from the first parent when that part
is equal there (jsonb equality), and parses it otherwise. `search_vector` stays what 0012 made
it, byte for byte: message (A) || summary (B) || items (C) || artifacts (D), the parts
concatenated in that order, which is how `smriti_checkpoint_vector` builds it from scratch
(`tests/search/test_carried_vectors.py` holds the two equal).

A parent without the part vectors (written before this migration, or whose vector was cut for
PostgreSQL's 1 MB limit: its part vectors are left null) gives nothing to reuse, and its child
parses. Nothing is filled for the rows already there: the columns are nullable, with no
default (a catalog change only), and the reuse starts with the next commit on each line.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

_FUNCTIONS = tuple(
    statement.strip()
    for statement in r"""
CREATE OR REPLACE FUNCTION smriti_items_vector(
  decisions jsonb, assumptions jsonb, tasks jsonb, open_questions jsonb, entities jsonb
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', smriti_search_text(decisions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(assumptions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(tasks, '$[*].text', 50000)), 'C')
      || setweight(to_tsvector('english', smriti_search_text(open_questions, '$[*]', 50000)), 'C')
      || setweight(to_tsvector('english',
           smriti_search_text(entities, '$[*].* ? (@.type() == "string")', 50000)), 'C')
$$;

CREATE OR REPLACE FUNCTION smriti_artifacts_vector(artifacts jsonb)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', smriti_search_text(artifacts, '$[*].name', 20000)), 'D')
      || setweight(to_tsvector('english', smriti_search_text(artifacts, '$[*].content', 100000)), 'D')
$$;

CREATE OR REPLACE FUNCTION smriti_commits_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_items jsonb[];
  parent_artifacts jsonb;
  parent_items_vector tsvector;
  parent_artifacts_vector tsvector;
BEGIN
  IF NEW.parent_commit_id IS NOT NULL THEN
    SELECT ARRAY[p.decisions, p.assumptions, p.tasks, p.open_questions, p.entities], p.artifacts,
           p.items_vector, p.artifacts_vector
      INTO parent_items, parent_artifacts, parent_items_vector, parent_artifacts_vector
      FROM commits p WHERE p.id = NEW.parent_commit_id;
  END IF;
  IF parent_items_vector IS NOT NULL
     AND parent_items = ARRAY[NEW.decisions, NEW.assumptions, NEW.tasks, NEW.open_questions, NEW.entities] THEN
    NEW.items_vector := parent_items_vector;
  ELSE
    NEW.items_vector := smriti_items_vector(NEW.decisions, NEW.assumptions, NEW.tasks, NEW.open_questions,
      NEW.entities);
  END IF;
  IF parent_artifacts_vector IS NOT NULL AND parent_artifacts = NEW.artifacts THEN
    NEW.artifacts_vector := parent_artifacts_vector;
  ELSE
    NEW.artifacts_vector := smriti_artifacts_vector(NEW.artifacts);
  END IF;
  NEW.search_vector := setweight(to_tsvector('english', left(NEW.message, 20000)), 'A')
    || setweight(to_tsvector('english', left(NEW.summary, 100000)), 'B')
    || NEW.items_vector || NEW.artifacts_vector;
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.items_vector := NULL;
  NEW.artifacts_vector := NULL;
  NEW.search_vector := setweight(to_tsvector('english', left(NEW.message, 2000)), 'A')
    || setweight(to_tsvector('english', left(NEW.summary, 20000)), 'B');
  RETURN NEW;
END $$;
""".split("\n\n")
)

# 0012's trigger function, put back by the downgrade.
_0012_TRIGGER = r"""
CREATE OR REPLACE FUNCTION smriti_commits_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := smriti_checkpoint_vector(NEW.message, NEW.summary, NEW.decisions,
    NEW.assumptions, NEW.tasks, NEW.open_questions, NEW.entities, NEW.artifacts);
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.search_vector := setweight(to_tsvector('english', left(NEW.message, 2000)), 'A')
    || setweight(to_tsvector('english', left(NEW.summary, 20000)), 'B');
  RETURN NEW;
END $$
"""


def upgrade() -> None:
    op.execute(text("ALTER TABLE commits ADD COLUMN IF NOT EXISTS items_vector tsvector"))
    op.execute(text("ALTER TABLE commits ADD COLUMN IF NOT EXISTS artifacts_vector tsvector"))
    for statement in _FUNCTIONS:
        op.execute(text(statement))


def downgrade() -> None:
    op.execute(text(_0012_TRIGGER))
    op.execute(text("DROP FUNCTION IF EXISTS smriti_artifacts_vector(jsonb)"))
    op.execute(text("DROP FUNCTION IF EXISTS smriti_items_vector(jsonb, jsonb, jsonb, jsonb, jsonb)"))
    op.execute(text("ALTER TABLE commits DROP COLUMN IF EXISTS artifacts_vector"))
    op.execute(text("ALTER TABLE commits DROP COLUMN IF EXISTS items_vector"))
