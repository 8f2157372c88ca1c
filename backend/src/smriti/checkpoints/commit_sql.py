"""The statements that write Checkpoints (`writes.py` sends them).

One commit is one statement: the line's row locked, the parent or expected HEAD checked, the
Checkpoint inserted with its chain hash, the line's HEAD moved (and the Space's, for its default
line), and its `checkpoint.created` event written. The last SELECT of each says why nothing was
written, when nothing was.
"""

from __future__ import annotations

from smriti.checkpoints.hashing import CONTENT_FIELDS, chain_hash_sql
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS
from smriti.events.record import PERSON_NAME

COLUMNS = ", ".join(CHECKPOINT_FIELDS)

# The content columns other than message and summary (text) are JSONB: they get the encoded bytes.
JSONB_FIELDS = tuple(name for name in CONTENT_FIELDS if name not in {"message", "summary"})

# Both statements end alike: the line's HEAD moves to each inserted Checkpoint, under the line's
# row lock taken first, and so does the Space's copy of HEAD when that line is the default.
_MOVE_HEAD = """moved AS (
    UPDATE branches SET head_commit_id = inserted.id, head_commit_hash = inserted.commit_hash,
                        head_depth = inserted.depth, head_jumps = links.jumps,
                        head_jump_depths = links.jump_depths, head_merges = links.merges,
                        updated_at = inserted.created_at, commit_count = commit_count + 1
    FROM inserted JOIN plan ON plan.new_id = inserted.id JOIN links ON links.new_id = inserted.id
    WHERE branches.id = plan.line_id
),
space_moved AS (
    UPDATE repos SET head_commit_id = inserted.id, head_commit_hash = inserted.commit_hash,
                     updated_at = inserted.created_at
    FROM inserted JOIN plan ON plan.new_id = inserted.id WHERE plan.is_default AND repos.id = inserted.repo_id
),
"""

# The person's commits name no agent: the actor is written into their statements, not sent.
PERSON_ACTOR = f"NULL::uuid, '{PERSON_NAME}'"


def _recorded(*, actor: str, merge_parent: str, message: str) -> str:
    """`recorded`: each inserted Checkpoint's `checkpoint.created` event (SYSTEM.md §14), written
    by the statement that writes the Checkpoint, so it commits or rolls back with it and costs no
    round trip of its own. Written under the line's row lock, its `seq` follows the line's commit
    order (`events/sequencer.py`). `actor` is the two actor columns (`events.record.actor_columns`)."""
    return f"""recorded AS (
    INSERT INTO events (repo_id, type, actor_agent_id, actor_name, data)
    SELECT inserted.repo_id, 'checkpoint.created', {actor},
           jsonb_build_object('commit_id', inserted.id, 'commit_hash', inserted.commit_hash,
                              'branch', plan.line_name, 'parent_commit_id', inserted.parent_commit_id,
                              'merge_parent_id', {merge_parent}, 'message', {message})
    FROM inserted JOIN plan ON plan.new_id = inserted.id
)
"""


# A Checkpoint's jump links and merge count (migration 0007) are made from its parent's: the
# parent's chain of jumps (its jump, that one's jump, ... to the root; O(log depth) long) and
# merge count. For a commit on the line's HEAD they are read from the locked line row, which
# keeps HEAD's, as it keeps HEAD's hash and depth (a CHECK holds every line with a HEAD to it): a
# commit that waited for the line's lock has a snapshot from before the HEAD it waited for, and
# would not see that Checkpoint's row. A named parent is visible (the client read it), and so are
# its ancestors: its chain is looked up, by PARENT_CHAIN, from the row `p`.
PARENT_CHAIN = """
    SELECT coalesce(array_agg(up.id ORDER BY up.depth DESC), '{}') AS ids,
           coalesce(array_agg(up.depth ORDER BY up.depth DESC), '{}') AS depths
    FROM (WITH RECURSIVE up(id, depth, jump) AS (
              SELECT j.id, j.depth, j.jump_commit_id FROM commits j
              WHERE j.id = p.jump_commit_id AND p.jump_commit_id <> p.id
              UNION ALL
              SELECT c.id, c.depth, c.jump_commit_id FROM up JOIN commits c ON c.id = up.jump WHERE up.jump <> up.id
          ) SELECT id, depth FROM up) up"""

# `parent_links`, one row per row of `plan` by `new_id`: the parent's chain and merge count.
# Kept on the line (HEAD's; NULL on a line without a HEAD) or looked up (a named parent's).
_KEPT_LINKS = (
    "SELECT plan.new_id, plan.kept_jumps AS ids, plan.kept_jump_depths AS depths, plan.kept_merges AS merges FROM plan"
)
_LOOKED_UP_LINKS = f"""SELECT plan.new_id, chain.ids, chain.depths, p.first_parent_merges AS merges
    FROM plan LEFT JOIN commits p ON p.id = plan.parent_id CROSS JOIN LATERAL ({PARENT_CHAIN}) chain"""


def _links(parent_links: str, is_merge: str) -> str:
    """`parent_links` and `links`: the new Checkpoint's chain is its parent followed by the
    parent's chain or, when the parent's first two jumps span alike, the parent's chain without
    its first; its jump is the chain's first (a root's is itself)."""
    skew = "cardinality(pl.ids) >= 2 AND plan.parent_depth - pl.depths[1] = pl.depths[1] - pl.depths[2]"
    return f"""parent_links AS (
    {parent_links}
),
links AS (
    SELECT plan.new_id,
           CASE WHEN plan.parent_id IS NULL THEN '{{}}'::uuid[] WHEN {skew} THEN pl.ids[2:]
                ELSE plan.parent_id || pl.ids END AS jumps,
           CASE WHEN plan.parent_id IS NULL THEN '{{}}'::int[] WHEN {skew} THEN pl.depths[2:]
                ELSE plan.parent_depth || pl.depths END AS jump_depths,
           coalesce(pl.merges, 0) + {is_merge} AS merges
    FROM plan JOIN parent_links pl ON pl.new_id = plan.new_id
)"""


# The derived columns of the inserted row, from `plan` and `links`.
_LINK_VALUES = "coalesce(links.jumps[1], plan.new_id), coalesce(links.jump_depths[1], 0), links.merges"

# What a commit inserts: the content and hash, the derived links, and the line whose HEAD the
# Checkpoint becomes (`branch_id`, migration 0016: a Session's `last_saved` names that line).
_INSERTED_COLUMNS = f"{COLUMNS}, depth, jump_commit_id, jump_depth, first_parent_merges, branch_id"


# How a commit finds its line: by its name's key ($16, `core.text.line_key`), or the Space's default.
_NAMED_LINE = "b.name_key = $16::text"
_DEFAULT_LINE = "b.is_default AND $16::text IS NULL"


def _commit_sql(line_condition: str, *, merge: bool, on_parent: bool, agent: bool) -> str:
    """One commit. The Space's row is share-locked first (as a Space being deleted locks it),
    then the line's row is locked: commits to one line serialise, commits to other lines do not
    wait for them, and `now` is read once the line's lock is held, so created_at follows the
    line's commit order.

    The parent is the line's HEAD or, `on_parent`, the Checkpoint $2 names. A merge ($17,
    `merge_parent_id`) also reads its second parent, which must be a Checkpoint of the Space other
    than the first, and chains its hash in too (`hashing.chain_hash`).

    An `agent`'s commit also reads the line's `protected` from the locked row and writes nothing
    to a protected line: read under the lock, so a commit that waited for a person protecting the
    line sees it protected, and one the protect waited for landed before the protect returned.
    The person's statements do not read it at all."""
    if on_parent:
        parent_cte = "named_parent AS (\n    SELECT id, repo_id, commit_hash, depth FROM commits WHERE id = $2\n),\n"
        parent_join = " LEFT JOIN named_parent ON true"
        parent_columns = """named_parent.id AS parent_id, named_parent.commit_hash AS parent_hash,
           named_parent.depth AS parent_depth, named_parent.id IS NULL AS parent_missing,
           named_parent.repo_id IS DISTINCT FROM space.id AS parent_foreign"""
        parent_links = _LOOKED_UP_LINKS
    else:
        parent_cte = parent_join = ""
        # $2 is NULL: `commit_statement` gives a commit that names its parent the other statement.
        parent_columns = """line.head_commit_id AS parent_id, line.head_commit_hash AS parent_hash,
           line.head_depth AS parent_depth, $2::uuid IS NOT NULL AS parent_missing, false AS parent_foreign,
           line.head_jumps AS kept_jumps, line.head_jump_depths AS kept_jump_depths,
           line.head_merges AS kept_merges"""
        parent_links = _KEPT_LINKS
    if merge:
        merge_cte = "merge_parent AS (SELECT id, repo_id, commit_hash FROM commits WHERE id = $17),\n"
        merge_join = " LEFT JOIN merge_parent ON true"
        merge_checks = (
            ",\n           merge_parent.id IS NULL AS merge_missing,"
            "\n           merge_parent.repo_id IS DISTINCT FROM space.id AS merge_foreign,"
            "\n           merge_parent.commit_hash AS merge_parent_hash"
        )
        merge_refusals = " OR merge_missing OR merge_foreign OR plan.parent_id IS NOT DISTINCT FROM $17::uuid"
        merge_value, merge_hash = "$17::uuid", "merge_parent_hash"
        merge_outcome = "plan.merge_missing, plan.merge_foreign, plan.parent_id = $17::uuid AS merge_is_parent,"
    else:
        merge_cte = merge_join = merge_checks = merge_refusals = merge_outcome = ""
        merge_value, merge_hash = "NULL::uuid", None
    if agent:
        protected_column, protected_plan = ", b.protected", ", coalesce(line.protected, false) AS line_protected"
        protected_refusal, protected_outcome = " OR line_protected", " plan.line_protected,"
        # The agent's id and name follow the other parameters (`writes.PendingCommit.arguments`).
        first = 18 if merge else 17
        actor = f"${first}::uuid, ${first + 1}::text"
    else:
        protected_column = protected_plan = protected_refusal = protected_outcome = ""
        actor = PERSON_ACTOR
    recorded = _recorded(actor=actor, merge_parent=merge_value, message="$7::text")
    return f"""
WITH space AS (
    SELECT id FROM repos WHERE id = $1 FOR KEY SHARE
),
line AS (
    SELECT b.id, b.name, b.is_default, b.head_commit_id, b.head_commit_hash, b.head_depth,
           b.head_jumps, b.head_jump_depths, b.head_merges, clock_timestamp() AS now{protected_column}
    FROM branches b JOIN space ON b.repo_id = space.id WHERE {line_condition} FOR UPDATE OF b
),
{parent_cte}{merge_cte}plan AS (
    SELECT space.id AS repo_id, $5::uuid AS new_id, line.id AS line_id, line.name AS line_name, line.is_default,
           line.now, line.head_commit_id, line.id IS NULL AS line_missing,
           $3::bool AND line.head_commit_id IS DISTINCT FROM $4::uuid AS head_moved,
           {parent_columns}{merge_checks}{protected_plan}
    FROM space LEFT JOIN line ON true{parent_join}{merge_join}
),
{_links(parent_links, "1" if merge else "0")},
inserted AS (
    INSERT INTO commits ({_INSERTED_COLUMNS})
    SELECT $5, plan.repo_id, plan.parent_id, {merge_value},
           {chain_hash_sql("$6::text", "now", "$5::uuid", "parent_hash", "plan.repo_id", merge_hash)},
           $7, $8, $9, $10, $11, $12, $13, $14, $15, now, coalesce(plan.parent_depth + 1, 0), {_LINK_VALUES},
           plan.line_id
    FROM plan JOIN links ON links.new_id = plan.new_id
    WHERE NOT (line_missing OR parent_missing OR parent_foreign OR head_moved{merge_refusals}{protected_refusal})
    RETURNING id, repo_id, parent_commit_id, commit_hash, depth, created_at
),
{_MOVE_HEAD}{recorded}SELECT plan.head_commit_id AS current_head, plan.line_name, plan.line_missing,
       plan.parent_missing, plan.parent_foreign, plan.head_moved, {merge_outcome}{protected_outcome}
       inserted.id, inserted.parent_commit_id, inserted.commit_hash, inserted.created_at
FROM plan LEFT JOIN inserted ON true
"""


_STATEMENTS = {
    (to_line, merge, on_parent, agent): _commit_sql(
        _NAMED_LINE if to_line else _DEFAULT_LINE, merge=merge, on_parent=on_parent, agent=agent
    )
    for to_line in (False, True)
    for merge in (False, True)
    for on_parent in (False, True)
    for agent in (False, True)
}


def commit_statement(*, to_line: bool, merge: bool, on_parent: bool, agent: bool = False) -> str:
    """The statement for one commit: to a named line or the default one, a merge or not, on a
    named parent or on the line's HEAD (each its own statement, so that the common one, on HEAD,
    plans no lookup it would not run), by an agent (which a protected line refuses) or not."""
    return _STATEMENTS[(to_line, merge, on_parent, agent)]


# The same, for commits to distinct lines, one array element each (never a merge: a merge is
# written alone). Spaces and lines whose rows another transaction has locked are skipped, not
# waited for, and so is every commit after the first to one line (a line named and the same
# line as the default): `busy`, written alone by the caller, which also gives the exact reason
# for a commit that found no Space or no line. Only the person's commits are grouped (an agent's
# has its own statement, `writes.CommitWriter.write`), so every event it writes names the person.
_GROUP_RECORDED = _recorded(actor=PERSON_ACTOR, merge_parent="NULL::uuid", message="plan.message")
GROUP_COMMIT_SQL = f"""
WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bool[], $4::uuid[], $5::uuid[], $6::text[], $7::text[],
                         $8::text[], $9::jsonb[], $10::jsonb[], $11::jsonb[], $12::jsonb[], $13::jsonb[],
                         $14::jsonb[], $15::jsonb[], $16::text[])
        WITH ORDINALITY AS i(repo_id, named_parent_id, check_head, expected_head, new_id, sha256, message,
                             summary, decisions, assumptions, tasks, open_questions, entities, artifacts,
                             metadata, line_key, n)
),
space AS MATERIALIZED (
    SELECT id FROM repos WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE SKIP LOCKED
),
line AS MATERIALIZED (
    SELECT b.id, b.repo_id, b.name, b.name_key, b.is_default, b.head_commit_id, b.head_commit_hash,
           b.head_depth, b.head_jumps, b.head_jump_depths, b.head_merges, clock_timestamp() AS now
    FROM branches b JOIN space ON b.repo_id = space.id
    WHERE EXISTS (SELECT 1 FROM input WHERE input.repo_id = b.repo_id
                  AND (input.line_key = b.name_key OR (input.line_key IS NULL AND b.is_default)))
    ORDER BY b.id FOR UPDATE OF b SKIP LOCKED
),
matched AS MATERIALIZED (
    SELECT input.*, line.id AS line_id, line.name AS line_name, line.is_default, line.now, line.head_commit_id,
           line.head_commit_hash,
           line.head_depth, line.head_jumps, line.head_jump_depths, line.head_merges,
           row_number() OVER (PARTITION BY line.id ORDER BY input.n) > 1 AS repeated
    FROM input
    LEFT JOIN line ON line.repo_id = input.repo_id
                  AND (line.name_key = input.line_key OR (input.line_key IS NULL AND line.is_default))
),
plan AS MATERIALIZED (
    SELECT matched.*,
           CASE WHEN named_parent_id IS NULL THEN matched.head_commit_id ELSE named_parent.id END AS parent_id,
           CASE WHEN named_parent_id IS NULL THEN matched.head_commit_hash
                ELSE named_parent.commit_hash END AS parent_hash,
           CASE WHEN named_parent_id IS NULL THEN matched.head_depth ELSE named_parent.depth END AS parent_depth,
           named_parent_id IS NOT NULL AND named_parent.id IS NULL AS parent_missing,
           named_parent_id IS NOT NULL AND named_parent.repo_id IS DISTINCT FROM matched.repo_id AS parent_foreign,
           check_head AND matched.head_commit_id IS DISTINCT FROM expected_head AS head_moved,
           line_id IS NULL OR repeated AS busy,
           matched.head_jumps AS kept_jumps, matched.head_jump_depths AS kept_jump_depths,
           matched.head_merges AS kept_merges
    FROM matched
    LEFT JOIN commits named_parent ON named_parent.id = matched.named_parent_id
),
{
    _links(
        f"{_KEPT_LINKS} WHERE plan.named_parent_id IS NULL UNION ALL "
        f"{_LOOKED_UP_LINKS} WHERE plan.named_parent_id IS NOT NULL",
        "0",
    )
},
inserted AS (
    INSERT INTO commits ({_INSERTED_COLUMNS})
    SELECT plan.new_id, plan.repo_id, plan.parent_id, NULL::uuid,
           {chain_hash_sql("sha256", "now", "plan.new_id", "parent_hash", "plan.repo_id")},
           message, summary, decisions, assumptions, tasks, open_questions, entities, artifacts, metadata, now,
           coalesce(plan.parent_depth + 1, 0), {_LINK_VALUES}, plan.line_id
    FROM plan JOIN links ON links.new_id = plan.new_id
    WHERE NOT (busy OR parent_missing OR parent_foreign OR head_moved)
    RETURNING id, repo_id, parent_commit_id, commit_hash, depth, created_at
),
{_MOVE_HEAD}{_GROUP_RECORDED}SELECT plan.n, plan.busy, plan.head_commit_id AS current_head, plan.line_name,
       false AS line_missing, plan.parent_missing, plan.parent_foreign, plan.head_moved,
       inserted.id, inserted.parent_commit_id, inserted.commit_hash, inserted.created_at
FROM plan LEFT JOIN inserted ON inserted.id = plan.new_id
"""
