"""Apply and restore: new Checkpoints made from existing state, committed like any other."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from uuid import UUID

import asyncpg
import msgspec

from smriti.access.caller import Agent
from smriti.checkpoints.carry import apply_changes, check_request_text, restored_content
from smriti.checkpoints.commit_sql import COLUMNS
from smriti.checkpoints.line_locks import holding_line
from smriti.checkpoints.schemas import ApplyRequest, CheckpointContent, CommitCreate, RestoreRequest
from smriti.checkpoints.store import CheckpointStore, to_checkpoint
from smriti.core.errors import Conflict, NotFound, no_line
from smriti.core.schemas import line_lookup_key
from smriti.db.pool import Pool


@dataclass(frozen=True, slots=True)
class CheckpointVerbs:
    pool: Pool
    checkpoints: CheckpointStore

    async def apply(self, data: ApplyRequest, *, agent: Agent | None) -> bytes:
        check_request_text(data)
        if data.parent_commit_id is not None:
            if await self.pool.fetchval("SELECT 1 FROM repos WHERE id = $1", data.repo_id) is None:
                raise NotFound(f"No Space with id {data.repo_id}.", field="repo_id")
            parent = to_checkpoint(
                await self.checkpoints.resolve(
                    str(data.parent_commit_id), repo_id=data.repo_id, field="parent_commit_id"
                )
            )
            content = apply_changes(parent, data)
            # The parent must be the line's HEAD unless the request says which HEAD it replaces:
            # a line's HEAD never moves sideways onto an older state by default.
            expected = data.expected_head_commit_id
            return await self.checkpoints.commit(
                _commit_of(
                    content,
                    repo_id=data.repo_id,
                    branch=data.branch,
                    parent=parent.id,
                    expected=parent.id if expected is msgspec.UNSET else expected,
                    merge_parent=data.merge_parent_id,
                ),
                agent=agent,
            )

        # The changes apply to the line's HEAD as it is under the line's lock, held until the
        # new Checkpoint is written: concurrent applies each land on the one before, and none
        # is written over state it did not see. The locks are taken in a commit's order, each in
        # a statement of its own, so that the HEAD is read after the line's lock is held (the
        # commit it waited for is then visible).
        async def on_line(conn: asyncpg.Connection, line: asyncpg.Record | None) -> bytes:
            if line is None:
                raise no_line(data.branch or "", field="branch")
            head_id = line["head_commit_id"]
            head = None
            if head_id is not None:
                head = to_checkpoint(await _one(conn.fetchrow(f"SELECT {COLUMNS} FROM commits WHERE id = $1", head_id)))
            expected = data.expected_head_commit_id
            if expected is not msgspec.UNSET and head_id != expected:
                raise Conflict(
                    f"HEAD has moved: expected {expected or 'no HEAD'}, but it is {head_id or 'empty'}. "
                    "Nothing was written; read HEAD and retry.",
                    field="expected_head_commit_id",
                )
            content = apply_changes(head, data)
            return await self.checkpoints.commit(
                _commit_of(
                    content,
                    repo_id=data.repo_id,
                    branch=data.branch,
                    parent=head_id,
                    expected=head_id,
                    merge_parent=data.merge_parent_id,
                ),
                conn=conn,
                agent=agent,
            )

        if data.branch is None:
            return await holding_line(self.pool, data.repo_id, None, on_line, space_field="repo_id")
        key = line_lookup_key(data.branch)
        if key is None:  # a name no line can have
            raise no_line(data.branch, field="branch")
        return await holding_line(self.pool, data.repo_id, key, on_line, space_field="repo_id")

    async def restore(self, ref: str, data: RestoreRequest, *, agent: Agent | None) -> bytes:
        source = await self.checkpoints.get(ref)
        return await self.checkpoints.commit(
            _commit_of(
                restored_content(source, data.message),
                repo_id=source.repo_id,
                branch=data.branch,
                parent=None,
                expected=data.expected_head_commit_id,
            ),
            agent=agent,
        )


async def _one(query: Awaitable[asyncpg.Record | None]) -> asyncpg.Record:
    row = await query
    if row is None:  # a line's HEAD is a Checkpoint of its Space (a foreign key says so)
        raise RuntimeError("a line's HEAD is missing")
    return row


def _commit_of(
    content: CheckpointContent,
    *,
    repo_id: UUID,
    branch: str | None,
    parent: UUID | None,
    expected: object,
    merge_parent: UUID | None = None,
) -> CommitCreate:
    fields = {name: getattr(content, name) for name in content.__struct_fields__}
    return CommitCreate(
        **fields,
        repo_id=repo_id,
        branch=branch,
        parent_commit_id=parent,
        expected_head_commit_id=expected,  # type: ignore[arg-type]
        merge_parent_id=merge_parent,
    )
