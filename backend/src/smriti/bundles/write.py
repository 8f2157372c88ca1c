"""The write pass of an import: a checked bundle (`check.py`) inserted in one transaction.

The bundle is read a second time from the spooled file, decoded in a worker thread a batch at a
time and copied into each table with COPY; the columns a bundle leaves out are taken from the
plan the check made. A batch ends at 2,000 rows or at `_BATCH_BYTES` of the file, whichever comes
first: by rows alone, a bundle of long lines was held whole (100 Turns of 250 KB: 27 MB at the
peak, and up to the body's limit). Ids, hashes and times are the bundle's, so HEAD, the log and
every hash are the source's. Any failure rolls the whole import back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any
from uuid import UUID

import asyncpg
import msgspec

from smriti.bundles.check import Plan
from smriti.bundles.format import BranchLine, CheckpointLine, SessionLine, TurnLine, decode_record
from smriti.checkpoints.commit_sql import PARENT_CHAIN
from smriti.checkpoints.hashing import CONTENT_FIELDS, encode_content
from smriti.core.cpu import holding_a_connection
from smriti.core.text import line_key
from smriti.db.models import CommitModel

_BATCH_ROWS = 2000
_BATCH_BYTES = 1 << 20

_LEFT_TO_THE_DATABASE: dict[str, frozenset[str]] = {
    # The search vectors are the tables' triggers' (migrations 0012, 0013, 0018). A Checkpoint's
    # line (0016) is known for sure only when it was saved; a bundle does not say it.
    "commits": frozenset({"branch_id", "search_vector", "items_vector", "artifacts_vector"}),
    # Agents are this server's (their keys never leave it), so a bundle does not say which made
    # a line, a Session or a Turn; a Checkpoint says it in its own `metadata.author`. Proposals
    # stay behind too: a loaded Space numbers its own from 1.
    "sessions": frozenset({"created_by"}),
    "turns": frozenset({"search_vector", "created_by"}),
    # A Space's HEAD is set once its Checkpoints are in (`_SET_HEAD`).
    "repos": frozenset({"head_commit_id", "head_commit_hash", "proposal_count"}),
    "branches": frozenset({"created_by"}),
}
"""Per table, the columns the bulk load leaves to the database. Every other column of the model is
written: a column a migration adds fails the check below until the load writes it or names it here."""


def _model_columns(table: str) -> tuple[str, ...]:
    return tuple(column.name for column in CommitModel.metadata.tables[table].columns)


def _written(table: str, named: Iterable[str] | None = None) -> tuple[str, ...]:
    """The columns of `table` the load writes: every column but those left to the database, in the
    model's order; or, for a statement that names its own (`named`), those in its order, checked
    to be the same columns."""
    left = _LEFT_TO_THE_DATABASE[table]
    columns = tuple(name for name in _model_columns(table) if name not in left)
    if named is not None and set(named) != set(columns):
        missing, unknown = sorted(set(columns) - set(named)), sorted(set(named) - set(columns))
        raise RuntimeError(
            f"the bundle load's {table} columns differ from the model: missing {missing}, unknown {unknown}"
        )
    return tuple(named) if named is not None else columns


_COLUMNS = {table: _written(table) for table in ("commits", "sessions", "turns")}

# The insert's trigger gives every new Space a default line (migration 0004); a bundle brings its
# own, so that one goes, and HEAD is set once the Checkpoints are in.
_SPACE_COLUMNS = _written("repos", ("id", "name", "description", "created_at", "updated_at"))
_INSERT_SPACE = f"INSERT INTO repos ({', '.join(_SPACE_COLUMNS)}) VALUES ($1, $2, $3, $4, $5)"
_DROP_MADE_LINE = "DELETE FROM branches WHERE repo_id = $1"
_SET_HEAD = "UPDATE repos SET head_commit_id = $2, head_commit_hash = $3 WHERE id = $1"
# A bundle does not say which line each Checkpoint was written to (`commits.branch_id`, derived):
# a line's HEAD younger than the line itself was, as migration 0016 reasons; the rest stay unknown.
_HEADS_WENT_TO_THEIR_LINES = (
    "UPDATE commits c SET branch_id = b.id FROM branches b "
    "WHERE b.repo_id = $1 AND c.id = b.head_commit_id AND c.repo_id = $1 AND c.created_at >= b.created_at"
)

# A line keeps its HEAD's chain of jump links, looked up as a new line's is (`lines/store.py`).
_LINE_COLUMNS = _written(
    "branches",
    (
        "id", "repo_id", "name", "name_key", "is_default", "head_commit_id", "head_commit_hash", "head_depth",
        "head_jumps", "head_jump_depths", "head_merges", "commit_count", "created_at", "updated_at", "protected",
    ),
)  # fmt: skip
_INSERT_LINE = f"""
INSERT INTO branches ({", ".join(_LINE_COLUMNS)})
SELECT $1, $2, $3, $9, $4, p.id, p.commit_hash, p.depth, CASE WHEN p.id IS NOT NULL THEN chain.ids END,
       CASE WHEN p.id IS NOT NULL THEN chain.depths END, p.first_parent_merges, $6, $7, $8, $10
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
                line.protected,
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
            yield "turns", _ordered("turns", msgspec.structs.asdict(record)), len(line)


def _ordered(table: str, values: dict[str, Any]) -> Row:
    """`values` in the order of the table's written columns (a `KeyError` names one not given)."""
    return tuple(values[name] for name in _COLUMNS[table])


def _commit_row(line: CheckpointLine, plan: Plan, repo_id: UUID) -> Row:
    derived = plan.commits[line.id]
    # The canonical encoding a commit stores, so verify recomputes the hash from what is stored.
    fields = encode_content(line).fields
    return _ordered(
        "commits",
        {
            "id": line.id,
            "repo_id": repo_id,
            "parent_commit_id": line.parent_commit_id,
            "merge_parent_id": line.merge_parent_id,
            "commit_hash": line.commit_hash,
            "depth": derived.depth,
            "jump_commit_id": derived.jump_id,
            "jump_depth": derived.jump_depth,
            "first_parent_merges": derived.merges,
            "message": line.message,
            "summary": line.summary,
            **{name: fields[name] for name in CONTENT_FIELDS[2:]},
            "created_at": line.created_at,
        },
    )


def _session_row(line: SessionLine, plan: Plan, repo_id: UUID) -> Row:
    usage = plan.usage[line.id]
    return _ordered(
        "sessions",
        {
            **msgspec.structs.asdict(line),
            "repo_id": repo_id,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "uncounted_replies": usage.uncounted_replies,
        },
    )
