"""The merge base: the nearest common ancestor of two Checkpoints over both parent links.

Found in the database, in one statement, walking only as far as the two are apart:

1. `fork`: the nearest common ancestor over first parents, by climbing both first-parent chains
   (`commits.depth` counts the first parents behind each Checkpoint) to the same depth and then
   together until they meet, over the jump links of migration 0007: O(log depth) steps, however
   far apart the two are. It is a common ancestor over both links too.
2. `reached`: every Checkpoint reachable from either side over both links (`parent_commit_id`,
   `merge_parent_id`) that is no older than the fork point. A better base than the fork point
   is newer than it (a descendant of it would be), so nothing older needs to be looked at; with
   no fork point (two first-parent roots), the whole ancestry is. Only a merge can lead to a
   better base, so when neither side has a merge among its first parents since the fork point
   (`commits.first_parent_merges` is the fork point's on both), this walk is skipped and the
   fork point is the base.
3. The common ones with no common child are the candidates (the set is closed under "parent of",
   down to the fork point's age, so one look at the links decides). The newest wins (by
   `created_at`, a Checkpoint is always newer than its parents; then by id, so the choice is
   the same every time); the others are reported, for a criss-cross history.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from smriti.db.pool import Pool


def _climb(side: str, depth: str, row: str, other_depth: str, other_row: str) -> str:
    """One side's next (id, depth) in the fork climb: the deeper side climbs to the other's
    depth, by its jump link when that does not overshoot; at one depth, both take their jump
    links while those differ (the fork point is further back), else both their parents. Only a
    jump that goes back is taken (`ok`: a changed row could name itself, which would never end
    the climb)."""
    jump = (
        f"CASE WHEN {depth} > {other_depth} THEN {row}.ok AND {row}.jump_depth >= {other_depth} "
        f"ELSE {row}.ok AND {other_row}.ok AND {row}.jump_commit_id <> {other_row}.jump_commit_id END"
    )
    return f"""CASE WHEN {depth} < {other_depth} THEN {side} WHEN {jump} THEN {row}.jump_commit_id
                ELSE {row}.parent_commit_id END,
           CASE WHEN {depth} < {other_depth} THEN {depth} WHEN {jump} THEN {row}.jump_depth ELSE {depth} - 1 END"""


_MERGE_BASE_SQL = f"""
WITH RECURSIVE fork(o, od, t, td) AS (
    SELECT o.id, o.depth, t.id, t.depth FROM commits o, commits t WHERE o.id = $1 AND t.id = $2
    UNION ALL
    SELECT {_climb("o", "od", "oc", "td", "tc")},
           {_climb("t", "td", "tc", "od", "oc")}
    FROM fork
    -- One key lookup per side, as a lateral subquery: the working table is one row, and a join
    -- there may be planned as a hash over the whole table, scanned every step. Two roots apart:
    -- the climb ends at depth 0 on both sides, with no fork point.
    CROSS JOIN LATERAL (SELECT parent_commit_id, jump_commit_id, jump_depth, jump_depth < fork.od AS ok
                        FROM commits WHERE id = fork.o) oc
    CROSS JOIN LATERAL (SELECT parent_commit_id, jump_commit_id, jump_depth, jump_depth < fork.td AS ok
                        FROM commits WHERE id = fork.t) tc
    WHERE o <> t AND od + td > 0
),
fork_point AS (
    SELECT c.id, c.created_at, c.first_parent_merges FROM fork JOIN commits c ON c.id = fork.o
    WHERE fork.o = fork.t LIMIT 1
),
walk AS (
    -- Past first parents only when a side has merged something since the fork point.
    SELECT NOT EXISTS (SELECT 1 FROM fork_point) OR EXISTS (
        SELECT 1 FROM commits side, fork_point
        WHERE side.id IN ($1, $2) AND side.first_parent_merges > fork_point.first_parent_merges
    ) AS needed
),
reached(id, side) AS (
    SELECT $1::uuid, 1 FROM walk WHERE needed UNION SELECT $2::uuid, 2 FROM walk WHERE needed
    UNION
    SELECT p.id, reached.side
    FROM reached
    -- Both links by one key lookup, as a scalar subquery: the working table is a row or two per
    -- step, and a join there may be planned as a hash over the whole table, scanned every step.
    CROSS JOIN LATERAL unnest(
        (SELECT ARRAY[parent_commit_id, merge_parent_id] FROM commits WHERE id = reached.id)
    ) AS link(parent_id)
    JOIN commits p ON p.id = link.parent_id
    WHERE p.created_at >= coalesce((SELECT created_at FROM fork_point), '-infinity'::timestamptz)
),
common AS (
    SELECT id FROM reached GROUP BY id HAVING count(DISTINCT side) = 2
)
SELECT c.id, c.created_at
FROM common JOIN commits c ON c.id = common.id
WHERE NOT EXISTS (
    SELECT 1 FROM common child JOIN commits k ON k.id = child.id
    WHERE c.id IN (k.parent_commit_id, k.merge_parent_id)
)
UNION ALL
SELECT id, created_at FROM fork_point WHERE NOT (SELECT needed FROM walk)
ORDER BY created_at DESC, id DESC
"""


@dataclass(frozen=True, slots=True)
class MergeBase:
    base_id: UUID | None
    """The base used; None when the two have no common ancestor (the base is then empty)."""
    candidates: list[UUID]
    """Every nearest common ancestor, the one used first; more than one in a criss-cross history."""


async def merge_base(pool: Pool, ours_id: UUID, theirs_id: UUID) -> MergeBase:
    rows = await pool.fetch(_MERGE_BASE_SQL, ours_id, theirs_id)
    candidates = [row["id"] for row in rows]
    return MergeBase(candidates[0] if candidates else None, candidates)
