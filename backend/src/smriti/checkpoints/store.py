"""Checkpoint reads and writes on the lean asyncpg path.

HEAD, one Checkpoint and the log are the hottest reads an agent makes; committing is the hottest
write. Each is one or two statements, and HEAD moves under a row lock on the Space so that
concurrent commits serialise instead of losing one another.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn
from uuid import UUID

import asyncpg
import msgspec

from smriti.checkpoints.hashing import (
    CONTENT_FIELDS,
    TIMESTAMP_FORMAT_SQL,
    compute_commit_hash,
    encode_content,
    format_timestamp,
)
from smriti.checkpoints.schemas import Checkpoint, CommitCreate, VerifyProblem, VerifyReport
from smriti.checkpoints.writes import COLUMNS, JSONB_FIELDS, CommitWriter, PendingCommit
from smriti.cpu import off_loop
from smriti.db.pool import Pool
from smriti.errors import BadRequest, Conflict, NotFound
from smriti.ids import uuid7
from smriti.lru import SizedLru

_NAMES = tuple(name.strip() for name in COLUMNS.split(","))
_PREFIXED = ", ".join(f"c.{name}" for name in _NAMES)

_HEX = re.compile(r"^[0-9a-f]{7,64}$")


def checkpoint_json_sql(alias: str) -> str:
    """A Checkpoint as JSON text, built by PostgreSQL from the row: the hot reads send these bytes
    as they are, with no decoding and re-encoding in Python."""
    fields = ", ".join(f"'{name}', {alias}.{name}" for name in _NAMES if name != "created_at")
    created = f"to_char({alias}.created_at AT TIME ZONE 'UTC', '{TIMESTAMP_FORMAT_SQL}')"
    return f"json_build_object({fields}, 'created_at', {created})::text"


_encode = msgspec.json.Encoder().encode


def _page_json(items: str, total: int, limit: int, offset: int) -> bytes:
    return f'{{"items":{items},"total":{total},"limit":{limit},"offset":{offset}}}'.encode()


def to_checkpoint(row: asyncpg.Record, prefix: str = "") -> Checkpoint:
    # convert, not Checkpoint(**row): nested tasks, entities and artifacts become Structs.
    return msgspec.convert({name: row[prefix + name] for name in _NAMES}, Checkpoint)


_HEAD_SQL = f"""
SELECT CASE WHEN c.id IS NOT NULL THEN {checkpoint_json_sql("c")} END AS body
FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id WHERE r.id = $1
"""

_LOG_SQL = f"""
SELECT r.commit_count AS total,
       (SELECT coalesce(json_agg(page.body ORDER BY page.created_at DESC, page.id DESC), '[]')::text
        FROM (SELECT c.created_at, c.id, {checkpoint_json_sql("c")}::json AS body FROM commits c
              WHERE c.repo_id = r.id ORDER BY c.created_at DESC, c.id DESC LIMIT $2 OFFSET $3) page) AS items
FROM repos r WHERE r.id = $1
"""


def _refuse(data: CommitCreate, row: asyncpg.Record) -> NoReturn:
    """Why the commit statement wrote nothing: a moved HEAD, or a parent that cannot be one."""
    if row["head_moved"]:
        head = row["current_head"]
        raise Conflict(
            f"HEAD has moved: expected {data.expected_head_commit_id or 'no HEAD'}, but HEAD is "
            f"{head or 'empty'}. Nothing was written; read HEAD and retry.",
            field="expected_head_commit_id",
        )
    if row["parent_missing"]:
        raise NotFound(f"No Checkpoint with id {data.parent_commit_id}.", field="parent_commit_id")
    raise BadRequest("parent_commit_id belongs to another Space.", field="parent_commit_id")


class CheckpointStore:
    def __init__(
        self,
        pool: Pool,
        *,
        page_cache_bytes: int = 16 * 2**20,
        new_id: Callable[[], UUID] = uuid7,
        writer: CommitWriter | None = None,
    ) -> None:
        self._pool = pool
        # Log pages by (Space, Checkpoint count, limit, offset): see `log_json`.
        self._pages: SizedLru[tuple[UUID, int, int, int], bytes] = SizedLru(page_cache_bytes, len)
        self._new_id = new_id  # time-ordered (smriti.ids); `make bench-wal` compares random ones
        self.writer = writer or CommitWriter(pool)

    async def head_json(self, repo_id: UUID) -> bytes:
        """HEAD as JSON. 404 when the Space does not exist or has no Checkpoint yet."""
        row = await self._pool.fetchrow(_HEAD_SQL, repo_id)
        if row is None:
            raise NotFound(f"No Space with id {repo_id}.")
        if row["body"] is None:
            raise NotFound("This Space has no Checkpoint yet.")
        return str(row["body"]).encode()

    async def get(self, ref: str) -> Checkpoint:
        """A Checkpoint by id, full `commit_hash`, or a unique hash prefix of at least 7 hex digits."""
        return to_checkpoint(await self._find(ref, COLUMNS))

    async def get_json(self, ref: str) -> bytes:
        """The same, as JSON built by PostgreSQL."""
        return str((await self._find(ref, f"{checkpoint_json_sql('commits')} AS body"))["body"]).encode()

    async def _find(self, ref: str, columns: str) -> asyncpg.Record:
        ref = ref.strip().lower()
        commit_id = None
        if not _HEX.match(ref):  # 32 bare hex digits are a hash prefix, not a UUID without dashes
            try:
                commit_id = UUID(ref)
            except ValueError:
                commit_id = None
        if commit_id is not None:
            row = await self._pool.fetchrow(f"SELECT {columns} FROM commits WHERE id = $1", commit_id)
            if row is None:
                raise NotFound(f"No Checkpoint with id {ref}.")
            return row
        if not _HEX.match(ref):
            raise NotFound(
                f"{ref!r} is not a Checkpoint id, hash, or hash prefix of at least 7 hex digits.",
                field="ref",
                source="path",
            )
        if len(ref) == 64:
            rows = await self._pool.fetch(f"SELECT {columns} FROM commits WHERE commit_hash = $1", ref)
        else:
            # A range on the hash index: prefix ≤ hash < prefix + 'g' ('g' sorts after every hex digit).
            rows = await self._pool.fetch(
                f"SELECT {columns} FROM commits WHERE commit_hash >= $1 AND commit_hash < $2 LIMIT 2",
                ref,
                ref + "g",
            )
        if not rows:
            raise NotFound(f"No Checkpoint with hash {ref}.")
        if len(rows) > 1:
            raise BadRequest(f"Hash prefix {ref} matches more than one Checkpoint; give more digits.", field="ref")
        return rows[0]

    async def log_json(self, repo_id: UUID, *, limit: int, offset: int) -> bytes:
        """Checkpoints of a Space, newest first, as a JSON page. The total is kept on the Space.

        Checkpoints are never changed or removed one by one, so a page is fully determined by
        the Space's Checkpoint count: a cached page for the current count is the page. One
        primary-key read says which count is current.
        """
        total = await self._pool.fetchval("SELECT commit_count FROM repos WHERE id = $1", repo_id)
        if total is None:
            raise NotFound(f"No Space with id {repo_id}.")
        key = (repo_id, total, limit, offset)
        page = self._pages.get(key)
        if page is None:
            row = await self._pool.fetchrow(_LOG_SQL, repo_id, limit, offset)
            if row is None:
                raise NotFound(f"No Space with id {repo_id}.")
            page = _page_json(row["items"], row["total"], limit, offset)
            if row["total"] == total:  # a commit landed between the two reads: do not keep it
                self._pages.put(key, page)
        return page

    async def commit(self, data: CommitCreate) -> bytes:
        """Insert a Checkpoint and move HEAD to it: one statement, atomic, shared with concurrent
        commits to other Spaces (`writes.CommitWriter`).

        The statement locks the Space's row, so commits to one Space serialise: "parent defaults
        to HEAD" never forks by accident, created_at (read after the lock) follows commit order,
        and the parent's hash comes from the locked row itself (`head_commit_hash`), which is
        always the latest version even when the statement had to wait for another commit.
        """
        content = encode_content(data)
        row = await self.writer.write(PendingCommit(data, content, self._new_id()))
        if row is None:
            raise NotFound(f"No Space with id {data.repo_id}.", field="repo_id")
        if row["id"] is None:
            _refuse(data, row)
        # The client sent the content; only the server's own fields come back from the database.
        return _encode(
            {
                "id": row["id"],
                "repo_id": data.repo_id,
                "parent_commit_id": row["parent_commit_id"],
                "commit_hash": row["commit_hash"],
                **content.fields,
                "created_at": format_timestamp(row["created_at"]),
            }
        )

    async def verify(self, repo_id: UUID, anchors: Sequence[str] = ()) -> VerifyReport:
        """Recompute every hash and parent link of a Space from the stored values, compare the
        Space's own record (its Checkpoint count, HEAD, its copy of HEAD's hash) with them, and
        check that each anchor (a hash kept elsewhere) is still in the history.

        The content columns are read as text and decoded here, one row at a time, so that a row
        whose stored JSON was damaged (nested too deeply to decode, say) is reported as a
        problem instead of failing the whole check.
        """
        # One snapshot for the Space and its Checkpoints: read apart, a commit landing between
        # the two reads looked like a Checkpoint added behind Smriti's back.
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            space = await conn.fetchrow(
                "SELECT head_commit_id, head_commit_hash, commit_count FROM repos WHERE id = $1", repo_id
            )
            if space is None:
                raise NotFound(f"No Space with id {repo_id}.")
            rows = await conn.fetch(f"SELECT {_AS_TEXT} FROM commits WHERE repo_id = $1", repo_id)
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
        # Every hash of the Space is recomputed: in proportion to its size, so off the event loop.
        problems = await off_loop(
            lambda: [problem for row in rows if (problem := _check_row(row, by_id, outside)) is not None]
        )
        problems += _check_space(space, by_id)
        hashes = {row["commit_hash"] for row in rows}
        problems += [
            VerifyProblem(
                None,
                "anchor_missing",
                f"The anchor {anchor} is not the hash of any Checkpoint of this Space: the history it "
                "belonged to was changed or removed.",
            )
            for anchor in dict.fromkeys(anchors)
            if anchor not in hashes
        ]
        return VerifyReport(repo_id=repo_id, checked=len(rows), ok=not problems, problems=problems)


# The content columns as PostgreSQL's text, decoded by `_content` row by row.
_AS_TEXT = ", ".join(f"{name}::text AS {name}" if name in JSONB_FIELDS else name for name in _NAMES)


def _content(row: asyncpg.Record) -> dict[str, Any]:
    return {name: msgspec.json.decode(row[name]) if name in JSONB_FIELDS else row[name] for name in CONTENT_FIELDS}


def _check_row(
    row: asyncpg.Record, by_id: dict[UUID, asyncpg.Record], outside: dict[UUID, Any]
) -> VerifyProblem | None:
    parent_id = row["parent_commit_id"]
    parent_hash: str | None = None
    if parent_id is not None:
        parent = by_id.get(parent_id)
        if parent is None:
            kind = "foreign_parent" if parent_id in outside else "missing_parent"
            return VerifyProblem(row["id"], kind, f"Parent {parent_id} is not a Checkpoint of this Space.")
        parent_hash = parent["commit_hash"]
    try:
        expected = compute_commit_hash(
            commit_id=row["id"],
            repo_id=row["repo_id"],
            parent_hash=parent_hash,
            created_at=row["created_at"],
            content=_content(row),
        )
    except (RecursionError, msgspec.DecodeError, TypeError, ValueError) as exc:
        return VerifyProblem(
            row["id"],
            "unreadable",
            f"The stored content cannot be read back ({type(exc).__name__}): it was changed in the database.",
        )
    if expected != row["commit_hash"]:
        return VerifyProblem(
            row["id"],
            "hash_mismatch",
            f"Stored hash {row['commit_hash'][:12]}… does not match its content "
            f"({expected[:12]}…): the Checkpoint or its parent link was changed.",
        )
    return None


def _check_space(space: asyncpg.Record, by_id: dict[UUID, asyncpg.Record]) -> list[VerifyProblem]:
    """The Space's own record against its Checkpoints: what a deleted Checkpoint leaves behind."""
    problems: list[VerifyProblem] = []
    head_id = space["head_commit_id"]
    # The database's own key keeps HEAD inside its Space (migration 0002); this still reports
    # it if that key was dropped or bypassed.
    if head_id is not None and head_id not in by_id:
        problems.append(VerifyProblem(head_id, "head_missing", "HEAD points outside this Space."))
    elif head_id is not None and by_id[head_id]["commit_hash"] != space["head_commit_hash"]:
        # The next commit chains onto this copy of HEAD's hash, so it must be the real one.
        problems.append(VerifyProblem(head_id, "head_hash_mismatch", "The Space's copy of HEAD's hash differs."))
    elif head_id is None and by_id:
        problems.append(
            VerifyProblem(None, "head_missing", f"HEAD is empty, but the Space has {len(by_id)} Checkpoints.")
        )
    if space["commit_count"] != len(by_id):
        # Every commit adds one to the count in the statement that writes it, and Checkpoints are
        # never deleted one by one: a difference means Checkpoints were removed (or added) behind
        # Smriti's back, a deleted tip included.
        problems.append(
            VerifyProblem(
                None,
                "count_mismatch",
                f"The Space records {space['commit_count']} Checkpoints but {len(by_id)} are stored: "
                "Checkpoints were deleted or added outside Smriti.",
            )
        )
    return problems
