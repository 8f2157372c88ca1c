"""The write pass of an import: a checked bundle (`check.py`) inserted in one transaction.

The bundle is read a second time from the spooled file, decoded in a worker thread a batch at a
time and copied into each table with COPY; the columns a bundle leaves out are taken from the
plan the check made. A batch ends at 2,000 rows or at `_BATCH_BYTES` of the file, whichever comes
first: by rows alone, a bundle of long lines was held whole (100 Turns of 250 KB: 27 MB at the
peak, and up to the body's limit). Ids, hashes and times are the bundle's, so HEAD, the log and
every hash are the source's. Any failure rolls the whole import back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any
from uuid import UUID

import asyncpg

from smriti.bundles.check import Plan
from smriti.bundles.format import TURN_FIELDS, BranchLine, CheckpointLine, SessionLine, TurnLine, decode_record
from smriti.checkpoints.commit_sql import PARENT_CHAIN
from smriti.checkpoints.hashing import CONTENT_FIELDS, encode_content
from smriti.core.cpu import holding_a_connection
from smriti.core.text import line_key

_BATCH_ROWS = 2000
_BATCH_BYTES = 1 << 20

_COMMIT_COLUMNS = (
    "id",
    "repo_id",
    "parent_commit_id",
    "merge_parent_id",
    "commit_hash",
    "depth",
    "jump_commit_id",
    "jump_depth",
    "first_parent_merges",
    *CONTENT_FIELDS,
    "created_at",
)
_SESSION_COLUMNS = (
    "id",
    "repo_id",
    "title",
    "provider",
    "model",
    "last_seq",
    "base_commit_id",
    "forked_from_session_id",
    "forked_from_seq",
    "input_tokens",
    "output_tokens",
    "uncounted_replies",
    "created_at",
    "updated_at",
)
_TURN_COLUMNS = TURN_FIELDS
_COLUMNS = {"commits": _COMMIT_COLUMNS, "sessions": _SESSION_COLUMNS, "turns": _TURN_COLUMNS}

# The insert's trigger gives every new Space a default line (migration 0004); a bundle brings its
# own, so that one goes, and HEAD is set once the Checkpoints are in.
_INSERT_SPACE = "INSERT INTO repos (id, name, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)"
_DROP_MADE_LINE = "DELETE FROM branches WHERE repo_id = $1"
_SET_HEAD = "UPDATE repos SET head_commit_id = $2, head_commit_hash = $3 WHERE id = $1"
# A bundle does not say which line each Checkpoint was written to (`commits.branch_id`, derived):
# a line's HEAD younger than the line itself was, as migration 0016 reasons; the rest stay unknown.
_HEADS_WENT_TO_THEIR_LINES = (
    "UPDATE commits c SET branch_id = b.id FROM branches b "
    "WHERE b.repo_id = $1 AND c.id = b.head_commit_id AND c.repo_id = $1 AND c.created_at >= b.created_at"
)

# A line keeps its HEAD's chain of jump links, looked up as a new line's is (`lines/store.py`).
_INSERT_LINE = f"""
INSERT INTO branches (id, repo_id, name, name_key, is_default, head_commit_id, head_commit_hash, head_depth,
                      head_jumps, head_jump_depths, head_merges, commit_count, created_at, updated_at)
SELECT $1, $2, $3, $9, $4, p.id, p.commit_hash, p.depth, CASE WHEN p.id IS NOT NULL THEN chain.ids END,
       CASE WHEN p.id IS NOT NULL THEN chain.depths END, p.first_parent_merges, $6, $7, $8
FROM (SELECT 1) one LEFT JOIN commits p ON p.id = $5::uuid CROSS JOIN LATERAL ({PARENT_CHAIN}) chain"""

Row = tuple[Any, ...]


async def write_bundle(conn: asyncpg.Connection, plan: Plan, spool: IO[bytes]) -> None:
    """Insert the checked bundle; the caller holds the transaction."""
    space = plan.space
    head_id, head_hash = plan.head if plan.head is not None else (None, None)
    await conn.execute(_INSERT_SPACE, space.id, space.name, space.description, space.created_at, space.updated_at)
    await conn.execute(_DROP_MADE_LINE, space.id)
    spool.seek(0)
    rows = _rows(plan, spool)
    lines: list[BranchLine] = []
    while batch := await holding_a_connection(lambda: _batch(rows)):
        by_table: dict[str, list[Row]] = {"commits": [], "sessions": [], "turns": []}
        for table, row in batch:
            if table == "branches":
                lines.append(row[0])
            else:
                by_table[table].append(row)
        # Sessions before their Turns (an immediate foreign key); lines once every Checkpoint is in.
        for table, records in by_table.items():
            if records:
                await conn.copy_records_to_table(table, records=records, columns=_COLUMNS[table])
    await conn.executemany(
        _INSERT_LINE,
        [
            (
                line.id,
                space.id,
                line.name,
                line.is_default,
                line.head_commit_id,
                line.commit_count,
                line.created_at,
                line.updated_at,
                line_key(line.name),
            )
            for line in lines
        ],
    )
    await conn.execute(_HEADS_WENT_TO_THEIR_LINES, space.id)
    if head_id is not None:
        await conn.execute(_SET_HEAD, space.id, head_id, head_hash)


def _batch(rows: Iterator[tuple[str, Row, int]]) -> list[tuple[str, Row]]:
    """The next rows, up to _BATCH_ROWS of them or _BATCH_BYTES of their lines; [] at the end."""
    batch: list[tuple[str, Row]] = []
    taken = 0
    for table, row, size in rows:
        batch.append((table, row))
        taken += size
        if len(batch) >= _BATCH_ROWS or taken >= _BATCH_BYTES:
            break
    return batch


def _rows(plan: Plan, spool: IO[bytes]) -> Iterator[tuple[str, Row, int]]:
    """Each line of the bundle after the header as (table, row, the line's bytes); lines as
    ("branches", (line,), …)."""
    repo_id = plan.space.id
    for number, line in enumerate(spool, start=1):
        if number == 1 or not line.strip():
            continue
        record = decode_record(line)  # every line was checked before this pass: it decodes
        if isinstance(record, CheckpointLine):
            yield "commits", _commit_row(record, plan, repo_id), len(line)
        elif isinstance(record, BranchLine):
            yield "branches", (record,), len(line)
        elif isinstance(record, SessionLine):
            yield "sessions", _session_row(record, plan, repo_id), len(line)
        elif isinstance(record, TurnLine):
            yield "turns", tuple(getattr(record, name) for name in _TURN_COLUMNS), len(line)


def _commit_row(line: CheckpointLine, plan: Plan, repo_id: UUID) -> Row:
    derived = plan.commits[line.id]
    # The canonical encoding a commit stores, so verify recomputes the hash from what is stored.
    fields = encode_content(line).fields
    content = [line.message, line.summary, *(fields[name] for name in CONTENT_FIELDS[2:])]
    return (
        line.id,
        repo_id,
        line.parent_commit_id,
        line.merge_parent_id,
        line.commit_hash,
        derived.depth,
        derived.jump_id,
        derived.jump_depth,
        derived.merges,
        *content,
        line.created_at,
    )


def _session_row(line: SessionLine, plan: Plan, repo_id: UUID) -> Row:
    usage = plan.usage[line.id]
    return (
        line.id,
        repo_id,
        line.title,
        line.provider,
        line.model,
        line.last_seq,
        line.base_commit_id,
        line.forked_from_session_id,
        line.forked_from_seq,
        usage.input_tokens,
        usage.output_tokens,
        usage.uncounted_replies,
        line.created_at,
        line.updated_at,
    )
