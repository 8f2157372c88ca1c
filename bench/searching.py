"""The search rows of `make bench` (issue 26), also `bench/run.py --only search`.

The data: 1,000,000 Turns in 10,000 Sessions and 100,000 Checkpoints over 100 Spaces (a tenth of
that with --quick), written straight into the tables by SQL, so the trigger of migration 0012
gives each its vector as a send or a save would. Each text is 30 words drawn from a 20,000-word
vocabulary with a skew (word i drawn with probability ~ i^(-2/3)), so words range from one in
most texts to one in a few hundred.

Three queries, by how many texts hold their word: rare (~0.06% of the Turns), medium (~0.4%)
and common (~4%, past the 10,000 matches search ranks, `MAX_RANKED`). Each runs at 1 client and
16 through `GET /v5/search` (ranked, counted, snippets) and through the floor app's `GET /search`:
the bare `SELECT … WHERE search_vector @@ query LIMIT 20` on both tables, which stops at the
first 20 rows it finds and ranks nothing. Target (the issue's): Smriti's throughput ≥ 0.7× that
floor's. Reported beside it: the ratio to a ranked floor (`GET /search-ranked`, the same
candidates ranked in one statement, with a ts_headline excerpt of each of the best 20), the least
work a ranked search with snippets does.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from urllib.parse import quote

import asyncpg
from measure import rows_in_turn, settle
from report import Report
from servers import HERE, ROOT, server, server_command

VOCABULARY = 20_000
WORDS_PER_TEXT = 30
SPACES = 100
TURNS_PER_SESSION = 100
# The vocabulary index of each query's word (see the docstring for how common each is).
QUERIES = {"rare": 15_000, "medium": 1_000, "common": 30}
ROW = "search: {kind} word, {via}"


def word(index: int) -> str:
    """Vocabulary word `index`: letters only, so PostgreSQL's parser and stemmer see a word."""
    return "zq" + str(index).translate(str.maketrans("0123456789", "bcdfghjklm"))


# 30 words, each drawn with the skew above; `outer` ties the subquery to its row, so that
# PostgreSQL draws a new text for every row instead of one for all.
_TEXT_SQL = (
    f"(SELECT string_agg('zq' || translate(floor({VOCABULARY} * power(random(), 3))::int::text, "
    f"'0123456789', 'bcdfghjklm'), ' ') FROM generate_series(1, {WORDS_PER_TEXT}) "
    "WHERE {outer} IS NOT NULL)"
)


async def seed_search(url: str, *, turns: int, checkpoints: int) -> None:
    """Spaces, Sessions, Turns and Checkpoints of skewed random text, written by SQL."""
    conn = await asyncpg.connect(url)
    try:
        spaces = await conn.fetch(
            "INSERT INTO repos (id, name, description, created_at, updated_at) "
            "SELECT gen_random_uuid(), 'search bench ' || n, '', now(), now() FROM generate_series(1, $1) AS n "
            "RETURNING id",
            SPACES,
        )
        space_ids = [row["id"] for row in spaces]
        sessions = turns // TURNS_PER_SESSION
        await conn.execute(
            "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
            "SELECT gen_random_uuid(), ($1::uuid[])[1 + n % cardinality($1::uuid[])], 'Session ' || n, $2, "
            "now(), now() FROM generate_series(1, $3) AS n",
            space_ids,
            TURNS_PER_SESSION,
            sessions,
        )
        await conn.execute(
            "INSERT INTO turns (session_id, sequence_number, role, content) "
            "SELECT s.id, seq, CASE WHEN seq % 2 = 1 THEN 'user' ELSE 'assistant' END, "
            f"{_TEXT_SQL.format(outer='seq')} "
            f"FROM sessions s CROSS JOIN generate_series(1, {TURNS_PER_SESSION}) AS seq "
            # Only the Sessions made here: in a full `make bench` the database has others.
            "WHERE s.repo_id = ANY($1::uuid[])",
            space_ids,
        )
        await conn.execute(
            "INSERT INTO commits (id, repo_id, depth, jump_commit_id, jump_depth, first_parent_merges, commit_hash, "
            "message, summary, decisions, assumptions, tasks, open_questions, entities, artifacts, metadata, "
            "created_at) "
            "SELECT id, ($1::uuid[])[1 + n % cardinality($1::uuid[])], 0, id, 0, 0, md5(id::text) || md5(n::text), "
            f"'Checkpoint ' || n, {_TEXT_SQL.format(outer='n')}, "
            f"jsonb_build_array({_TEXT_SQL.format(outer='n')}), '[]', '[]', '[]', '[]', '[]', '{{}}', now() "
            "FROM (SELECT gen_random_uuid() AS id, n FROM generate_series(1, $2) AS n) AS fresh",
            space_ids,
            checkpoints,
        )
        await conn.execute("VACUUM (ANALYZE) turns, commits, sessions")
    finally:
        await conn.close()


def _script(work: Path, name: str, paths: list[str]) -> Path:
    """A wrk script that GETs the paths round robin."""
    script = work / f"{name}.lua"
    listed = ",\n".join(f'"{path}"' for path in paths)
    script.write_text(
        f"local paths = {{\n{listed}\n}}\nlocal n = 0\n"
        "request = function()\n  n = n + 1\n"
        '  return wrk.format("GET", paths[(n % #paths) + 1])\nend\n'
    )
    return script


def run_search(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path) -> None:
    turns, checkpoints = (100_000, 10_000) if args.quick else (1_000_000, 100_000)
    print(f"search ({args.server}, 1 worker; {turns:,} Turns, {checkpoints:,} Checkpoints):", flush=True)
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:  # migrates the database
        asyncio.run(seed_search(args.database_url, turns=turns, checkpoints=checkpoints))
        settle(args.database_url)
        with server(server_command(args.server, "floor"), env, HERE, log) as floor:
            for clients in (1, 16):
                rows = []
                for kind, index in QUERIES.items():
                    # The word, and the word in a phrase with its neighbour, so no one query is cached.
                    queries = [word(index + k) for k in range(8)]
                    encoded = [quote(q) for q in queries]
                    rows.append(
                        (
                            ROW.format(kind=kind, via="Smriti"),
                            smriti.url,
                            _script(work, f"search-{kind}", [f"/v5/search?q={q}&limit=20" for q in encoded]),
                        )
                    )
                    rows.append(
                        (
                            ROW.format(kind=kind, via="floor"),
                            floor.url,
                            _script(work, f"floor-search-{kind}", [f"/search?q={q}" for q in encoded]),
                        )
                    )
                    rows.append(
                        (
                            ROW.format(kind=kind, via="ranked floor"),
                            floor.url,
                            _script(work, f"ranked-search-{kind}", [f"/search-ranked?q={q}" for q in encoded]),
                        )
                    )
                rows_in_turn(report, "search", rows, clients, args, seconds=args.seconds)


def evaluate_search(report: Report) -> None:
    by_name = {(row.name, row.clients): row for row in report.rows if row.group == "search"}
    for kind in QUERIES:
        for clients in (1, 16):
            mine = by_name.get((ROW.format(kind=kind, via="Smriti"), clients))
            floor = by_name.get((ROW.format(kind=kind, via="floor"), clients))
            if mine is None or floor is None or not floor.rps:
                continue
            ratio = mine.rps / floor.rps
            report.target(f"search: {kind} word ÷ floor, c={clients}", ratio, "≥ 0.70", ratio >= 0.70)
            ranked = by_name.get((ROW.format(kind=kind, via="ranked floor"), clients))
            if ranked is not None and ranked.rps:
                report.target(
                    f"search: {kind} word ÷ ranked floor, c={clients}", mine.rps / ranked.rps, "(reported)", True
                )
