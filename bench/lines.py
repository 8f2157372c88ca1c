"""Fixtures, rows and targets of the lines-and-forks rows of `make bench` (issue 22).

- a commit to a line against the commit row (the default line), 1 and 16 clients;
- HEAD of a line against the Space's HEAD;
- a send on a forked Session (its base in context, no boundary sent) against the mounted send;
- forking a 100,000-Turn Session against forking a 10-Turn one;
- the newest 20 of a 10,000-Checkpoint line (a first-parent walk) against the Space-wide page.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from measure import post_script, rows_in_turn
from payload import STATE_4KB
from report import Report
from seed import analyze, mounted_send_script, seed_smriti, write_sessions
from servers import ROOT, Server, server, server_command

LINE = "work"
BESIDE = "smriti, beside lines:"
"""The prefix of each row measured in turn with a lines-and-forks row, for its ratio."""


async def seed_lines(base: str, fixtures: dict[str, Any]) -> None:
    """A line named `work` in each commit Space and in the HEAD Space (at its HEAD)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for space in [*fixtures["commit_spaces"], fixtures["head_space"]]:
            response = await client.post(f"/v4/repos/{space}/branches", json={"name": LINE})
            response.raise_for_status()


def line_commit_bodies(fixtures: dict[str, Any], body: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"repo_id": space, "branch": LINE, **body} for space in fixtures["commit_spaces"]]


async def forked_sessions(url: str, space_id: str, base_commit_id: str, count: int) -> list[uuid.UUID]:
    """Fresh Sessions based on the mounted Checkpoint, with no Turns yet (as a fork starts)."""
    ids = [uuid.uuid4() for _ in range(count)]
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "INSERT INTO sessions (id, repo_id, title, last_seq, base_commit_id, created_at, updated_at) "
            "SELECT s.id, $1, 'fork', 0, $2, now(), now() FROM unnest($3::uuid[]) AS s(id)",
            uuid.UUID(space_id),
            uuid.UUID(base_commit_id),
            ids,
        )
    finally:
        await conn.close()
    return ids


def forked_send_bodies(ids: list[uuid.UUID]) -> list[dict[str, Any]]:
    return [{"session_id": str(i), "content": "What should we do next about the storage layer?"} for i in ids]


def evaluate_lines(report: Report) -> None:
    """Each ratio against its baseline row measured in turn with it (see `BESIDE`)."""
    for clients in (1, 16):
        ratio = report.speedup("smriti: POST commit to a line (~4 KB)", f"{BESIDE} POST commit (~4 KB)", clients)
        report.target(f"commit to a line / commit, {clients} client(s)", ratio, "≥ 0.95", ratio >= 0.95)
    ratio = report.speedup("smriti: GET head of a line", f"{BESIDE} GET head", 16)
    report.target("HEAD of a line / HEAD, 16 clients", ratio, "≥ 0.95", ratio >= 0.95)
    ratio = report.speedup("smriti: POST send (offline), forked", f"{BESIDE} POST send (offline), mounted", 16)
    report.target("send on a forked Session / mounted send, 16 clients", ratio, "≥ 0.95", ratio >= 0.95)
    ratio = report.speedup("growth: fork, 10 Turns", "growth: fork, 100,000 Turns", 16)
    report.target("fork: 100,000-Turn Session time / 10-Turn one", ratio, "≤ 1.2", ratio <= 1.2)
    ratio = report.speedup("smriti: GET line log 20 of 10,000", f"{BESIDE} GET log 20 of 10,000", 16)
    report.target("line log 20 of 10,000 / Space log page, 16 clients", ratio, "≥ 0.8", ratio >= 0.8)


def seed(base: str, fixtures: dict[str, Any]) -> None:
    asyncio.run(seed_lines(base, fixtures))


def measure_line_rows(
    report: Report,
    args: argparse.Namespace,
    smriti: Server,
    work: Path,
    url: str,
    fixtures: dict[str, Any],
    clients: int,
) -> None:
    """Each lines-and-forks row measured in turn with the row it is compared with (bench/py):
    on this machine two rows measured minutes apart differ by more than the targets' margins."""
    watch = smriti if clients == 16 else None
    base = smriti.url
    head = f"{base}/v4/repos/{fixtures['head_space']}/head"
    log20 = f"{base}/v4/repos/{fixtures['log_spaces'][10_000]}/commits?limit=20"
    state = {"message": "bench commit", **STATE_4KB}
    commit_lua = post_script(
        work, "commit-beside", "/v4/chat/commit", [{"repo_id": s, **state} for s in fixtures["commit_spaces"]]
    )
    line_commit_lua = post_script(work, "commit-line", "/v4/chat/commit", line_commit_bodies(fixtures, state))

    def forked_send_lua() -> Path:
        ids = asyncio.run(forked_sessions(url, fixtures["send_space"], fixtures["mounted"], 2000))
        return post_script(work, "send-forked", "/v4/chat/send", forked_send_bodies(ids))

    pairs: list[list[tuple[str, str, Path | Callable[[], Path] | None]]] = [
        [
            (f"{BESIDE} POST commit (~4 KB)", base + "/", commit_lua),
            ("smriti: POST commit to a line (~4 KB)", base + "/", line_commit_lua),
        ],
        [(f"{BESIDE} GET head", head, None), ("smriti: GET head of a line", f"{head}?branch={LINE}", None)],
        [
            (f"{BESIDE} GET log 20 of 10,000", log20, None),
            ("smriti: GET line log 20 of 10,000", f"{log20}&branch=main", None),
        ],
        [
            (
                f"{BESIDE} POST send (offline), mounted",
                base + "/",
                lambda: mounted_send_script(work, url, fixtures),
            ),
            ("smriti: POST send (offline), forked", base + "/", forked_send_lua),
        ],
    ]
    for pair in pairs:
        rows_in_turn(report, "lines", pair, clients, args, seconds=args.seconds, watch=watch)


def run_lines_only(
    report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str
) -> None:
    """`--only lines`: the lines-and-forks rows and their targets, without the rest of the suite."""
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:
        fixtures = asyncio.run(seed_smriti(smriti.url, sessions=16))
        sizes = [10, 100_000]
        long = dict(zip(sizes, asyncio.run(write_sessions(url, fixtures["send_space"], sizes)), strict=True))
        asyncio.run(analyze(url))
        seed(smriti.url, fixtures)
        for clients in (1, 16):
            measure_line_rows(report, args, smriti, work, url, fixtures, clients)
        measure_fork_growth(report, args, smriti, work, fixtures, long, seconds=max(2.0, args.seconds / 2))


def measure_fork_growth(
    report: Report,
    args: argparse.Namespace,
    smriti: Server,
    work: Path,
    fixtures: dict[str, Any],
    long: dict[int, uuid.UUID],
    *,
    seconds: float,
) -> None:
    forks: list[tuple[str, str, Path | Callable[[], Path] | None]] = [
        (
            f"growth: fork, {size:,} Turns",
            smriti.url + "/",
            post_script(
                work, f"fork-{size}", f"/v5/sessions/{long[size]}/fork", [{"checkpoint_id": fixtures["mounted"]}]
            ),
        )
        for size in (10, 100_000)
    ]
    rows_in_turn(report, "growth", forks, 16, args, seconds=seconds)
