"""Checkpoint reads and writes on the lean asyncpg path.

HEAD, one Checkpoint and the log are the hottest reads an agent makes; committing is the hottest
write. Each is one or two statements, and HEAD moves under a row lock on the Space so that
concurrent commits serialise instead of losing one another.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import msgspec

from smriti.checkpoints.hashing import CONTENT_FIELDS, compute_commit_hash, content_of
from smriti.checkpoints.schemas import Checkpoint, CommitCreate, VerifyProblem, VerifyReport
from smriti.errors import BadRequest, Conflict, NotFound
from smriti.schemas import Page

COLUMNS = (
    "id, repo_id, parent_commit_id, commit_hash, message, summary, decisions, assumptions, tasks, "
    "open_questions, entities, artifacts, metadata, created_at"
)

_NAMES = tuple(name.strip() for name in COLUMNS.split(","))
_PREFIXED = ", ".join(f"c.{name}" for name in _NAMES)

_HEX = re.compile(r"^[0-9a-f]{7,64}$")


def to_checkpoint(row: asyncpg.Record, prefix: str = "") -> Checkpoint:
    # convert, not Checkpoint(**row): nested tasks, entities and artifacts become Structs.
    return msgspec.convert({name: row[prefix + name] for name in _NAMES}, Checkpoint)


class CheckpointStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def head(self, repo_id: UUID) -> Checkpoint:
        row = await self._pool.fetchrow(
            f"SELECT r.head_commit_id IS NULL AS empty, {_PREFIXED} "
            f"FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id WHERE r.id = $1",
            repo_id,
        )
        if row is None:
            raise NotFound(f"No Space with id {repo_id}.")
        if row["empty"]:
            raise NotFound("This Space has no Checkpoint yet.")
        return to_checkpoint(row)

    async def get(self, ref: str) -> Checkpoint:
        """A Checkpoint by id, full `commit_hash`, or a unique hash prefix of at least 7 hex digits."""
        ref = ref.strip().lower()
        try:
            commit_id = UUID(ref)
        except ValueError:
            commit_id = None
        if commit_id is not None:
            row = await self._pool.fetchrow(f"SELECT {COLUMNS} FROM commits WHERE id = $1", commit_id)
            if row is None:
                raise NotFound(f"No Checkpoint with id {ref}.")
            return to_checkpoint(row)
        if not _HEX.match(ref):
            raise NotFound(
                f"{ref!r} is not a Checkpoint id, hash, or hash prefix of at least 7 hex digits.",
                field="ref",
                source="path",
            )
        if len(ref) == 64:
            rows = await self._pool.fetch(f"SELECT {COLUMNS} FROM commits WHERE commit_hash = $1", ref)
        else:
            # A range on the unique index: prefix ≤ hash < prefix + 'g' ('g' sorts after every hex digit).
            rows = await self._pool.fetch(
                f"SELECT {COLUMNS} FROM commits WHERE commit_hash >= $1 AND commit_hash < $2 LIMIT 2",
                ref,
                ref + "g",
            )
        if not rows:
            raise NotFound(f"No Checkpoint with hash {ref}.")
        if len(rows) > 1:
            raise BadRequest(f"Hash prefix {ref} matches more than one Checkpoint; give more digits.", field="ref")
        return to_checkpoint(rows[0])

    async def log(self, repo_id: UUID, *, limit: int, offset: int) -> Page[Checkpoint]:
        """Checkpoints of a Space, newest first."""
        async with self._pool.acquire() as conn:
            total = await conn.fetchval(
                "SELECT (SELECT count(*) FROM commits WHERE repo_id = r.id) FROM repos r WHERE r.id = $1",
                repo_id,
            )
            if total is None:
                raise NotFound(f"No Space with id {repo_id}.")
            rows = await conn.fetch(
                f"SELECT {COLUMNS} FROM commits WHERE repo_id = $1 "
                f"ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3",
                repo_id,
                limit,
                offset,
            )
        return Page(items=[to_checkpoint(row) for row in rows], total=total, limit=limit, offset=offset)

    async def commit(self, data: CommitCreate) -> Checkpoint:
        """Insert a Checkpoint and move HEAD to it, atomically, under the Space's row lock."""
        content = content_of(data)
        commit_id = uuid4()
        async with self._pool.acquire() as conn, conn.transaction():
            # The lock serialises commits to one Space, so "parent defaults to HEAD" never forks
            # by accident and created_at (taken after the lock) follows commit order.
            state = await conn.fetchrow(
                "SELECT r.head_commit_id, clock_timestamp() AS now, "
                "p.id AS parent_id, p.repo_id AS parent_repo_id, p.commit_hash AS parent_hash "
                "FROM repos r LEFT JOIN commits p ON p.id = COALESCE($2::uuid, r.head_commit_id) "
                "WHERE r.id = $1 FOR UPDATE OF r",
                data.repo_id,
                data.parent_commit_id,
            )
            if state is None:
                raise NotFound(f"No Space with id {data.repo_id}.", field="repo_id")
            head = state["head_commit_id"]
            expected = data.expected_head_commit_id
            if expected is not msgspec.UNSET and expected != head:
                raise Conflict(
                    f"HEAD has moved: expected {expected or 'no HEAD'}, but HEAD is {head or 'empty'}. "
                    "Nothing was written; read HEAD and retry.",
                    field="expected_head_commit_id",
                )
            if data.parent_commit_id is None and head is not None and state["parent_id"] != head:
                # We waited for the lock while another commit moved HEAD. The locked row is the
                # latest version, but the join ran on this statement's older snapshot, which
                # cannot see the new HEAD row yet; a new statement can.
                state = await conn.fetchrow(
                    "SELECT $2::uuid AS head_commit_id, $3::timestamptz AS now, id AS parent_id, "
                    "repo_id AS parent_repo_id, commit_hash AS parent_hash FROM commits WHERE id = $1",
                    head,
                    head,
                    state["now"],
                )
                assert state is not None
            if data.parent_commit_id is not None:
                if state["parent_id"] is None:
                    raise NotFound(f"No Checkpoint with id {data.parent_commit_id}.", field="parent_commit_id")
                if state["parent_repo_id"] != data.repo_id:
                    raise BadRequest("parent_commit_id belongs to another Space.", field="parent_commit_id")
            parent_id = state["parent_id"]
            created_at = state["now"]
            commit_hash = compute_commit_hash(
                commit_id=commit_id,
                repo_id=data.repo_id,
                parent_hash=state["parent_hash"],
                created_at=created_at,
                content=content,
            )
            row = await conn.fetchrow(
                f"WITH moved AS (UPDATE repos SET head_commit_id = $1, updated_at = $4 WHERE id = $2) "
                f"INSERT INTO commits ({COLUMNS}) "
                f"VALUES ($1, $2, $3, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $4) RETURNING {COLUMNS}",
                commit_id,
                data.repo_id,
                parent_id,
                created_at,
                commit_hash,
                *(content[name] for name in CONTENT_FIELDS),
            )
        assert row is not None
        return to_checkpoint(row)

    async def verify(self, repo_id: UUID) -> VerifyReport:
        """Recompute every hash and parent link of a Space from the stored values."""
        async with self._pool.acquire() as conn:
            head = await conn.fetchrow("SELECT head_commit_id FROM repos WHERE id = $1", repo_id)
            if head is None:
                raise NotFound(f"No Space with id {repo_id}.")
            rows = await conn.fetch(f"SELECT {COLUMNS} FROM commits WHERE repo_id = $1", repo_id)
            by_id: dict[UUID, asyncpg.Record] = {row["id"]: row for row in rows}
            foreign_parents = {
                row["parent_commit_id"]
                for row in rows
                if row["parent_commit_id"] is not None and row["parent_commit_id"] not in by_id
            }
            outside: dict[UUID, Any] = {}
            if foreign_parents:
                outside = {
                    r["id"]: r["repo_id"]
                    for r in await conn.fetch(
                        "SELECT id, repo_id FROM commits WHERE id = ANY($1::uuid[])", list(foreign_parents)
                    )
                }
        problems: list[VerifyProblem] = []
        for row in rows:
            parent_id = row["parent_commit_id"]
            parent_hash: str | None = None
            if parent_id is not None:
                parent = by_id.get(parent_id)
                if parent is None:
                    kind = "foreign_parent" if parent_id in outside else "missing_parent"
                    problems.append(
                        VerifyProblem(row["id"], kind, f"Parent {parent_id} is not a Checkpoint of this Space.")
                    )
                    continue
                parent_hash = parent["commit_hash"]
            expected = compute_commit_hash(
                commit_id=row["id"],
                repo_id=row["repo_id"],
                parent_hash=parent_hash,
                created_at=row["created_at"],
                content={name: row[name] for name in CONTENT_FIELDS},
            )
            if expected != row["commit_hash"]:
                problems.append(
                    VerifyProblem(
                        row["id"],
                        "hash_mismatch",
                        f"Stored hash {row['commit_hash'][:12]}… does not match its content "
                        f"({expected[:12]}…): the Checkpoint or its parent link was changed.",
                    )
                )
        head_id = head["head_commit_id"]
        if head_id is not None and head_id not in by_id:
            problems.append(VerifyProblem(head_id, "head_missing", "HEAD points outside this Space."))
        return VerifyReport(repo_id=repo_id, checked=len(rows), ok=not problems, problems=problems)
