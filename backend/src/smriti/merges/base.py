"""The merge base: the nearest common ancestors of two Checkpoints over both parent links.

The candidates are the common ancestors (over `parent_commit_id` and `merge_parent_id`) that no
other common ancestor descends from and that are no older than the first-parent fork point
(below). The newest is the base (by `created_at`, then by id, so the choice is the same every
time); the others are reported, for a criss-cross history. Found in the database, in one
statement:

1. The fork point: the nearest common ancestor over first parents, found by climbing both
   first-parent chains (`commits.depth` counts the first parents behind each Checkpoint) to the
   same depth and then together until they meet, over the jump links of migration 0007:
   O(log depth) steps, however far apart the two are. It is a common ancestor over both links
   too, so the base is no older than it. When it is one of the two, or neither side has a merge
   among its first parents since it (`commits.first_parent_merges` is the fork point's on both),
   it is the base and nothing else is read.
2. Otherwise both histories are painted from the two tips, newest Checkpoint first (git's "paint
   down to common"): each Checkpoint carries the sides that reach it; one reached from both is a
   candidate, and what lies below it is painted *stale* (a common ancestor that a candidate
   descends from is not one). The walk stops once nothing left to take, no older than the fork
   point, could still be reached from both sides without being stale. So it reads what is newer
   than the candidates, not the history behind them: two lines merged into each other every 500
   Checkpoints cost about the same at 1,000 Checkpoints and at 4,000 (the jump links' climbs grow
   with the logarithm of the depth).

Newest first is sound because a Checkpoint is always newer than its parents (it is written after
them, with the time read under its line's lock; an import refuses a bundle where it is not): when
one is taken, everything that reaches it has been taken before, so its paint is final.

The walk does not take a line one Checkpoint at a time. From each parent of the one taken, the
paint skips down that parent's first parents, over the jump links (`_run_end`), to the first
Checkpoint that matters: a merge (its second parent joins the walk), or the first that a queued
Checkpoint with other paint could reach. That one reaches a first-parent chain only where their
first-parent chains meet (their fork point) or through a merge link, which leads to Checkpoints
older than the newest merge among its own first parents (`_merge_at`); above both, nothing but
this paint can arrive. So a walk costs a few steps per merge it passes, not one per Checkpoint.

Each step checks that what it takes is older than the Checkpoint it came from. When it is not (a
clock stepped back, a row changed behind Smriti's back), newest first is no guide, and the same
candidates come from a plain walk over both links instead (`_EXHAUSTIVE_SQL`, linear in the
history): slower, never wrong. (An order broken inside a run the walk skips is not seen; the
walk still ends, since every step takes an older Checkpoint than the last.)
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from smriti.db.pool import Pool

# The paint: which tips reach a Checkpoint, and whether a candidate lies above it.
_OURS, _THEIRS, _BOTH, _STALE = 1, 2, 3, 4


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


def _fork_point(ours: str, theirs: str) -> str:
    """A scalar subquery: the id of the nearest common first-parent ancestor of two Checkpoints
    (NULL when their first parents lead to two different roots)."""
    return f"""(WITH RECURSIVE fork(o, od, t, td) AS (
        SELECT fork_ours.id, fork_ours.depth, fork_theirs.id, fork_theirs.depth
        FROM commits fork_ours, commits fork_theirs WHERE fork_ours.id = {ours} AND fork_theirs.id = {theirs}
        UNION ALL
        SELECT {_climb("o", "od", "oc", "td", "tc")},
               {_climb("t", "td", "tc", "od", "oc")}
        FROM fork
        -- One key lookup per side, as a lateral subquery that LIMIT keeps from being made a
        -- join: the working table is one row, and a join there may be planned as a hash over
        -- the whole table, scanned every step (it was, with the statistics of a few hundred
        -- Checkpoints). Two roots apart: the climb ends at depth 0 on both sides, with no fork
        -- point.
        CROSS JOIN LATERAL (SELECT parent_commit_id, jump_commit_id, jump_depth, jump_depth < fork.od AS ok
                            FROM commits WHERE id = fork.o LIMIT 1) oc
        CROSS JOIN LATERAL (SELECT parent_commit_id, jump_commit_id, jump_depth, jump_depth < fork.td AS ok
                            FROM commits WHERE id = fork.t LIMIT 1) tc
        WHERE o <> t AND od + td > 0
    ) SELECT o FROM fork WHERE o = t LIMIT 1)"""


# Older than every Checkpoint: no bound.
_BEFORE_ALL = "'-infinity'::timestamptz"

_RUN_COLUMNS = (
    "id, depth, parent_commit_id, jump_commit_id, jump_depth, first_parent_merges, merge_parent_id, created_at"
)


def _run_end(start: str, bound: str) -> str:
    """A subquery for a lateral join: (id, depth, created_at, merge_parent_id) of the newest among
    `start` and its first parents that is a merge or no newer than `bound`; no row when the chain
    ends first. The Checkpoints above it form a run: no merge among them (`first_parent_merges`
    does not change, and none has a second parent), all newer than `bound`. Each step takes the
    jump link when its target is still in the run, else the parent: O(log depth) steps."""

    def in_run(row: str, run_merges: str) -> str:
        return (
            f"{row}.merge_parent_id IS NULL AND {row}.first_parent_merges = {run_merges} AND {row}.created_at > {bound}"
        )

    # The names inside are the run's own, so that `start` and `bound` cannot name one of them.
    return f"""(WITH RECURSIVE run({_RUN_COLUMNS}, in_run) AS (
        SELECT {_RUN_COLUMNS}, {in_run("run_start", "run_start.first_parent_merges")}
        FROM commits run_start WHERE run_start.id = {start}
        UNION ALL
        SELECT run_next.*, {in_run("run_next", "run.first_parent_merges")}
        FROM run CROSS JOIN LATERAL (
            -- Only a jump that goes back is taken (a changed row could name itself).
            SELECT {_RUN_COLUMNS} FROM commits run_jump
            WHERE run_jump.id = run.jump_commit_id AND run.jump_depth < run.depth
              AND {in_run("run_jump", "run.first_parent_merges")}
            UNION ALL
            SELECT {_RUN_COLUMNS} FROM commits run_parent WHERE run_parent.id = run.parent_commit_id
            LIMIT 1
        ) run_next
        WHERE run.in_run
    ) SELECT id, depth, created_at, merge_parent_id FROM run WHERE NOT in_run)"""


def _merge_at(node: str) -> str:
    """A scalar subquery: when the newest merge among `node` and its first parents was made
    (NULL when there is none). Whatever `node` reaches through a merge link is older."""
    return f"(SELECT created_at FROM {_run_end(node, _BEFORE_ALL)} newest_merge)"


# The queue of the walk, one row per painted Checkpoint not yet taken (`kind` 'q'), plus a row
# per candidate found ('r') and per parent found not older than its child ('x'). Each level of the
# recursion is the whole queue after one Checkpoint is taken, and carries, made by window
# functions over the level, what the next step needs: which row is taken (the newest), the paint
# of its Checkpoint (the same Checkpoint may be queued twice, by two paths), whether the walk goes
# on, and, on the taken row only (a copy on every row would grow with the square of the queue),
# the queue as arrays.
def _level(row: str) -> str:
    newest_first = f"ORDER BY {row}.kind = 'q' DESC, {row}.created_at DESC, {row}.id DESC"
    is_taken = f"{row}.kind = 'q' AND row_number() OVER ({newest_first}) = 1"
    live = f"FILTER (WHERE {row}.kind = 'q' AND {row}.flags & {_STALE} = 0 AND {row}.created_at >= walk.cutoff)"
    queued = ",\n".join(
        f"CASE WHEN {is_taken} THEN array_agg({row}.{column}) FILTER (WHERE {row}.kind = 'q') OVER () END"
        for column in ("id", "depth", "flags")
    )
    return f"""{row}.id, {row}.depth, {row}.created_at, {row}.flags, {row}.kind, {is_taken},
first_value({row}.id) OVER ({newest_first}),
bit_or({row}.flags) OVER (PARTITION BY {row}.kind, {row}.id),
CASE WHEN bool_or({row}.kind = 'x') OVER () THEN 0 ELSE coalesce(bit_or({row}.flags) {live} OVER (), 0) END,
{queued}"""


# The paint of what the taken Checkpoint leads to: its own, and stale below a candidate.
_PASSED_ON = f"(taken.paint | CASE WHEN taken.paint = {_BOTH} THEN {_STALE} ELSE 0 END)"

# The others in the queue whose paint differs from what the taken Checkpoint passes on: only
# they can bring something new to its first-parent chain.
_OTHERS = "unnest(taken.queued_ids, taken.queued_depths, taken.queued_flags) AS other(id, depth, flags)"
_IS_OTHER = f"other.id <> taken.id AND other.flags <> {_PASSED_ON}"

_MERGE_BASE_SQL = f"""
WITH RECURSIVE fork_point AS (
    SELECT id, created_at, first_parent_merges FROM commits WHERE id = {_fork_point("$1::uuid", "$2::uuid")}
),
walk AS (
    -- Past the fork point only when it is neither side and a side has merged since it.
    SELECT NOT EXISTS (SELECT 1 FROM fork_point) OR (
               NOT EXISTS (SELECT 1 FROM fork_point WHERE id IN ($1, $2)) AND EXISTS (
                   SELECT 1 FROM commits side, fork_point
                   WHERE side.id IN ($1, $2) AND side.first_parent_merges > fork_point.first_parent_merges)
           ) AS needed,
           coalesce((SELECT created_at FROM fork_point), {_BEFORE_ALL}) AS cutoff
),
queue(id, depth, created_at, flags, kind, taken, taken_id, paint, live, queued_ids, queued_depths, queued_flags) AS (
    SELECT {_level("tip")}
    FROM walk CROSS JOIN LATERAL (
        SELECT c.id, c.depth, c.created_at, CASE WHEN c.id = $1 THEN {_OURS} ELSE {_THEIRS} END AS flags, 'q' AS kind
        FROM commits c WHERE c.id IN ($1, $2) AND walk.needed
    ) tip
    UNION ALL
    SELECT {_level("next")}
    FROM queue taken CROSS JOIN walk CROSS JOIN LATERAL (
        -- Every other Checkpoint in the queue stays (another copy of the taken one goes).
        SELECT taken.id, taken.depth, taken.created_at, taken.flags, 'q' AS kind WHERE taken.id <> taken.taken_id
        UNION ALL
        SELECT taken.id, taken.depth, taken.created_at, 0, 'r' WHERE taken.taken AND taken.paint = {_BOTH}
        UNION ALL
        SELECT pushed.id, pushed.depth, pushed.created_at, {_PASSED_ON},
               CASE WHEN pushed.created_at < taken.created_at THEN 'q' ELSE 'x' END
        FROM commits here
        -- Another queued Checkpoint with other paint reaches a first-parent chain only through
        -- a merge link, older than its newest merge, or at or below their fork point. So from
        -- each parent, the paint skips down that parent's first parents to the first
        -- Checkpoint either could reach, or to a merge: first the run's end by the merges, then
        -- the fork points above it, if any (a fork point is no deeper than the other, so only
        -- the others deeper than the end need the climb).
        CROSS JOIN LATERAL (
            SELECT coalesce(max({_merge_at("other.id")}), {_BEFORE_ALL}) AS merge_bound
            FROM {_OTHERS} WHERE {_IS_OTHER}
        ) others
        CROSS JOIN LATERAL unnest(ARRAY[here.parent_commit_id, here.merge_parent_id]) AS link(start)
        LEFT JOIN LATERAL {_run_end("link.start", "others.merge_bound")} run_end ON true
        CROSS JOIN LATERAL (
            SELECT run_end.id, run_end.depth, run_end.created_at WHERE run_end.id IS NOT NULL
            UNION ALL
            SELECT fork.id, fork.depth, fork.created_at
            FROM {_OTHERS}
            -- A key lookup, kept one by LIMIT (a subquery without it is made a join, which was
            -- planned as a hash over the whole table: 35 ms a preview at 9,000 Checkpoints).
            CROSS JOIN LATERAL (
                SELECT id, depth, created_at FROM commits WHERE id = {_fork_point("link.start", "other.id")} LIMIT 1
            ) fork
            WHERE {_IS_OTHER} AND other.depth > coalesce(run_end.depth, -1) AND fork.depth > coalesce(run_end.depth, -1)
            ORDER BY depth DESC LIMIT 1
        ) pushed
        WHERE taken.taken AND here.id = taken.id AND pushed.created_at >= walk.cutoff
    ) next
    WHERE taken.kind = 'q' AND taken.live = {_BOTH}
)
SELECT id, created_at, kind = 'x' AS out_of_order FROM queue WHERE kind IN ('r', 'x')
UNION ALL
SELECT id, created_at, false FROM fork_point WHERE NOT (SELECT needed FROM walk)
ORDER BY created_at DESC, id DESC
"""

# The same candidates by a plain walk over both links, for a history whose times are out of
# order: every common ancestor, those no other common one descends from, no older than the fork
# point. Linear in the two histories; used only when the walk above finds a parent not older
# than its child.
_EXHAUSTIVE_SQL = f"""
WITH RECURSIVE reached(id, side) AS (
    SELECT $1::uuid, {_OURS} UNION SELECT $2::uuid, {_THEIRS}
    UNION
    SELECT link.parent_id, reached.side
    FROM reached
    CROSS JOIN LATERAL unnest(
        (SELECT ARRAY[parent_commit_id, merge_parent_id] FROM commits WHERE id = reached.id)
    ) AS link(parent_id)
    WHERE link.parent_id IS NOT NULL
),
common AS (
    -- Each row looked up by its key (LIMIT keeps the lookup from being made a join, which may be
    -- planned as a scan of the whole table).
    SELECT row.* FROM (SELECT id FROM reached GROUP BY id HAVING count(*) = 2) found
    CROSS JOIN LATERAL (
        SELECT id, created_at, parent_commit_id, merge_parent_id FROM commits WHERE id = found.id LIMIT 1
    ) row
)
SELECT id, created_at FROM common
WHERE id NOT IN (
    SELECT link.parent_id FROM common, unnest(ARRAY[parent_commit_id, merge_parent_id]) AS link(parent_id)
    WHERE link.parent_id IS NOT NULL
) AND created_at >= coalesce(
    (SELECT created_at FROM commits WHERE id = {_fork_point("$1::uuid", "$2::uuid")}), {_BEFORE_ALL})
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
    if any(row["out_of_order"] for row in rows):
        rows = await pool.fetch(_EXHAUSTIVE_SQL, ours_id, theirs_id)
    candidates = [row["id"] for row in rows]
    return MergeBase(candidates[0] if candidates else None, candidates)
