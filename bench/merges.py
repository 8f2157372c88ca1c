"""Fixtures, rows and targets of the merge-preview rows of `make bench` (issue 23); the states the
fixtures commit are made in `merge_states.py`.

Two Spaces with the same final contents: in each, a base Checkpoint with 1,000 items (250
decisions, 250 tasks, 250 entities, 250 artifacts of a few hundred bytes) on the default line,
a second line (`research`) started at the base, and Checkpoints on both lines on top of it that
change items on each side, step by step (additions on both sides, the same change on both, tasks
done, entities and artifacts changed, a few removals, and 12 conflicts). In one Space each line
gets 500 Checkpoints, so the two tips are 1,000 Checkpoints apart; in the other 5 each, 10 apart.
Every Checkpoint is committed over the API, so its hash is Smriti's own (verify stays ok).

- `GET /v5/repos/{id}/merge?ours=main&theirs=research` at 1 client, 1,000 apart and 10 apart,
  measured in turn (wrk's latency at one connection on loopback stands for the server's time);
- where the time goes, in-process: resolving the two lines, the base query, loading the three
  Checkpoints, decoding them, the three-way merge, encoding the answer; then the same again
  after a merge of two other lines in each Space (after which the base query also walks both
  parent links back to the fork point: `smriti.merges.base`).

Targets: the median under 50 ms, and the time 1,000 apart ≤ 1.2× the time 10 apart. The rows of
`merge_history.py` (two lines merged into each other, by the length of the history behind their
base) are measured in turn with these, on the same server.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
from measure import rows_in_turn
from merge_history import HISTORIES, evaluate_histories, seed_histories
from merge_history import ROW as HISTORY_ROW
from merge_states import THEIRS_LINE, State, base_state, line_states, side_changes
from report import Report
from seed import analyze
from servers import ROOT, server, server_command

from smriti.checkpoints.commit_sql import COLUMNS, JSONB_FIELDS
from smriti.checkpoints.schemas import CHECKPOINT_FIELDS
from smriti.checkpoints.store import CheckpointStore, to_checkpoint
from smriti.db.pool import Pool, create_pool
from smriti.merges.base import merge_base
from smriti.merges.rivals import merge_rivals
from smriti.merges.schemas import MergePreview
from smriti.merges.service import MergeService, conflicting_item
from smriti.merges.three_way import merge_states, state_of

APART = (10, 1_000)
"""Checkpoints between the two tips (half on each line), the short and the long Space."""
ROW = "merges: GET merge preview, {apart:,} apart"


async def _commit_line(client: httpx.AsyncClient, space: str, line: str | None, states: Iterator[State]) -> str:
    """One line's Checkpoints, one after the other (each the parent of the next); the tip's id."""
    last = ""
    for n, state in enumerate(states):
        body = {"repo_id": space, "message": f"step {n + 1} on {line or 'main'}", **state}
        if line is not None:
            body["branch"] = line
        response = await client.post("/v4/chat/commit", json=body)
        response.raise_for_status()
        last = response.json()["id"]
    return last


async def seed_merges(base_url: str) -> dict[int, dict[str, str]]:
    """Both Spaces, by how far apart their tips are: Space id, default line, tips and base."""
    base = base_state()
    ours_changes, theirs_changes = side_changes(base, "ours"), side_changes(base, "theirs")
    spaces: dict[int, dict[str, str]] = {}
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        for apart in APART:
            started = time.perf_counter()
            response = await client.post("/v4/repos", json={"name": f"merge-{apart}-apart"})
            response.raise_for_status()
            space = response.json()["id"]
            response = await client.post("/v4/chat/commit", json={"repo_id": space, "message": "base", **base})
            response.raise_for_status()
            fork = response.json()["id"]
            response = await client.post(f"/v4/repos/{space}/branches", json={"name": THEIRS_LINE, "from_ref": fork})
            response.raise_for_status()
            response = await client.get(f"/v4/repos/{space}/branches")
            response.raise_for_status()
            main = next(line["name"] for line in response.json()["items"] if line["is_default"])
            per_line = apart // 2
            ours, theirs = await asyncio.gather(
                _commit_line(client, space, None, line_states(base, ours_changes, per_line)),
                _commit_line(client, space, THEIRS_LINE, line_states(base, theirs_changes, per_line)),
            )
            response = await client.get(f"/v4/repos/{space}/verify")
            response.raise_for_status()
            assert response.json()["ok"], response.text
            spaces[apart] = {"space": space, "main": main, "fork": fork, "ours": ours, "theirs": theirs}
            took = time.perf_counter() - started
            print(f"  seeded {2 * per_line + 1:,} Checkpoints, tips {apart:,} apart, in {took:.1f} s", flush=True)
    return spaces


def merge_url(base_url: str, fixture: dict[str, str]) -> str:
    return f"{base_url}/v5/repos/{fixture['space']}/merge?ours={fixture['main']}&theirs={THEIRS_LINE}"


def check_preview(base_url: str, spaces: dict[int, dict[str, str]]) -> dict[str, Any]:
    """Both previews answer the same merge, against the fork point, with real work in it."""
    previews, sizes = {}, {}
    for apart, fixture in spaces.items():
        response = httpx.get(merge_url(base_url, fixture), timeout=60)
        response.raise_for_status()
        preview, sizes[apart] = response.json(), len(response.content)
        assert preview["base_commit_id"] == fixture["fork"], preview["base_commit_id"]
        assert (preview["ours_commit_id"], preview["theirs_commit_id"]) == (fixture["ours"], fixture["theirs"])
        assert preview["relation"] == "diverged"
        previews[apart] = preview
    short, long = (previews[apart] for apart in APART)
    assert short["merged"] == long["merged"]
    assert short["conflicts"] == long["conflicts"]
    merged = short["merged"]
    shape = {field: len(merged[field]) for field in ("decisions", "tasks", "entities", "artifacts")}
    shape |= {"conflicts": len(short["conflicts"]), "answer_kb": round(sizes[APART[-1]] / 1024)}
    print(f"  merge preview: {shape}", flush=True)
    return shape


_PARTS = {
    "resolve": "resolve the two lines",
    "base": "base query",
    "load": "load the 3 Checkpoints",
    "convert": "to Checkpoints",
    "merge": "three-way",
    "rivals": "rival choices",
    "encode": "encode",
}
"""The parts of a preview timed one by one, in the order it runs them, and how they are printed."""

_LOAD_SQL = f"SELECT {COLUMNS} FROM commits WHERE id = ANY($1)"

# The same load with PostgreSQL doing all its work on the JSONB columns (detoasting them and
# writing them out as JSON) but sending only their lengths: its part of the load, not the wire's
# or asyncpg's decoding.
_LOAD_IN_POSTGRES_SQL = (
    "SELECT "
    + ", ".join(f"octet_length({name}::text)" if name in JSONB_FIELDS else name for name in CHECKPOINT_FIELDS)
    + " FROM commits WHERE id = ANY($1)"
)


async def _preview_in_parts(service: MergeService, pool: Pool, fixture: dict[str, str]) -> dict[str, float]:
    """One preview made step by step as `MergeService.preview` makes it, each step timed (ms);
    then, apart, PostgreSQL's own part of the load (`in_postgres`, not one of the steps)."""
    space = uuid.UUID(fixture["space"])
    took: dict[str, float] = {}
    started = time.perf_counter()

    def lap(part: str) -> None:
        nonlocal started
        now = time.perf_counter()
        took[part], started = (now - started) * 1e3, now

    # The service's own steps, private ones included, so that each can be timed on its own.
    ours_id = await service._side(space, fixture["main"], "ours")
    theirs_id = await service._side(space, THEIRS_LINE, "theirs")
    lap("resolve")
    base = await merge_base(pool, ours_id, theirs_id)
    lap("base")
    ids = [ours_id, theirs_id, base.base_id]
    rows = {row["id"]: row for row in await pool.fetch(_LOAD_SQL, ids)}
    lap("load")
    base_state, ours_state, theirs_state = (
        state_of(to_checkpoint(rows[i])) for i in (base.base_id, ours_id, theirs_id)
    )
    lap("convert")
    outcome = merge_states(base_state, ours_state, theirs_state)
    lap("merge")
    rivals, limits = merge_rivals(outcome.merged, ours_state, theirs_state)
    lap("rivals")
    msgspec.json.encode(
        MergePreview(
            base_commit_id=base.base_id,
            base_candidates=base.candidates,
            ours_commit_id=ours_id,
            theirs_commit_id=theirs_id,
            relation="diverged",
            merged=outcome.merged,
            conflicts=[conflicting_item(conflict) for conflict in outcome.conflicts],
            clean=not outcome.conflicts,
            rivals=rivals,
            limits=limits,
        )
    )
    lap("encode")
    await pool.fetch(_LOAD_IN_POSTGRES_SQL, ids)
    lap("in_postgres")
    return took


async def breakdown(url: str, spaces: dict[int, dict[str, str]], iterations: int) -> dict[int, dict[str, float]]:
    """Where a preview's time goes, in-process on the server's own code: the whole preview
    (`MergeService.preview` and encoding its answer), then the same preview made step by step
    (`_PARTS`), median ms of `iterations` of each, alternating, after a warm-up. `rest` is the
    whole less the parts (the parts' medians need not add up exactly); `python_cpu` is this
    process's CPU time during the whole preview (the rest of its time is waiting on PostgreSQL)."""
    pool = await create_pool(url, size=2)
    service = MergeService(pool, CheckpointStore(pool))
    gc.collect()
    gc.freeze()  # as the server does after start-up
    results: dict[int, dict[str, float]] = {}
    try:
        for apart, fixture in spaces.items():
            space = uuid.UUID(fixture["space"])
            totals: list[float] = []
            cpus: list[float] = []
            parts: dict[str, list[float]] = {part: [] for part in [*_PARTS, "in_postgres"]}
            for n in range(iterations + 5):
                started, cpu = time.perf_counter(), time.process_time()
                msgspec.json.encode(await service.preview(space, fixture["main"], THEIRS_LINE))
                total, cpu = (time.perf_counter() - started) * 1e3, (time.process_time() - cpu) * 1e3
                took = await _preview_in_parts(service, pool, fixture)
                if n >= 5:
                    totals.append(total)
                    cpus.append(cpu)
                    for part, ms in took.items():
                        parts[part].append(ms)
            result = {"total": statistics.median(totals), "python_cpu": statistics.median(cpus)}
            result |= {part: statistics.median(values) for part, values in parts.items()}
            result["rest"] = result["total"] - sum(result[part] for part in _PARTS)
            results[apart] = {k: round(v, 2) for k, v in result.items()}
    finally:
        gc.unfreeze()
        await pool.close()
    return results


def print_breakdown(results: dict[int, dict[str, float]], fixture: str = "{:,} apart") -> None:
    for key, r in results.items():
        parts = " + ".join(f"{label} {r[part]:.2f}" for part, label in _PARTS.items())
        print(
            f"  in-process, {fixture.format(key)}: {r['total']:.2f} ms = {parts} + rest {r['rest']:.2f} "
            f"(PostgreSQL's part of the load: {r['in_postgres']:.2f}; this process's CPU: {r['python_cpu']:.2f})",
            flush=True,
        )


def merge_elsewhere(base_url: str, spaces: dict[int, dict[str, str]]) -> None:
    """In each Space, two small lines from the base and a merge of one into the other: a merge
    newer than the fork point that has nothing to do with the two lines merged. Since migration
    0006 the base query walks past first parents only when the Space has such a merge."""
    with httpx.Client(base_url=base_url, timeout=60) as client:
        for fixture in spaces.values():
            space = fixture["space"]
            for name in ("side-a", "side-b"):
                client.post(f"/v4/repos/{space}/branches", json={"name": name, "from_ref": fixture["fork"]})
            side = {"repo_id": space, "summary": "A side note."}
            theirs = client.post("/v4/chat/commit", json={**side, "branch": "side-b", "message": "side b"})
            theirs.raise_for_status()
            merged = {**side, "branch": "side-a", "message": "merge side b", "merge_parent_id": theirs.json()["id"]}
            client.post("/v4/chat/commit", json=merged).raise_for_status()
            report = client.get(f"/v4/repos/{space}/verify")
            report.raise_for_status()
            assert report.json()["ok"], report.text


def run_merges(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str) -> None:
    """The merge-preview rows on a server of their own (also `--only merges`), those of
    `merge_history.py` in turn with them; then where the time goes, in-process, as measured and
    again with a merge elsewhere in each Space."""
    print(f"merges ({args.server}, 1 worker):", flush=True)
    iterations = 10 if args.quick else 30
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:
        spaces = asyncio.run(seed_merges(smriti.url))
        histories = asyncio.run(seed_histories(smriti.url))
        asyncio.run(analyze(url))
        report.growth["merge_fixtures"] = [check_preview(smriti.url, spaces)]
        rows: list[tuple[str, str, Path | Callable[[], Path] | None]] = [
            (ROW.format(apart=apart), merge_url(smriti.url, spaces[apart]), None) for apart in APART
        ]
        rows += [
            (HISTORY_ROW.format(main=on_main), merge_url(smriti.url, histories[on_main]), None) for on_main in HISTORIES
        ]
        rows_in_turn(report, "merges", rows, 1, args, seconds=args.seconds)
        as_measured = asyncio.run(breakdown(url, spaces, iterations))
        print_breakdown(as_measured)
        by_history = asyncio.run(breakdown(url, histories, iterations))
        print_breakdown(by_history, "both ways, {:,} on main")
        report.growth["merge_history_ms"] = [{"on_main": on_main, **parts} for on_main, parts in by_history.items()]
        merge_elsewhere(smriti.url, spaces)
        with_merge = asyncio.run(breakdown(url, spaces, iterations))
        print("  with a merge elsewhere in each Space (the walk over both links runs):", flush=True)
        print_breakdown(with_merge)
    report.growth["merge_breakdown_ms"] = [
        {"apart": apart, "merge_elsewhere": elsewhere, **parts}
        for elsewhere, results in ((False, as_measured), (True, with_merge))
        for apart, parts in results.items()
    ]


def evaluate_merges(report: Report) -> None:
    evaluate_histories(report)
    short, long = (report.get(ROW.format(apart=apart), 1) for apart in APART)
    report.target("merge preview 1,000 apart: median ms, 1 client", long.p50_ms, "< 50", long.p50_ms < 50)
    report.target("merge preview 1,000 apart: p99 ms, 1 client", long.p99_ms, "(reported)", True)
    report.target("merge preview 10 apart: median ms, 1 client", short.p50_ms, "(reported)", True)
    ratio = long.p50_ms / short.p50_ms
    report.target("merge preview time: 1,000 apart / 10 apart (medians)", ratio, "≤ 1.2", ratio <= 1.2)
    by = {(e["apart"], e["merge_elsewhere"]): e for e in report.growth.get("merge_breakdown_ms", [])}
    for apart in APART:
        entry = by[apart, False]
        what = f"merge preview {apart:,} apart in-process: base query ms (of {entry['total']:.1f} ms)"
        report.target(what, entry["base"], "(reported)", True)
    short_total, long_total = (by[apart, True]["total"] for apart in APART)
    what = f"with a merge elsewhere in the Space, in-process: base query ms, {APART[-1]:,} apart"
    report.target(what, by[APART[-1], True]["base"], "(reported)", True)
    what = "with a merge elsewhere in the Space, in-process: 1,000 apart / 10 apart"
    report.target(what, long_total / short_total, "(reported)", True)
