"""A reply the provider ended at its length limit: `turns.at_limit`.

Every reply is sent with a limit (`max_tokens`); a provider that stops there says so (OpenAI
`finish_reason: length`, Anthropic `stop_reason: max_tokens`). The reply may then be cut off
mid-answer, and nothing may be cut silently: the Turn is marked, as a stopped one is (0008).

A constant default: PostgreSQL adds the column without rewriting the table. Its rule (only a
reply can end at the limit) joins the others in the Turn trigger (0014: a CHECK would cost every
send's write more than the trigger does); the rows already there are all false, so pass it. The
function is written out whole, as 0014 left it plus the new rule: a migration is a snapshot, and
the downgrade puts 0014's back.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy import text

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

# Migration 0014's rules, then the new one last (a broken row is reported by the first it breaks).
_RULES = (
    ("ck_turns_role", "NEW.role IN ('user', 'assistant')"),
    ("ck_turns_sequence_number_positive", "NEW.sequence_number > 0"),
    (
        "ck_turns_retry_of",
        "NEW.retry_of IS NULL OR (NEW.role = 'user' AND NEW.retry_of BETWEEN 1 AND NEW.sequence_number - 1)",
    ),
    ("ck_turns_stopped", "NOT NEW.stopped OR NEW.role = 'assistant'"),
    (
        "ck_turns_context_sha256",
        "NEW.context_sha256 IS NULL OR (NEW.role = 'assistant' AND length(NEW.context_sha256) = 64 "
        "AND ltrim(NEW.context_sha256, '0123456789abcdef') = '')",
    ),
    (
        "ck_turns_context_through_seq",
        "NEW.context_through_seq IS NULL OR (NEW.role = 'user' "
        "AND NEW.context_through_seq BETWEEN 0 AND NEW.sequence_number - 1)",
    ),
    ("ck_turns_at_limit", "NOT NEW.at_limit OR NEW.role = 'assistant'"),
)


def _function(rules: tuple[tuple[str, str], ...]) -> str:
    broken = "\n".join(f"    WHEN NOT ({rule}) THEN '{name}'" for name, rule in rules)
    return f"""
CREATE OR REPLACE FUNCTION smriti_turn_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  broken text := CASE
{broken}
  END;
BEGIN
  IF broken IS NOT NULL THEN
    RAISE EXCEPTION 'new row for relation "turns" violates check constraint "%"', broken
      USING ERRCODE = 'check_violation', CONSTRAINT = broken, TABLE = TG_TABLE_NAME, SCHEMA = TG_TABLE_SCHEMA;
  END IF;
  RETURN NEW;
END $$
"""


def upgrade() -> None:
    op.add_column("turns", sa.Column("at_limit", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(text(_function(_RULES)))


def downgrade() -> None:
    op.execute(text(_function(_RULES[:-1])))
    op.drop_column("turns", "at_limit")
