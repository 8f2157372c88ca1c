"""A Turn's rules, checked by a trigger instead of six CHECK constraints: the same rules, cheaper.

PostgreSQL builds a table's CHECK expressions again from their stored text at the start of every
statement that writes to it (`ExecRelCheck`: `stringToNode`, then `ExecPrepareExpr`, for each
constraint), and a send stores its pair in one short statement. So the six constraints on
`turns` cost PostgreSQL more than the rest of that write: 336 k of the 701 k instructions of
storing a pair (`bench/pg_instructions.py`, search's trigger left out), 86 k of them the
regular expression over the reply's receipt. A PL/pgSQL trigger keeps its compiled expression
for the life of the connection. The same rules in one trigger: a pair costs 435 k, less than
before the receipts (448 k, migration 0007).

The rules are unchanged, and so are the names a broken one is reported under: the trigger
raises `check_violation` with the constraint's old name, in the message PostgreSQL gives for a
CHECK (`new row for relation "turns" violates check constraint "ck_turns_role"`). The one
rewritten is the receipt's form, `^[0-9a-f]{64}$`: "64 characters, none left once the lowercase
hex digits are trimmed" says the same of every string, without the regex engine. Like a CHECK,
a rule that comes out NULL passes, and the trigger runs on UPDATE too (Smriti never updates a
Turn's columns; search's backfill does, and so may a person at a psql prompt).

The rows already there were held to these rules by the constraints, so nothing is checked again.
Dropping a CHECK and creating a trigger are catalog changes under short locks.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

# Each rule as the trigger checks it (on NEW), in the order a broken row is reported.
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
)

_BROKEN = "\n".join(f"    WHEN NOT ({rule}) THEN '{name}'" for name, rule in _RULES)

_FUNCTION = f"""
CREATE OR REPLACE FUNCTION smriti_turn_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  broken text := CASE
{_BROKEN}
  END;
BEGIN
  IF broken IS NOT NULL THEN
    RAISE EXCEPTION 'new row for relation "turns" violates check constraint "%"', broken
      USING ERRCODE = 'check_violation', CONSTRAINT = broken, TABLE = TG_TABLE_NAME, SCHEMA = TG_TABLE_SCHEMA;
  END IF;
  RETURN NEW;
END $$
"""

_TRIGGER = (
    "CREATE TRIGGER smriti_turn_rules BEFORE INSERT OR UPDATE ON turns "
    "FOR EACH ROW EXECUTE FUNCTION smriti_turn_rules()"
)

# The constraints as migrations 0001, 0005, 0008, 0009 and 0011 made them, for the downgrade.
_CHECKS = (
    ("role", "role IN ('user', 'assistant')"),
    ("sequence_number_positive", "sequence_number > 0"),
    ("retry_of", "retry_of IS NULL OR (role = 'user' AND retry_of BETWEEN 1 AND sequence_number - 1)"),
    ("stopped", "NOT stopped OR role = 'assistant'"),
    ("context_sha256", "context_sha256 IS NULL OR (role = 'assistant' AND context_sha256 ~ '^[0-9a-f]{64}$')"),
    (
        "context_through_seq",
        "context_through_seq IS NULL OR (role = 'user' AND context_through_seq BETWEEN 0 AND sequence_number - 1)",
    ),
)


def upgrade() -> None:
    op.execute(text(_FUNCTION))
    op.execute(text(_TRIGGER))
    for name, _ in _CHECKS:
        op.drop_constraint(op.f(f"ck_turns_{name}"), "turns", type_="check")


def downgrade() -> None:
    for name, rule in _CHECKS:
        op.create_check_constraint(op.f(f"ck_turns_{name}"), "turns", rule)
    op.execute(text("DROP TRIGGER smriti_turn_rules ON turns"))
    op.execute(text("DROP FUNCTION smriti_turn_rules()"))
