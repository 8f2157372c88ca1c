"""Opening, reading, merging and closing proposals: the store's rows with the merge of their lines.

The merge preview is `merges/service.py`'s, of the lines' HEADs by id; the merge Checkpoint is an
ordinary commit (`CheckpointStore.commit`) made in the transaction that marks the proposal merged,
so a crash leaves both or neither. That transaction takes a commit's locks in a commit's order
(`checkpoints/line_locks.py`): the Space's row share-locked, `into`'s row, then the proposal's row
(a line being deleted holds its row before it clears the proposals' reference to it).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import asyncpg
import msgspec

from smriti.access.caller import Caller
from smriti.checkpoints.carry import PROVENANCE_KEYS
from smriti.checkpoints.schemas import CommitCreate
from smriti.checkpoints.store import CheckpointStore
from smriti.core.errors import BadRequest, Conflict, Forbidden, NotFound
from smriti.db.pool import Pool
from smriti.merges.schemas import MergeRelation, MergeState
from smriti.merges.service import MergeRun, MergeService
from smriti.proposals.schemas import (
    Proposal,
    ProposalClose,
    ProposalCreate,
    ProposalDetail,
    ProposalMerge,
    ProposalStatus,
)
from smriti.proposals.store import ProposalRow, ProposalStore, not_open

_LOCK_SPACE = "SELECT id FROM repos WHERE id = $1 FOR KEY SHARE"
_LOCK_LINE = "SELECT name, head_commit_id FROM branches WHERE id = $1 FOR UPDATE"
_LINE_HEAD = "SELECT head_commit_id FROM branches WHERE id = $1"

# A merge whose lines moved while it ran (no expected HEADs given) is run again, at most this often.
_ATTEMPTS = 3


class _Moved(Exception):
    """A line's HEAD moved between the preview and the locks: run the merge again."""


@dataclass(frozen=True, slots=True)
class ProposalService:
    pool: Pool
    store: ProposalStore
    merges: MergeService
    checkpoints: CheckpointStore

    async def open(self, repo_id: UUID, data: ProposalCreate, caller: Caller) -> ProposalDetail:
        number = await self.store.open(repo_id, data, agent=caller.agent)
        return await self.detail(repo_id, number)

    async def detail(self, repo_id: UUID, number: int) -> ProposalDetail:
        row = await self.store.get(repo_id, number)
        run = await self._merge_of(row)
        preview = None if run is None else run.preview
        # Both lines at one Checkpoint: nothing comes in.
        relation: MergeRelation | None = None if row.from_head is None or row.into_head is None else "up_to_date"
        return ProposalDetail(
            **msgspec.structs.asdict(row.proposal),
            from_head_commit_id=row.from_head,
            into_head_commit_id=row.into_head,
            relation=relation if preview is None else preview.relation,
            conflicts=[] if preview is None else preview.conflicts,
            preview=preview,
        )

    async def page(
        self, repo_id: UUID, status: ProposalStatus | None, *, limit: int, offset: int
    ) -> tuple[list[Proposal], int]:
        return await self.store.page(repo_id, status, limit=limit, offset=offset)

    async def close(self, repo_id: UUID, number: int, data: ProposalClose, caller: Caller) -> ProposalDetail:
        row = await self.store.get(repo_id, number)
        agent = caller.agent
        if agent is not None and (row.proposal.created_by is None or row.proposal.created_by.id != agent.id):
            raise Forbidden(f"Only the person, or the agent that opened proposal #{number}, closes it.")
        if row.proposal.status != "open":
            raise not_open(row)
        await self.store.close(repo_id, number, data.reason, agent=agent)
        return await self.detail(repo_id, number)

    async def merge(self, repo_id: UUID, number: int, data: ProposalMerge, caller: Caller) -> ProposalDetail:
        """Save the merge of `from` into `into` as a merge Checkpoint on `into` and mark the
        proposal merged, in one transaction. The person only (the controller checks)."""
        _require_pinned(data)
        for _ in range(_ATTEMPTS):
            row = await self.store.get(repo_id, number)
            if row.proposal.status != "open":
                raise not_open(row)
            from_head, into_head = _heads(row, data)
            run = await self.merges.run_commits(into_head, from_head)
            if run.preview.relation == "up_to_date":
                raise Conflict(
                    f"Everything on {row.proposal.from_!r} is already in {row.proposal.into!r}: there is nothing "
                    "to merge. Close the proposal instead.",
                    field="from",
                )
            state = _state_to_save(run, data)
            try:
                await self._save(row, run, state, data, caller)
            except _Moved:
                continue
            return await self.detail(repo_id, number)
        raise Conflict(
            f"The lines of proposal #{number} kept moving while it was merged; nothing was written. Retry.",
            field="number",
            source="path",
        )

    async def _save(
        self, row: ProposalRow, run: MergeRun, state: MergeState, data: ProposalMerge, caller: Caller
    ) -> None:
        proposal = row.proposal
        assert row.into_branch_id is not None
        assert row.from_branch_id is not None  # `_heads` checked both
        preview = run.preview
        message = data.message or f"Merge proposal #{proposal.number}: {proposal.title}"
        # What the line's HEAD says about itself goes on, as a commit on top of it keeps it; how
        # that Checkpoint was made does not. The proposal it merges is recorded.
        metadata = {key: value for key, value in run.ours.metadata.items() if key not in PROVENANCE_KEYS}
        metadata["proposal"] = {"id": str(proposal.id), "number": proposal.number}
        async with self.pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(_LOCK_SPACE, proposal.repo_id) is None:
                raise NotFound(f"No Space with id {proposal.repo_id}.", field="repo_id", source="path")
            into = await conn.fetchrow(_LOCK_LINE, row.into_branch_id)
            await ProposalStore.lock_open(conn, proposal.repo_id, proposal.number)
            if into is None or into["head_commit_id"] != preview.ours_commit_id:
                raise _Moved
            if await _head(conn, row.from_branch_id) != preview.theirs_commit_id:
                raise _Moved
            saved = await self.checkpoints.commit(
                CommitCreate(
                    repo_id=proposal.repo_id,
                    branch=into["name"],
                    expected_head_commit_id=preview.ours_commit_id,
                    merge_parent_id=preview.theirs_commit_id,
                    message=message,
                    metadata=metadata,
                    **msgspec.structs.asdict(state),
                ),
                conn=conn,
            )
            merge_commit_id = UUID(msgspec.json.decode(saved)["id"])
            await ProposalStore.mark_merged(
                conn, proposal.repo_id, proposal.number, merge_commit_id, agent=caller.agent
            )

    async def _merge_of(self, row: ProposalRow) -> MergeRun | None:
        if row.from_head is None or row.into_head is None or row.from_head == row.into_head:
            return None
        return await self.merges.run_commits(row.into_head, row.from_head)


async def _head(conn: asyncpg.Connection, line_id: UUID) -> UUID | None:
    head: UUID | None = await conn.fetchval(_LINE_HEAD, line_id)
    return head


def _heads(row: ProposalRow, data: ProposalMerge) -> tuple[UUID, UUID]:
    """`from`'s and `into`'s HEADs now: 409 naming the line that was deleted or has no Checkpoint,
    or the expected HEAD that is not the line's."""
    proposal = row.proposal
    if row.from_branch_id is None:
        raise Conflict(
            f"The line {proposal.from_name!r} this proposal merges was deleted; it cannot be merged. Close it.",
            field="from",
        )
    if row.into_branch_id is None:
        raise Conflict(
            f"The line {proposal.into_name!r} this proposal merges into was deleted; it cannot be merged. Close it.",
            field="into",
        )
    if row.from_head is None:
        raise Conflict(f"Line {proposal.from_!r} has no Checkpoint yet: there is nothing to merge.", field="from")
    if row.into_head is None:
        raise Conflict(f"Line {proposal.into!r} has no Checkpoint yet: there is nothing to merge into.", field="into")
    for field, expected, head, line in (
        ("expected_from_head_commit_id", data.expected_from_head_commit_id, row.from_head, proposal.from_),
        ("expected_into_head_commit_id", data.expected_into_head_commit_id, row.into_head, proposal.into),
    ):
        if expected is not None and expected != head:
            raise Conflict(
                f"The HEAD of line {line!r} has moved: expected {expected}, but it is {head}. Nothing was "
                "written; read the proposal again and retry.",
                field=field,
            )
    if row.from_head == row.into_head:
        raise Conflict(
            f"Lines {proposal.from_!r} and {proposal.into!r} are at the same Checkpoint: there is nothing to merge.",
            field="from",
        )
    return row.from_head, row.into_head


def _require_pinned(data: ProposalMerge) -> None:
    """A resolved `merged` was made from two HEADs: without them, a `from` that moved since would
    be merged in name (its HEAD the merge parent) while what it added is missing from the saved
    state, an item dropped without anyone choosing to. So `merged` comes with both."""
    if data.merged is None:
        return
    for field, expected in (
        ("expected_from_head_commit_id", data.expected_from_head_commit_id),
        ("expected_into_head_commit_id", data.expected_into_head_commit_id),
    ):
        if expected is None:
            raise BadRequest(
                f"`merged` was resolved from two HEADs: send them as expected_from_head_commit_id and "
                f"expected_into_head_commit_id (the proposal's from_head_commit_id and into_head_commit_id "
                f"when it was read), so that a line that moved since is a 409, not a silent loss; {field} "
                "is missing.",
                field=field,
            )


def _state_to_save(run: MergeRun, data: ProposalMerge) -> MergeState:
    if data.merged is not None:
        return data.merged
    if run.preview.conflicts:
        raise BadRequest(
            f"The merge has {len(run.preview.conflicts)} conflict(s): send `merged`, the resolved whole state "
            "(the preview's `merged` with a choice made for each conflict).",
            field="merged",
        )
    return run.preview.merged
