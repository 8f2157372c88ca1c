"""Checkpoint reads and writes on the lean asyncpg path.

HEAD, one Checkpoint and the log are the hottest reads an agent makes; committing is the hottest
write. Each is one or two statements, and HEAD moves under a row lock on the Space so that
concurrent commits serialise instead of losing one another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, NoReturn
from uuid import UUID

import asyncpg
import msgspec

from smriti.access.caller import Agent
from smriti.access.scope import limited, visible_spaces
from smriti.checkpoints.authorship import vouched
from smriti.checkpoints.commit_sql import COLUMNS
from smriti.checkpoints.hashing import (
    CONTENT_FIELDS,
    TIMESTAMP_FORMAT_SQL,
    encode_content,
    format_timestamp,
)
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS, Checkpoint, CommitCreate, VerifyReport
from smriti.checkpoints.size import check_size
from smriti.checkpoints.verify import verify_space
from smriti.checkpoints.writes import CommitWriter, PendingCommit, write_on
from smriti.core.config import DEFAULT_MAX_BODY_BYTES
from smriti.core.errors import BadRequest, Conflict, Forbidden, NotFound, no_line
from smriti.core.ids import HASH_REF, uuid7
from smriti.core.lru import SizedLru
from smriti.core.schemas import line_lookup_key
from smriti.db.pool import Pool

_NAMES = CHECKPOINT_FIELDS
# A commit's answer is written out as a literal (`commit`); it must keep the Struct's order.
if ("id", "repo_id", "parent_commit_id", "merge_parent_id", "commit_hash", *CONTENT_FIELDS, "created_at") != _NAMES:
    raise RuntimeError("Checkpoint's fields and the commit answer's order disagree (checkpoints/store.py)")
_PREFIXED = ", ".join(f"c.{name}" for name in _NAMES)


def checkpoint_json_sql(alias: str) -> str:
    """A Checkpoint as JSON text, built by PostgreSQL from the row: the hot reads send these bytes
    as they are, with no decoding and re-encoding in Python."""
    fields = ", ".join(f"'{name}', {alias}.{name}" for name in _NAMES if name != "created_at")
    created = f"to_char({alias}.created_at AT TIME ZONE 'UTC', '{TIMESTAMP_FORMAT_SQL}')"
    return f"json_build_object({fields}, 'created_at', {created})::text"


_encode = msgspec.json.Encoder().encode


class PageJSON(NamedTuple):
    """A page encoded as JSON, with its total (for the `Link` header) at hand."""

    body: bytes
    total: int


def _page_json(items: str, total: int, limit: int, offset: int) -> PageJSON:
    return PageJSON(f'{{"items":{items},"total":{total},"limit":{limit},"offset":{offset}}}'.encode(), total)


def to_checkpoint(row: asyncpg.Record, prefix: str = "") -> Checkpoint:
    # convert, not Checkpoint(**row): nested tasks, entities and artifacts become Structs.
    return msgspec.convert({name: row[prefix + name] for name in _NAMES}, Checkpoint)


_HEAD_SQL = f"""
SELECT CASE WHEN c.id IS NOT NULL THEN {checkpoint_json_sql("c")} END AS body
FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id WHERE r.id = $1
"""

# The Space's Checkpoint count is the sum of its lines' (migration 0004).
_SPACE_TOTAL_SQL = "SELECT (SELECT coalesce(sum(b.commit_count), 0) FROM branches b WHERE b.repo_id = r.id)::int"

_LOG_SQL = f"""
{_SPACE_TOTAL_SQL} AS total,
       (SELECT coalesce(json_agg(page.body ORDER BY page.created_at DESC, page.id DESC), '[]')::text
        FROM (SELECT c.created_at, c.id, {checkpoint_json_sql("c")}::json AS body FROM commits c
              WHERE c.repo_id = r.id ORDER BY c.created_at DESC, c.id DESC LIMIT $2 OFFSET $3) page) AS items
FROM repos r WHERE r.id = $1
"""

_LINE_HEAD_SQL = f"""
SELECT b.id AS line_id, CASE WHEN c.id IS NOT NULL THEN {checkpoint_json_sql("c")} END AS body
FROM repos r LEFT JOIN branches b ON b.repo_id = r.id AND b.name_key = $2
LEFT JOIN commits c ON c.id = b.head_commit_id WHERE r.id = $1
"""

_LINE_TIP_SQL = """
SELECT b.id AS line_id, b.head_commit_id, coalesce(h.depth + 1, 0) AS total
FROM repos r LEFT JOIN branches b ON b.repo_id = r.id AND b.name_key = $2
LEFT JOIN commits h ON h.id = b.head_commit_id WHERE r.id = $1
"""

# A line's history: first parents from its HEAD, newest first. The walk carries ids only; the
# page's rows are read once it has found them.
_LINE_LOG_SQL = f"""
WITH RECURSIVE walk AS (
    SELECT id, parent_commit_id, 0 AS n FROM commits WHERE id = $1
    UNION ALL
    SELECT c.id, c.parent_commit_id, walk.n + 1 FROM commits c JOIN walk ON c.id = walk.parent_commit_id
    WHERE walk.n + 1 < $2::bigint + $3::bigint
)
SELECT coalesce(json_agg({checkpoint_json_sql("c")}::json ORDER BY walk.n), '[]')::text
FROM walk JOIN commits c ON c.id = walk.id WHERE walk.n >= $3::int
"""

# A commit to the default line that finds no default line retries this many times (see `commit`).
_DEFAULT_LINE_ATTEMPTS = 3


def _lookup(branch: str) -> str | None:
    """A line's key from a query: None (no line) for text no line can have, never sent as is."""
    return line_lookup_key(branch)


def _no_line_in_query(branch: str) -> NotFound:
    return no_line(branch, field="branch", source="query")


def protected_line(name: str, *, source: str = "body") -> Forbidden:
    """403 for an agent writing to, or changing, a protected line (SYSTEM.md §13): it names
    `branch` wherever the line was named, as the contract says."""
    return Forbidden(
        f"Line {name!r} is protected: only the person changes it. Work on a line of your own and open a "
        "proposal to merge it (`smriti propose`, or POST /v5/repos/{repo_id}/proposals).",
        field="branch",
        source=source,
    )


def _refuse(data: CommitCreate, row: asyncpg.Record) -> NoReturn:
    """Why the commit statement wrote nothing: no such line, a protected line (an agent's commit),
    a moved HEAD, or a parent that cannot be one."""
    if row["line_missing"]:
        raise no_line(data.branch or "", field="branch")
    if row.get("line_protected"):
        raise protected_line(row["line_name"])
    if row["head_moved"]:
        head = row["current_head"]
        what = "HEAD" if data.branch is None else f"The HEAD of line {row['line_name']!r}"
        raise Conflict(
            f"{what} has moved: expected {data.expected_head_commit_id or 'no HEAD'}, but it is "
            f"{head or 'empty'}. Nothing was written; read HEAD and retry.",
            field="expected_head_commit_id",
        )
    # For a key limited to some Spaces, another Space's Checkpoint is as absent (access/scope.py).
    if row["parent_missing"] or (row["parent_foreign"] and limited()):
        raise NotFound(f"No Checkpoint with id {data.parent_commit_id}.", field="parent_commit_id")
    if row["parent_foreign"]:
        raise BadRequest("parent_commit_id belongs to another Space.", field="parent_commit_id")
    if row["merge_missing"] or (row["merge_foreign"] and limited()):
        raise NotFound(f"No Checkpoint with id {data.merge_parent_id}.", field="merge_parent_id")
    if row["merge_foreign"]:
        raise BadRequest("merge_parent_id belongs to another Space.", field="merge_parent_id")
    raise BadRequest(
        "merge_parent_id is the first parent of this commit: a merge joins two different Checkpoints.",
        field="merge_parent_id",
    )


def _among(spaces: frozenset[UUID] | None, where: str, *args: object) -> tuple[str, tuple[object, ...]]:
    """`where`, and its arguments, limited to the Checkpoints of `spaces` (None: every Space)."""
    if spaces is None:
        return where, args
    return f"{where} AND repo_id = ANY(${len(args) + 1}::uuid[])", (*args, list(spaces))


class CheckpointStore:
    def __init__(
        self,
        pool: Pool,
        *,
        page_cache_bytes: int = 16 * 2**20,
        new_id: Callable[[], UUID] = uuid7,
        writer: CommitWriter | None = None,
        max_checkpoint_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        self._pool = pool
        self._max_checkpoint_bytes = max_checkpoint_bytes  # SMRITI_MAX_BODY_BYTES (checkpoints/size.py)
        # Log pages by (Space, Checkpoint count, limit, offset): see `log_json`.
        self._pages: SizedLru[tuple[UUID, int, int, int], PageJSON] = SizedLru(
            page_cache_bytes, lambda page: len(page.body)
        )
        self._new_id = new_id  # time-ordered (smriti.core.ids); `make bench-wal` compares random ones
        self.writer = writer or CommitWriter(pool)

    async def head_json(self, repo_id: UUID, branch: str | None = None) -> bytes:
        """HEAD (of the line `branch`, else the Space's) as JSON. 404 when the Space or the line
        does not exist or has no Checkpoint yet."""
        if branch is None:
            row = await self._pool.fetchrow(_HEAD_SQL, repo_id)
        else:
            row = await self._pool.fetchrow(_LINE_HEAD_SQL, repo_id, _lookup(branch))
        if row is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        if branch is not None and row["line_id"] is None:
            raise _no_line_in_query(branch)
        if row["body"] is None:
            raise NotFound("This line has no Checkpoint yet." if branch else "This Space has no Checkpoint yet.")
        return str(row["body"]).encode()

    async def get(self, ref: str) -> Checkpoint:
        """A Checkpoint by id, full `commit_hash`, or a unique hash prefix of at least 7 hex digits."""
        return to_checkpoint(await self._find(ref, COLUMNS))

    async def get_json(self, ref: str) -> tuple[bytes, str]:
        """The same, as JSON built by PostgreSQL, with its hash (the response's `ETag`)."""
        row = await self._find(ref, f"{checkpoint_json_sql('commits')} AS body, commit_hash")
        return str(row["body"]).encode(), str(row["commit_hash"])

    async def resolve(self, ref: str, *, repo_id: UUID, field: str, columns: str = COLUMNS) -> asyncpg.Record:
        """A Checkpoint of the Space `repo_id` named by `ref` in the body's `field`: 404 naming it
        when there is none, 400 naming it when it belongs to another Space."""
        try:
            row = await self._find(ref, f"repo_id AS in_space, {columns}")
        except NotFound as exc:
            raise NotFound(exc.detail, field=field) from None
        except BadRequest as exc:
            raise BadRequest(exc.detail, field=field) from None
        if row["in_space"] != repo_id:
            raise BadRequest(f"{field} {ref.strip()!r} is a Checkpoint of another Space.", field=field)
        return row

    async def _find(self, ref: str, columns: str) -> asyncpg.Record:
        given = ref.strip()  # as the caller wrote it, for the messages
        ref = given.lower()
        # An agent limited to some Spaces looks among theirs only: another Space's Checkpoint is
        # as absent as one never made, and a prefix shared with one is not "ambiguous".
        spaces = visible_spaces()
        commit_id = None
        if not HASH_REF.match(ref):  # 32 bare hex digits are a hash prefix, not a UUID without dashes
            try:
                commit_id = UUID(ref)
            except ValueError:
                commit_id = None
        if commit_id is not None:
            where, args = _among(spaces, "id = $1", commit_id)
            row = await self._pool.fetchrow(f"SELECT {columns} FROM commits WHERE {where}", *args)
            if row is None:
                raise NotFound(f"No Checkpoint with id {given}.")
            return row
        if not HASH_REF.match(ref):
            # A malformed ref names nothing at all: the request is wrong (400), not the Checkpoint missing.
            raise BadRequest(
                f"{given!r} is not a Checkpoint id, hash, or hash prefix of at least 7 hex digits.",
                field="ref",
                source="path",
            )
        if len(ref) == 64:
            where, args = _among(spaces, "commit_hash = $1", ref)
            rows = await self._pool.fetch(f"SELECT {columns} FROM commits WHERE {where}", *args)
        else:
            # A range on the hash index: prefix ≤ hash < prefix + 'g' ('g' sorts after every hex digit).
            where, args = _among(spaces, "commit_hash >= $1 AND commit_hash < $2", ref, ref + "g")
            rows = await self._pool.fetch(f"SELECT {columns} FROM commits WHERE {where} LIMIT 2", *args)
        if not rows:
            raise NotFound(f"No Checkpoint with hash {given}.")
        if len(rows) > 1:
            raise BadRequest(f"Hash prefix {given} matches more than one Checkpoint; give more digits.", field="ref")
        return rows[0]

    async def log_json(self, repo_id: UUID, *, limit: int, offset: int) -> PageJSON:
        """Checkpoints of a Space, newest first, as a JSON page. The total is kept on the Space.

        Checkpoints are never changed or removed one by one, so a page is fully determined by
        the Space's Checkpoint count: a cached page for the current count is the page. One
        primary-key read says which count is current.
        """
        total = await self._pool.fetchval(f"{_SPACE_TOTAL_SQL} FROM repos r WHERE r.id = $1", repo_id)
        if total is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        key = (repo_id, total, limit, offset)
        page = self._pages.get(key)
        if page is None:
            row = await self._pool.fetchrow(_LOG_SQL, repo_id, limit, offset)
            if row is None:
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
            page = _page_json(row["items"], row["total"], limit, offset)
            if row["total"] == total:  # a commit landed between the two reads: do not keep it
                self._pages.put(key, page)
        return page

    async def line_log_json(self, repo_id: UUID, branch: str, *, limit: int, offset: int) -> PageJSON:
        """A line's history (first parents from its HEAD, newest first) as a JSON page.

        Such a page is fully determined by the line's HEAD (history never changes), so it is
        cached by HEAD, and its total is HEAD's depth + 1: no walk beyond the page."""
        tip = await self._pool.fetchrow(_LINE_TIP_SQL, repo_id, _lookup(branch))
        if tip is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        if tip["line_id"] is None:
            raise _no_line_in_query(branch)
        head, total = tip["head_commit_id"], tip["total"]
        if head is None or offset >= total:
            return _page_json("[]", total, limit, offset)
        key = (head, total, limit, offset)
        page = self._pages.get(key)
        if page is None:
            items = await self._pool.fetchval(_LINE_LOG_SQL, head, limit, offset)
            page = _page_json(items, total, limit, offset)
            self._pages.put(key, page)
        return page

    async def commit(
        self, data: CommitCreate, *, conn: asyncpg.Connection | None = None, agent: Agent | None = None
    ) -> bytes:
        """Insert a Checkpoint and move its line's HEAD to it: one statement, atomic, shared with
        concurrent commits to other lines (`writes.CommitWriter`); with `conn`, on that
        connection's transaction instead (a caller that holds the line's lock: `verbs.apply`).

        The statement locks the line's row, so commits to one line serialise: "parent defaults
        to the line's HEAD" never forks by accident, created_at (read after the lock) follows
        commit order, and the parent's hash comes from the locked row itself (`head_commit_hash`),
        which is always the latest version even when the statement had to wait for another commit.

        Every Checkpoint a write makes (commit, apply, restore, a merge) comes through here, and
        one over the size limit is a 413 before anything is sent to the database (`size.py`).
        So does authorship: made by an `agent` (None: the person), its metadata says so
        (`authorship.py`), and a protected line refuses it under the line's lock (403). And so
        does its event: the statement that writes the Checkpoint writes its `checkpoint.created`,
        naming the agent or the person (`commit_sql._recorded`).
        """
        data = vouched(data, agent)
        content = encode_content(data)
        check_size(content, self._max_checkpoint_bytes)
        for _ in range(_DEFAULT_LINE_ATTEMPTS):
            pending = PendingCommit(data, content, self._new_id(), agent=agent)
            row = await (self.writer.write(pending) if conn is None else write_on(conn, pending))
            if row is None:
                raise NotFound(f"No Space with id {data.repo_id}.", field="repo_id")
            # The default line changed while this commit waited for its lock: the new default
            # is the line it asked for.
            if not (row["line_missing"] and data.branch is None):
                break
        else:
            raise Conflict("The Space's default line kept changing; nothing was written. Retry.", field="branch")
        if row["id"] is None:
            _refuse(data, row)
        # The client sent the content; only the server's own fields come back from the database.
        # In CHECKPOINT_FIELDS order (checked at import, below): a literal is ~10 k instructions
        # per commit cheaper than building the dict from the field list.
        return _encode(
            {
                "id": row["id"],
                "repo_id": data.repo_id,
                "parent_commit_id": row["parent_commit_id"],
                "merge_parent_id": data.merge_parent_id,
                "commit_hash": row["commit_hash"],
                **content.fields,
                "created_at": format_timestamp(row["created_at"]),
            }
        )

    async def verify(self, repo_id: UUID, anchors: Sequence[str] = ()) -> VerifyReport:
        """The integrity check of a Space (`checkpoints/verify.py`)."""
        return await verify_space(self._pool, repo_id, anchors)
