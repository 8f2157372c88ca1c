"""A Checkpoint as the API returns it, built in memory for the pure tests."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import asyncpg
import msgspec

from smriti.checkpoints.schemas import Checkpoint, CommitCreate


def build_checkpoint(**fields: object) -> Checkpoint:
    base: dict[str, object] = {
        "id": uuid.uuid4(),
        "repo_id": uuid.uuid4(),
        "parent_commit_id": None,
        "merge_parent_id": None,
        "commit_hash": "abcdef0123" + "0" * 54,
        "message": "State",
        "summary": "",
        "decisions": [],
        "assumptions": [],
        "tasks": [],
        "open_questions": [],
        "entities": [],
        "artifacts": [],
        "metadata": {},
        "created_at": datetime.datetime.now(datetime.UTC),
    }
    base.update(fields)
    return Checkpoint(**base)  # type: ignore[arg-type]


def commit_body(space: uuid.UUID, message: str, **fields: Any) -> CommitCreate:
    """A commit as the store takes it, for the tests that write through `CheckpointStore` directly."""
    return msgspec.convert({"repo_id": str(space), "message": message, **fields}, CommitCreate)


async def insert_spaces(db: asyncpg.Connection, count: int) -> list[uuid.UUID]:
    """`count` empty Spaces written straight into the table (each gets its default line)."""
    ids = [uuid.uuid4() for _ in range(count)]
    await db.execute(
        "INSERT INTO repos (id, name, created_at, updated_at) "
        "SELECT id, id::text, now(), now() FROM unnest($1::uuid[]) id",
        ids,
    )
    return ids
