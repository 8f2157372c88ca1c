"""Search finds words in every script: text written without spaces is indexed by its characters.

PostgreSQL's parser splits words at spaces and punctuation, so "東京の今日の天気は" was one word,
and neither 東京 (Tokyo) nor 天気 (weather) found it. The same held for Japanese, Chinese, Thai,
Lao, Khmer and Myanmar, which put no space between words, and for Korean's particles, which stick
to their noun (서울의, "Seoul's"). `smriti_search_words` now rewrites each run of those scripts'
characters before the text is parsed: every character, and every pair of neighbours, in order,
one word each (東 東京 京 京の の …), so that any part of a run is a phrase of those words and
`websearch_to_tsquery` of the same rewriting finds it: 東京 is '東' <-> '東京' <-> '京'. A run
opens with \\x04, closes with \\x06 and has \\x01 between its words, characters the parser takes
for spaces (any already in the text are made spaces first), so `search/snippets.py` can put
ts_headline's excerpt back together. Other scripts, English first, are parsed as before
(stemmed): ASCII text is told apart in one pass over its bytes, other text by one regular
expression over it, and returned as it is.

Why characters and pairs (what Lucene's CJK analysers do), rather than the other ways:
- `pg_trgm` is not in the embedded PostgreSQL (only plpgsql and vector are), and its trigrams
  cannot find the two-character words that most Chinese and Japanese words are;
- characters alone find everything, but a phrase of common characters (the Thai alphabet is in
  every Thai text) gives the index nothing to narrow with: every such text would be read again;
- pairs alone miss one-character words (雨, rain) at the end of a run, and pairs plus a last
  character shift the positions a phrase across two runs needs.
The price is two words for each character of those scripts: parsing them costs PostgreSQL about
ten times what English text of the same length does (`docs/performance.md`, Search), and a
vector's 16,383 positions hold about 8,000 of those characters (a phrase past them is not found).
So only a text's first 8,000 of them are taken apart (`RUN_CHARS_TAKEN_APART`); the rest stay as
written, as before, and a long text costs about what 100,000 characters of English do.

The functions of migrations 0012 and 0013 that parse text are made again with the rewriting
(`_functions`); their signatures, and what the carried vectors reuse, do not change. Rows that
hold those scripts get their vectors again, after the change, in batches outside the migration's
transaction, walking the primary key as 0012 did: Turns by their trigger (`SET content =
content`, which keeps its cut for PostgreSQL's 1 MB limit); Checkpoints in two passes, their
carried part vectors dropped first, so that no Checkpoint reuses a parent's part that has not
been parsed again yet (the trigger parses a part whose parent has none). The backfill first waits
for the writes that were running when the functions changed (they may have used the old ones),
blocking nobody. A downgrade does the same with the functions as they were.

Revision ID: 0018
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import time

from alembic import op
from sqlalchemy import Connection, text

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

# The characters of scripts written without spaces between words, as a regular expression's
# bracket: letters and marks, not their punctuation or digits.
_RUN_CHARS = "".join(
    (
        r"\u0E01-\u0E3A\u0E40-\u0E4E",  # Thai (not ฿, ๏, the digits, ๚ ๛)
        r"\u0E81-\u0ECE\u0EDC-\u0EDF",  # Lao (not its digits)
        r"\u1000-\u103F\u1050-\u108F\u109A-\u109F",  # Myanmar (not its digits and punctuation)
        r"\u1780-\u17D3\u17D7\u17DC\u17DD",  # Khmer (not its punctuation and currency)
        r"\u1100-\u11FF\uA960-\uA97F\uAC00-\uD7A3\uD7B0-\uD7FF\u3131-\u318E\uFFA0-\uFFDC",  # Hangul
        r"\u2E80-\u2FDF\u3005-\u3007\u3031-\u3035\u303B\u303C",  # radicals, 々 〆 〇, kana repeat marks
        r"\u3041-\u309F\u30A1-\u30FA\u30FC-\u30FF\u31F0-\u31FF\uFF66-\uFF9F",  # kana (not ・)
        r"\u3105-\u312F\u31A0-\u31BF",  # Bopomofo
        r"\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\U00020000-\U0002FA1F\U00030000-\U000323AF",  # Han
        r"\uA000-\uA48C",  # Yi
        r"\U0001B000-\U0001B16F",  # kana supplements
    )
)

# How many of a text's run characters are taken apart: past ~8,000 (two positions each) a
# tsvector's positions are all 16,383, so a phrase there cannot be found anyway, and parsing every
# character twice would cost a long text ten times what English of its length does (a 200,000-
# character Turn: 2.5 s, then PostgreSQL's 1 MB limit and the 20,000-character cut). The rest of
# the runs stay as written, one word each, as before this migration.
RUN_CHARS_TAKEN_APART = 8000

_WORDS = rf"""
CREATE OR REPLACE FUNCTION smriti_search_words(t text)
RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF octet_length(t) = length(t) OR t !~ '[{_RUN_CHARS}]' THEN
    RETURN t;
  END IF;
  -- The text in pieces, runs and the rest. In a run each character is made three (c\x01c\x01c),
  -- so that neighbours meet as pairs (c1\x01c1\x01c1c2\x01c2\x01c2c3 …), then its first and last
  -- copies are dropped and the run set apart: \x04c1\x01c1c2\x01c2\x01c2c3\x01c3\x06. (A pattern
  -- of any character costs a quarter of the scripts' for each match: one match per character.)
  -- Past the first {RUN_CHARS_TAKEN_APART} run characters (`before` counts them), runs stay as written.
  RETURN (
    SELECT string_agg(CASE WHEN piece[1] IS NULL THEN piece[2]
                           WHEN tripled = '' THEN piece[1]
                           ELSE E'\x04' || substr(tripled, 3, length(tripled) - 4) || E'\x06'
                                || substr(piece[1], {RUN_CHARS_TAKEN_APART} - before + 1) END, '' ORDER BY n)
    FROM (
      SELECT piece, n, coalesce(sum(length(piece[1])) OVER (ORDER BY n) - length(piece[1]), 0)::integer AS before
      FROM regexp_matches(translate(t, E'\x01\x04\x06', '   '), '([{_RUN_CHARS}]+)|([^{_RUN_CHARS}]+)', 'g')
             WITH ORDINALITY AS pieces(piece, n)
    ) AS pieces
    CROSS JOIN LATERAL regexp_replace(left(piece[1], greatest({RUN_CHARS_TAKEN_APART} - before, 0)), '.',
                                      E'\\&\x01\\&\x01\\&', 'g') AS tripled
  );
END $$
"""


def _functions(words: str) -> tuple[str, ...]:
    """The functions of migrations 0012 and 0013 that parse text, with `words` applied to each
    text before it is parsed: "smriti_search_words" now, "" as they were."""

    def parse(value: str) -> str:
        return f"to_tsvector('english', {words}({value}))"

    entities = """smriti_search_text(entities, '$[*].* ? (@.type() == "string")', 50000)"""

    return (
        f"""
CREATE OR REPLACE FUNCTION smriti_items_vector(
  decisions jsonb, assumptions jsonb, tasks jsonb, open_questions jsonb, entities jsonb
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight({parse("smriti_search_text(decisions, '$[*]', 50000)")}, 'C')
      || setweight({parse("smriti_search_text(assumptions, '$[*]', 50000)")}, 'C')
      || setweight({parse("smriti_search_text(tasks, '$[*].text', 50000)")}, 'C')
      || setweight({parse("smriti_search_text(open_questions, '$[*]', 50000)")}, 'C')
      || setweight({parse(entities)}, 'C')
$$""",
        f"""
CREATE OR REPLACE FUNCTION smriti_artifacts_vector(artifacts jsonb)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight({parse("smriti_search_text(artifacts, '$[*].name', 20000)")}, 'D')
      || setweight({parse("smriti_search_text(artifacts, '$[*].content', 100000)")}, 'D')
$$""",
        # 0012's whole vector, which 0013's trigger builds from the parts: the same, said so.
        f"""
CREATE OR REPLACE FUNCTION smriti_checkpoint_vector(
  message text, summary text, decisions jsonb, assumptions jsonb, tasks jsonb,
  open_questions jsonb, entities jsonb, artifacts jsonb
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight({parse("left(message, 20000)")}, 'A')
      || setweight({parse("left(summary, 100000)")}, 'B')
      || smriti_items_vector(decisions, assumptions, tasks, open_questions, entities)
      || smriti_artifacts_vector(artifacts)
$$""",
        f"""
CREATE OR REPLACE FUNCTION smriti_turn_vector(content text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT {parse("left(content, 200000)")}
$$""",
        f"""
CREATE OR REPLACE FUNCTION smriti_first_match(bodies text[], query tsquery)
RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  FOR i IN 1 .. coalesce(array_length(bodies, 1), 0) LOOP
    IF {parse("bodies[i]")} @@ query THEN RETURN i; END IF;
  END LOOP;
  RETURN 1;
EXCEPTION WHEN program_limit_exceeded THEN
  FOR i IN 1 .. coalesce(array_length(bodies, 1), 0) LOOP
    IF {parse("left(bodies[i], 20000)")} @@ query THEN RETURN i; END IF;
  END LOOP;
  RETURN 1;
END $$""",
        f"""
CREATE OR REPLACE FUNCTION smriti_turns_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := smriti_turn_vector(NEW.content);
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.search_vector := {parse("left(NEW.content, 20000)")};
  RETURN NEW;
END $$""",
        f"""
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
  NEW.search_vector := setweight({parse("left(NEW.message, 20000)")}, 'A')
    || setweight({parse("left(NEW.summary, 100000)")}, 'B')
    || NEW.items_vector || NEW.artifacts_vector;
  RETURN NEW;
EXCEPTION WHEN program_limit_exceeded THEN
  NEW.items_vector := NULL;
  NEW.artifacts_vector := NULL;
  NEW.search_vector := setweight({parse("left(NEW.message, 2000)")}, 'A')
    || setweight({parse("left(NEW.summary, 20000)")}, 'B');
  RETURN NEW;
END $$""",
    )


_BATCH = 1000

# The rows whose vectors the rewriting changes: those with a character of a run anywhere in
# what is indexed (a superset: text past a part's cut is tested too).
_HAS_RUNS = "(octet_length({0}) <> length({0}) AND {0} ~ '[" + _RUN_CHARS + "]')"
_CHECKPOINT_TEXT = (
    "concat_ws(' ', message, summary, decisions, assumptions, tasks, open_questions, entities, artifacts)"
)
_TURN_KEY = "session_id, sequence_number"

# (table, key, what a batch sets) for each pass, in order.
_PASSES = (
    ("turns", _TURN_KEY, "content = content", _HAS_RUNS.format("content")),
    # No Checkpoint may reuse a parent's part vector made by the old functions: drop them all
    # first (this fires no trigger: the vectors are not among the columns it watches).
    ("commits", "id", "items_vector = NULL, artifacts_vector = NULL", _HAS_RUNS.format(_CHECKPOINT_TEXT)),
    ("commits", "id", "message = message", _HAS_RUNS.format(_CHECKPOINT_TEXT)),
)


def _wait_for_writes_begun_before(connection: Connection) -> None:
    """Wait until every transaction that was writing to `commits` or `turns` has ended: a write
    running while the functions changed may have parsed with the old ones, and the backfill must
    see its row. Polled, not locked, so that it holds up nobody (like CREATE INDEX CONCURRENTLY)."""
    writers = connection.execute(
        text(
            "SELECT coalesce(array_agg(DISTINCT virtualtransaction), '{}') FROM pg_locks "
            "WHERE locktype = 'relation' AND relation IN ('commits'::regclass, 'turns'::regclass) "
            "AND mode = 'RowExclusiveLock' AND pid IS DISTINCT FROM pg_backend_pid()"
        )
    ).scalar_one()
    while connection.execute(
        text(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'virtualxid' "
            "AND virtualxid = ANY(CAST(:writers AS text[])))"
        ),
        {"writers": writers},
    ).scalar_one():
        time.sleep(0.05)


def _backfill(connection: Connection) -> None:
    """Every pass over the rows that hold runs, `_BATCH` rows a transaction, walking the primary
    key onwards (each batch's rows are the next ones past the last, so each pass reads the table
    once)."""
    _wait_for_writes_begun_before(connection)
    for table, key, change, has_runs in _PASSES:
        names = [name.strip() for name in key.split(",")]
        after = ", ".join(f":after_{n}" for n in range(len(names)))
        last: tuple[object, ...] | None = None
        while True:
            onwards = f"AND ({key}) > ({after})" if last is not None else ""
            keys = connection.execute(
                text(
                    f"UPDATE {table} SET {change} WHERE ({key}) IN "
                    f"(SELECT {key} FROM {table} WHERE {has_runs} {onwards} ORDER BY {key} LIMIT {_BATCH}) "
                    f"RETURNING {key}"
                ),
                {f"after_{n}": value for n, value in enumerate(last or ())},
            ).all()
            if not keys:
                break
            last = tuple(max(keys))


def upgrade() -> None:
    op.execute(text(_WORDS))
    for statement in _functions("smriti_search_words"):
        op.execute(text(statement))
    with op.get_context().autocommit_block():
        _backfill(op.get_bind())


def downgrade() -> None:
    for statement in _functions(""):
        op.execute(text(statement))
    op.execute(text("DROP FUNCTION IF EXISTS smriti_search_words(text)"))
    with op.get_context().autocommit_block():
        _backfill(op.get_bind())
