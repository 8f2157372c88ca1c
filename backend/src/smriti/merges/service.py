"""Merge preview: resolve both sides, find the base, merge three-way. Nothing is written; the
merge Checkpoint is an ordinary commit with `merge_parent_id` (`checkpoints/writes.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

import asyncpg
import msgspec

from smriti.checkpoints.commit_sql import COLUMNS
from smriti.checkpoints.schemas import Checkpoint
from smriti.checkpoints.store import CheckpointStore, to_checkpoint
from smriti.core.cpu import off_loop
from smriti.core.errors import BadRequest, NotFound, no_line
from smriti.core.ids import could_be_checkpoint_ref
from smriti.core.lru import SizedLru
from smriti.core.schemas import line_lookup_key
from smriti.db.pool import Pool
from smriti.merges.base import merge_base
from smriti.merges.rivals import merge_rivals
from smriti.merges.schemas import ConflictingItem, MergePreview, MergeRelation
from smriti.merges.three_way import MergeConflict, merge_states, state_of
from smriti.review.schemas import RivalChoice

_LINE_HEAD_SQL = """
SELECT r.id AS space, b.name, b.id IS NOT NULL AS found, b.head_commit_id
FROM repos r LEFT JOIN branches b ON b.repo_id = r.id AND b.name_key = $2 WHERE r.id = $1
"""

# Above this many items on a side, the merge runs off the event loop (`core/cpu.py`).
_ITEMS_ON_LOOP = 2_000

Rivals = tuple[list[RivalChoice], list[str]]
# The search for rival choices, by the two Checkpoints merged: it compares the merged decisions in
# pairs (~200 ms of CPU for two 1,000-item states, against ~3 ms for the rest of a preview), and
# its answer for two given Checkpoints never changes (neither they nor their history can). A
# proposal's page and a merge preview are read again and again while a person looks at them.
# Counted in pairs found (a few hundred bytes each), plus one per entry.
_KEPT_RIVALS = 20_000


def _rivals_size(rivals: Rivals) -> int:
    return 1 + len(rivals[0]) + len(rivals[1])


@dataclass(frozen=True, slots=True)
class MergeRun:
    preview: MergePreview
    ours: Checkpoint
    theirs: Checkpoint


@dataclass(frozen=True, slots=True)
class MergeService:
    pool: Pool
    checkpoints: CheckpointStore
    _rivals: SizedLru[tuple[UUID, UUID], Rivals] = field(default_factory=lambda: SizedLru(_KEPT_RIVALS, _rivals_size))

    async def preview(self, repo_id: UUID, ours_ref: str, theirs_ref: str) -> MergePreview:
        return (await self.run(repo_id, ours_ref, theirs_ref)).preview

    async def run(self, repo_id: UUID, ours_ref: str, theirs_ref: str) -> MergeRun:
        """The preview, and the two sides it merged (the review of a merge reads them too)."""
        ours_id = await self._side(repo_id, ours_ref, "ours")
        theirs_id = await self._side(repo_id, theirs_ref, "theirs")
        if ours_id == theirs_id:
            raise BadRequest(
                f"ours and theirs are the same Checkpoint ({ours_id}): a line merged into itself changes nothing.",
                field="theirs",
                source="query",
            )
        return await self.run_commits(ours_id, theirs_id)

    async def run_commits(self, ours_id: UUID, theirs_id: UUID) -> MergeRun:
        """The merge of two different Checkpoints of one Space, named by id (a proposal's lines'
        HEADs, `proposals/service.py`: looked up by line id, not by a name a rename could change)."""
        base = await merge_base(self.pool, ours_id, theirs_id)
        ids = [ours_id, theirs_id] + ([base.base_id] if base.base_id is not None else [])
        rows = {
            row["id"]: row for row in await self.pool.fetch(f"SELECT {COLUMNS} FROM commits WHERE id = ANY($1)", ids)
        }
        ours, theirs = to_checkpoint(rows[ours_id]), to_checkpoint(rows[theirs_id])
        base_state = state_of(to_checkpoint(rows[base.base_id]) if base.base_id is not None else None)
        ours_state, theirs_state = state_of(ours), state_of(theirs)
        size = max(_items(rows[ours_id]), _items(rows[theirs_id]))
        outcome = (
            merge_states(base_state, ours_state, theirs_state)
            if size <= _ITEMS_ON_LOOP
            else await off_loop(lambda: merge_states(base_state, ours_state, theirs_state))
        )
        relation: MergeRelation = (
            "up_to_date" if base.base_id == theirs_id else "fast_forward" if base.base_id == ours_id else "diverged"
        )
        # Reads every merged decision and assumption, compares them in pairs: off the event loop.
        found: Rivals | None = ([], []) if relation != "diverged" else self._rivals.get((ours_id, theirs_id))
        if found is None:
            found = await off_loop(lambda: merge_rivals(outcome.merged, ours_state, theirs_state))
            self._rivals.put((ours_id, theirs_id), found)
        rivals, limits = found
        preview = MergePreview(
            base_commit_id=base.base_id,
            base_candidates=base.candidates,
            ours_commit_id=ours_id,
            theirs_commit_id=theirs_id,
            relation=relation,
            merged=outcome.merged,
            conflicts=[conflicting_item(conflict) for conflict in outcome.conflicts],
            clean=not outcome.conflicts,
            rivals=rivals,
            limits=limits,
        )
        return MergeRun(preview, ours, theirs)

    async def _side(self, repo_id: UUID, ref: str, param: str) -> UUID:
        """A side of the merge: a line's HEAD when a line has that name, else a Checkpoint ref."""
        key = line_lookup_key(ref)
        line = await self.pool.fetchrow(_LINE_HEAD_SQL, repo_id, key) if key is not None else None
        if key is not None and line is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        if line is not None and line["found"]:
            if line["head_commit_id"] is None:
                raise BadRequest(
                    f"Line {line['name']!r} has no Checkpoint yet: there is nothing to merge.",
                    field=param,
                    source="query",
                )
            head: UUID = line["head_commit_id"]
            return head
        if not could_be_checkpoint_ref(ref):
            raise no_line(ref, field=param, source="query")
        try:
            row = await self.checkpoints.resolve(ref, repo_id=repo_id, field=param, columns="id")
        except NotFound:
            raise NotFound(
                f"This Space has no line and no Checkpoint named {ref.strip()[:120]!r}.", field=param, source="query"
            ) from None
        except BadRequest as exc:
            raise BadRequest(exc.detail, field=param, source="query") from None
        commit_id: UUID = row["id"]
        if key is None:  # a ref no line could be named: the Space was not looked up yet
            await self._space_exists(repo_id)
        return commit_id

    async def _space_exists(self, repo_id: UUID) -> None:
        if await self.pool.fetchval("SELECT 1 FROM repos WHERE id = $1", repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")


def _items(row: asyncpg.Record) -> int:
    return sum(
        len(row[name]) for name in ("decisions", "assumptions", "tasks", "open_questions", "entities", "artifacts")
    )


def conflicting_item(conflict: MergeConflict) -> ConflictingItem:
    """A conflict as the API sends it: each side's task, entity or artifact as a plain object."""
    plain = msgspec.to_builtins
    return ConflictingItem(
        field=conflict.field,
        key=conflict.key,
        occurrence=conflict.occurrence,
        base=plain(conflict.base),
        ours=plain(conflict.ours),
        theirs=plain(conflict.theirs),
    )
