"""Merge previews by the length of the history behind the base (issue 42 item 7): two long-lived
lines merged into each other, the shape of the issue's reproduction. Run by `merges.run_merges`.

In each Space, `main` and `research` start at one root; research gets a Checkpoint after every
tenth on main, and every 500 on main research is merged into main, then main into research
(commits with `merge_parent_id` and `expected_head_commit_id`, as a saved merge is). Then 250
more on main and 25 on research: the base is the last merge into main, 275 Checkpoints behind
the tips, with the whole history before it. Their first-parent fork point stays the root, so a
base search bounded by it alone reads everything (it took 15 s at 4,000 on main). Spaces with
1,000, 2,000 and 4,000 on main; states are a summary only, so the rows measure the base search
and not the three-way merge (the other merge rows measure that).

- `GET /v5/repos/{id}/merge?ours=main&theirs=research` at 1 client, measured in turn with the
  other merge rows;
- where the time goes, in-process (`merges.breakdown`): the base query among the parts.

Targets: the 4,000 Space's median under 50 ms, and flat in the history: each Space's median over
the 1,000 one's (the floor: the same walk with the least history behind it) ≤ 1.2.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from merge_states import THEIRS_LINE
from report import Report

HISTORIES = (1_000, 2_000, 4_000)
"""Checkpoints on main (before the last 250) in each Space."""
MERGE_EVERY = 500
SINCE = 250
"""Checkpoints on main after the last merge pair."""
ROW = "merges: both ways, {main:,} on main"


async def _commit(client: httpx.AsyncClient, space: str, line: str, message: str, **fields: Any) -> str:
    body = {"repo_id": space, "branch": line, "message": message, "summary": f"{line}: {message}", **fields}
    response = await client.post("/v4/chat/commit", json=body)
    response.raise_for_status()
    commit_id: str = response.json()["id"]
    return commit_id


async def _seed_space(client: httpx.AsyncClient, on_main: int) -> dict[str, str]:
    started = time.perf_counter()
    response = await client.post("/v4/repos", json={"name": f"merged-both-ways-{on_main}"})
    response.raise_for_status()
    space = response.json()["id"]
    root = await _commit(client, space, "main", "root")
    response = await client.post(f"/v4/repos/{space}/branches", json={"name": THEIRS_LINE, "from_ref": root})
    response.raise_for_status()
    heads, base, made = {"main": root, THEIRS_LINE: root}, root, 1
    for n in range(on_main + SINCE):
        heads["main"] = await _commit(client, space, "main", f"step {n}")
        made += 1
        if n % 10 == 0:
            heads[THEIRS_LINE] = await _commit(client, space, THEIRS_LINE, f"step {n}")
            made += 1
        if n < on_main and n % MERGE_EVERY == MERGE_EVERY - 1:
            for ours, theirs in (("main", THEIRS_LINE), (THEIRS_LINE, "main")):
                merged = {"merge_parent_id": heads[theirs], "expected_head_commit_id": heads[ours]}
                heads[ours] = await _commit(client, space, ours, f"merge {theirs} at {n}", **merged)
                made += 1
            base = heads["main"]
    took = time.perf_counter() - started
    print(f"  seeded {made:,} Checkpoints, {on_main:,} on main merged both ways, in {took:.1f} s", flush=True)
    return {"space": space, "main": "main", "base": base, "ours": heads["main"], "theirs": heads[THEIRS_LINE]}


async def seed_histories(base_url: str) -> dict[int, dict[str, str]]:
    """The Spaces by Checkpoints on main, seeded at once (each its own line of commits), each
    checked: verify is ok, and the preview merges against the last merge into main."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        seeded = await asyncio.gather(*(_seed_space(client, on_main) for on_main in HISTORIES))
        for fixture in seeded:
            response = await client.get(f"/v4/repos/{fixture['space']}/verify")
            response.raise_for_status()
            assert response.json()["ok"], response.text
            response = await client.get(
                f"/v5/repos/{fixture['space']}/merge", params={"ours": "main", "theirs": THEIRS_LINE}
            )
            response.raise_for_status()
            preview = response.json()
            assert preview["base_candidates"] == [fixture["base"]], preview["base_candidates"]
            assert (preview["ours_commit_id"], preview["theirs_commit_id"]) == (fixture["ours"], fixture["theirs"])
    return dict(zip(HISTORIES, seeded, strict=True))


def evaluate_histories(report: Report) -> None:
    floor, *longer = (report.get(ROW.format(main=on_main), 1) for on_main in HISTORIES)
    longest = longer[-1]
    what = f"merge preview, both ways, {HISTORIES[-1]:,} on main:"
    report.target(f"{what} median ms, 1 client", longest.p50_ms, "< 50", longest.p50_ms < 50)
    report.target(f"{what} p99 ms, 1 client", longest.p99_ms, "(reported)", True)
    for on_main, row in zip(HISTORIES[1:], longer, strict=True):
        ratio = row.p50_ms / floor.p50_ms
        what = f"merge preview, both ways: {on_main:,} / {HISTORIES[0]:,} on main (medians)"
        report.target(what, ratio, "≤ 1.2", ratio <= 1.2)
    for entry in report.growth.get("merge_history_ms", []):
        what = f"merge preview, both ways, {entry['on_main']:,} on main, in-process: base query ms"
        report.target(f"{what} (of {entry['total']:.1f})", entry["base"], "(reported)", True)
