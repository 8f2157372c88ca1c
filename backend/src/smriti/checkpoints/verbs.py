"""Apply and restore: new Checkpoints made from existing state, committed like any other."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import msgspec

from smriti.checkpoints.carry import ApplyRequest, apply_changes, restored_content
from smriti.checkpoints.schemas import Checkpoint, CheckpointContent, CommitCreate
from smriti.checkpoints.store import CheckpointStore, to_checkpoint
from smriti.checkpoints.writes import COLUMNS
from smriti.db.pool import Pool
from smriti.errors import BadRequest, Conflict, NotFound
from smriti.schemas import LineRef, Request

# How often an apply that named no HEAD re-reads the line's HEAD after another commit moved it.
APPLY_ATTEMPTS = 5

_PREFIXED = ", ".join(f"c.{name.strip()}" for name in COLUMNS.split(","))
_LINE_HEAD_SQL = f"""
SELECT b.id AS line_id, b.head_commit_id, {_PREFIXED}
FROM repos r
LEFT JOIN branches b ON b.repo_id = r.id AND CASE WHEN $2::text IS NULL THEN b.is_default
                                                  ELSE lower(b.name) = lower($2::text) END
LEFT JOIN commits c ON c.id = b.head_commit_id
WHERE r.id = $1
"""


class RestoreRequest(Request, kw_only=True):
    """`POST /v5/commits/{ref}/restore`: a new Checkpoint on the line (default: the default line)
    whose content equals `ref`'s, with `metadata.restored_from`; its parent is the line's HEAD."""

    branch: LineRef | None = None
    message: str | None = None
    expected_head_commit_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


@dataclass(frozen=True, slots=True)
class CheckpointVerbs:
    pool: Pool
    checkpoints: CheckpointStore

    async def line_head(self, repo_id: UUID, branch: str | None) -> Checkpoint | None:
        row = await self.pool.fetchrow(_LINE_HEAD_SQL, repo_id, branch.strip() if branch else None)
        if row is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id")
        if row["line_id"] is None:
            raise NotFound(f"This Space has no line named {branch!r}.", field="branch")
        return to_checkpoint(row) if row["head_commit_id"] is not None else None

    async def apply(self, data: ApplyRequest) -> bytes:
        if data.parent_commit_id is not None:
            parent = await self.checkpoints.get(str(data.parent_commit_id))
            if parent.repo_id != data.repo_id:
                raise BadRequest("parent_commit_id belongs to another Space.", field="parent_commit_id")
            content = apply_changes(parent, data)
            return await self._commit(data, content, parent=parent.id, expected=data.expected_head_commit_id)
        pinned = data.expected_head_commit_id is not msgspec.UNSET
        for _ in range(APPLY_ATTEMPTS):
            head = await self.line_head(data.repo_id, data.branch)
            head_id = head.id if head else None
            if pinned and head_id != data.expected_head_commit_id:
                raise Conflict(
                    f"HEAD has moved: expected {data.expected_head_commit_id or 'no HEAD'}, but it is "
                    f"{head_id or 'empty'}. Nothing was written; read HEAD and retry.",
                    field="expected_head_commit_id",
                )
            content = apply_changes(head, data)
            try:
                # The parent is the HEAD the changes were applied to, and the line's HEAD must
                # still be it: a commit landing meanwhile is never overwritten by stale state.
                return await self._commit(data, content, parent=head_id, expected=head_id)
            except Conflict as exc:
                if pinned or not any(error.field == "expected_head_commit_id" for error in exc.errors):
                    raise
        raise Conflict(
            f"The line's HEAD moved {APPLY_ATTEMPTS} times while these changes were applied; nothing was "
            "written. Retry.",
            field="expected_head_commit_id",
        )

    async def restore(self, ref: str, data: RestoreRequest) -> bytes:
        source = await self.checkpoints.get(ref)
        return await self.checkpoints.commit(
            _commit_of(
                restored_content(source, data.message),
                repo_id=source.repo_id,
                branch=data.branch,
                parent=None,
                expected=data.expected_head_commit_id,
            )
        )

    async def _commit(
        self, data: ApplyRequest, content: CheckpointContent, *, parent: UUID | None, expected: object
    ) -> bytes:
        return await self.checkpoints.commit(
            _commit_of(content, repo_id=data.repo_id, branch=data.branch, parent=parent, expected=expected)
        )


def _commit_of(
    content: CheckpointContent, *, repo_id: UUID, branch: str | None, parent: UUID | None, expected: object
) -> CommitCreate:
    fields = {name: getattr(content, name) for name in content.__struct_fields__}
    return CommitCreate(
        **fields,
        repo_id=repo_id,
        branch=branch,
        parent_commit_id=parent,
        expected_head_commit_id=expected,  # type: ignore[arg-type]
    )
