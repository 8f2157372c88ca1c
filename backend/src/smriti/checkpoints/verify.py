"""Verify: every hash and parent link of a Space recomputed, and the Space's record checked.

Invariant 4: history is tamper-evident. Also checked: the Space's lines (each HEAD a Checkpoint
of the Space, its copy of the hash right, the Space's HEAD the default line's) and the count of
Checkpoints the lines record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from smriti.checkpoints.commit_sql import JSONB_FIELDS
from smriti.checkpoints.hashing import CONTENT_FIELDS, compute_commit_hash
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS, VerifyProblem, VerifyReport
from smriti.core.cpu import keep_going, off_loop
from smriti.core.errors import NotFound
from smriti.db.pool import Pool

_NAMES = CHECKPOINT_FIELDS


async def verify_space(pool: Pool, repo_id: UUID, anchors: Sequence[str] = ()) -> VerifyReport:
    """Recompute every hash and parent link of a Space from the stored values, compare the
    Space's own record and its lines' (the Checkpoint count, each HEAD and its copy of the hash)
    with them, and
    check that each anchor (a hash kept elsewhere) is still in the history.

    The content columns are read as text and decoded here, one row at a time, so that a row
    whose stored JSON was damaged (nested too deeply to decode, say) is reported as a
    problem instead of failing the whole check.
    """
    # One snapshot for the Space and its Checkpoints: read apart, a commit landing between
    # the two reads looked like a Checkpoint added behind Smriti's back.
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        space = await conn.fetchrow("SELECT head_commit_id, head_commit_hash FROM repos WHERE id = $1", repo_id)
        if space is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        lines = await conn.fetch(
            "SELECT name, is_default, head_commit_id, head_commit_hash, head_depth, head_jumps, head_jump_depths, "
            "head_merges, commit_count FROM branches "
            "WHERE repo_id = $1 ORDER BY is_default DESC, lower(name)",
            repo_id,
        )
        rows = await conn.fetch(f"SELECT {_AS_TEXT}, {', '.join(_DERIVED)} FROM commits WHERE repo_id = $1", repo_id)
        by_id: dict[UUID, asyncpg.Record] = {row["id"]: row for row in rows}
        foreign_parents = {
            row[link] for row in rows for link in _PARENT_LINKS if row[link] is not None and row[link] not in by_id
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
    problems += _check_space(space, lines, by_id)
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


# What is derived from the parent links when a Checkpoint is written: not in the hash, but read.
_DERIVED = ("depth", "jump_commit_id", "jump_depth", "first_parent_merges")


# Both links a Checkpoint can have to the ones before it: its parent, and a merge's second parent.
_PARENT_LINKS = ("parent_commit_id", "merge_parent_id")


def _check_row(
    row: asyncpg.Record, by_id: dict[UUID, asyncpg.Record], outside: dict[UUID, Any]
) -> VerifyProblem | None:
    keep_going()  # a large Space's check ends when the server stops
    parent_id = row["parent_commit_id"]
    hashes: dict[str, str | None] = {}
    for link, kind, what in (
        ("parent_commit_id", "parent", "Parent"),
        ("merge_parent_id", "merge_parent", "Merge parent"),
    ):
        linked_id = row[link]
        hashes[link] = None
        if linked_id is not None:
            linked = by_id.get(linked_id)
            if linked is None:
                problem = f"foreign_{kind}" if linked_id in outside else f"missing_{kind}"
                return VerifyProblem(row["id"], problem, f"{what} {linked_id} is not a Checkpoint of this Space.")
            hashes[link] = linked["commit_hash"]
    try:
        expected = compute_commit_hash(
            commit_id=row["id"],
            repo_id=row["repo_id"],
            parent_hash=hashes["parent_commit_id"],
            created_at=row["created_at"],
            content=_content(row),
            merge_parent_hash=hashes["merge_parent_id"],
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
            f"({expected[:12]}…): the Checkpoint or one of its parent links was changed.",
        )
    return _derived_problem(row, None if parent_id is None else by_id[parent_id], by_id)


def _derived_problem(
    row: asyncpg.Record, parent: asyncpg.Record | None, by_id: dict[UUID, asyncpg.Record]
) -> VerifyProblem | None:
    """The columns derived from the parent's, each recomputed from the stored parent's: not
    covered by the hash, but a line's length, and the merge base, are read from them."""
    depth = 0 if parent is None else parent["depth"] + 1
    if row["depth"] != depth:
        return VerifyProblem(row["id"], "depth_mismatch", f"Stored depth {row['depth']} should be {depth}.")
    jump = _expected_jump(row["id"], parent, by_id)
    if jump is not None and (row["jump_commit_id"], row["jump_depth"]) != jump:
        return VerifyProblem(row["id"], "jump_mismatch", "The stored jump link differs from the one its parent's give.")
    merges = (0 if parent is None else parent["first_parent_merges"]) + (row["merge_parent_id"] is not None)
    if row["first_parent_merges"] != merges:
        return VerifyProblem(row["id"], "merge_count_mismatch", f"Stored merge count should be {merges}.")
    return None


def _expected_jump(
    commit_id: UUID, parent: asyncpg.Record | None, by_id: dict[UUID, asyncpg.Record]
) -> tuple[UUID, int] | None:
    """The jump link (id, depth) a Checkpoint gets from its parent's (migration 0007); a root's
    is itself. From the stored links, so each row is checked on its own; None when the parent's
    own link is broken (reported on the parent, not again on each child)."""
    if parent is None:
        return commit_id, 0
    jump = by_id.get(parent["jump_commit_id"])
    if jump is None:
        return None
    if parent["depth"] - parent["jump_depth"] == parent["jump_depth"] - jump["jump_depth"]:
        return jump["jump_commit_id"], jump["jump_depth"]
    return parent["id"], parent["depth"]


def _check_space(
    space: asyncpg.Record, lines: Sequence[asyncpg.Record], by_id: dict[UUID, asyncpg.Record]
) -> list[VerifyProblem]:
    """The Space's own record and its lines against its Checkpoints: what a deleted Checkpoint
    leaves behind."""
    problems: list[VerifyProblem] = []
    for line in lines:
        problems += _check_head(f"The HEAD of line {line['name']!r}", line, by_id)
    default = next((line for line in lines if line["is_default"]), None)
    if default is None:
        problems.append(VerifyProblem(None, "default_line_missing", "The Space has no default line."))
    elif default["head_commit_id"] != space["head_commit_id"]:
        problems.append(
            VerifyProblem(
                space["head_commit_id"],
                "head_mismatch",
                f"The Space's HEAD is not the HEAD of its default line {default['name']!r}.",
            )
        )
    else:
        # A default line with no Checkpoint yet while another line has some is a real state.
        emptied = by_id and not any(line["head_commit_id"] for line in lines)
        problems += _check_head("HEAD", space, by_id, emptied=bool(emptied))
    recorded = sum(line["commit_count"] for line in lines)
    if recorded != len(by_id):
        # Every commit adds one to its line's count in the statement that writes it, and
        # Checkpoints are never deleted one by one: a difference means Checkpoints were removed
        # (or added) behind Smriti's back, a deleted tip included.
        problems.append(
            VerifyProblem(
                None,
                "count_mismatch",
                f"The Space records {recorded} Checkpoints but {len(by_id)} are stored: "
                "Checkpoints were deleted or added outside Smriti.",
            )
        )
    return problems


def _check_head(
    what: str, record: asyncpg.Record, by_id: dict[UUID, asyncpg.Record], *, emptied: bool = False
) -> list[VerifyProblem]:
    """One HEAD against the Checkpoints; `emptied`: every line's HEAD is empty, yet the Space
    has Checkpoints (their HEADs were cleared behind Smriti's back)."""
    head_id = record["head_commit_id"]
    # The database's own keys keep each HEAD inside its Space (migrations 0002 and 0004); this
    # still reports one if a key was dropped or bypassed.
    if head_id is not None and head_id not in by_id:
        return [VerifyProblem(head_id, "head_missing", f"{what} points outside this Space.")]
    if head_id is not None and by_id[head_id]["commit_hash"] != record["head_commit_hash"]:
        # The next commit chains onto this copy of HEAD's hash, so it must be the real one.
        return [VerifyProblem(head_id, "head_hash_mismatch", f"The copy of the hash of {what} differs.")]
    depth = record.get("head_depth", -1)  # lines keep HEAD's depth too; the Space does not
    if head_id is not None and depth != -1 and by_id[head_id]["depth"] != depth:
        return [VerifyProblem(head_id, "head_depth_mismatch", f"The copy of the depth of {what} differs.")]
    is_line = "head_jumps" in record  # the Space's copy of HEAD keeps no links
    if head_id is not None and is_line and _kept_links(record) != _chain(head_id, by_id):
        # The next commit on the line makes its jump link and merge count from this copy.
        return [VerifyProblem(head_id, "head_links_mismatch", f"The copy of the jump links of {what} differs.")]
    if head_id is None and emptied:
        return [VerifyProblem(None, "head_missing", f"HEAD is empty, but the Space has {len(by_id)} Checkpoints.")]
    return []


def _kept_links(line: asyncpg.Record) -> tuple[list[UUID], list[int], int] | None:
    if line["head_jumps"] is None or line["head_jump_depths"] is None:
        return None  # only with migration 0007's CHECK dropped
    return list(line["head_jumps"]), list(line["head_jump_depths"]), line["head_merges"]


def _chain(head_id: UUID, by_id: dict[UUID, asyncpg.Record]) -> tuple[list[UUID], list[int], int] | None:
    """HEAD's chain of jumps (its jump, that one's, ... to the root) and merge count, as a line
    keeps them (migration 0007), from the stored Checkpoints."""
    ids: list[UUID] = []
    row: asyncpg.Record | None = by_id[head_id]
    while row is not None and row["jump_commit_id"] != row["id"]:
        row = by_id.get(row["jump_commit_id"])
        if row is None or len(ids) > len(by_id):
            return None  # a broken link, reported on its Checkpoint
        ids.append(row["id"])
    return ids, [by_id[i]["depth"] for i in ids], by_id[head_id]["first_parent_merges"]
