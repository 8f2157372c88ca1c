"""The agent rows of `make bench` (issue 45, SYSTEM.md §13), on a server with SMRITI_API_TOKEN set.

- an agent key against the person's token: `GET head` and a ~4 KB commit at 16 clients, measured
  in turn (the key is looked up once per process every `access/keys.FRESH_S`, so it should cost
  next to nothing);
- a proposal page, `GET /v5/repos/{id}/proposals/{n}` (the proposal and the live merge preview of
  its lines' HEADs), of two lines 1,000 Checkpoints apart with the merge rows' 1,000-item states
  (`merge_states.py`), at 1 client.

Targets: agent / person ≥ 0.95 (requests per second, each of HEAD and commit); the proposal page's
median under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from measure import post_script, rows_in_turn
from merge_states import THEIRS_LINE, base_state, line_states, side_changes
from merges import _commit_line
from payload import STATE_4KB
from report import Report
from seed import analyze
from servers import ROOT, server, server_command

PERSON = "bench-person-token-" + "b" * 24
CLIENTS = 16
SPACES = 16
"""Commit rows spread over this many Spaces (one line each), as the hot commit rows do."""
APART = 1_000
HEAD_ROW = "agents: GET head, {who}"
COMMIT_ROW = "agents: POST commit (~4 KB), {who}"
PROPOSAL_ROW = "agents: GET proposal page, lines 1,000 apart"
WHO = ("agent key", "person's token")


def _bearer(token: str) -> str:
    return f'wrk.headers["Authorization"] = "Bearer {token}"\n'


def _get_script(work: Path, name: str, token: str) -> Path:
    script = work / f"{name}.lua"
    script.write_text(_bearer(token))
    return script


def _commit_script(work: Path, name: str, token: str, spaces: list[str]) -> Path:
    bodies = [{"repo_id": space, "message": "bench commit", **STATE_4KB} for space in spaces]
    script = post_script(work, name, "/v4/chat/commit", bodies)
    script.write_text(_bearer(token) + script.read_text())
    return script


async def seed_agents(base_url: str) -> dict[str, Any]:
    """The Spaces, an agent key for every Space, and a proposal of two lines 1,000 apart."""
    headers = {"Authorization": f"Bearer {PERSON}"}
    async with httpx.AsyncClient(base_url=base_url, timeout=120, headers=headers) as client:
        spaces = []
        for n in range(SPACES):
            response = await client.post("/v4/repos", json={"name": f"agents-{n}"})
            response.raise_for_status()
            spaces.append(response.json()["id"])
            committed = await client.post("/v4/chat/commit", json={"repo_id": spaces[-1], "message": "base"})
            committed.raise_for_status()
        response = await client.post("/v5/agents", json={"name": "bench", "spaces": None})
        response.raise_for_status()
        key = response.json()["token"]

        response = await client.post("/v4/repos", json={"name": "proposal-1000-apart"})
        response.raise_for_status()
        space = response.json()["id"]
        base = base_state()
        response = await client.post("/v4/chat/commit", json={"repo_id": space, "message": "base", **base})
        response.raise_for_status()
        fork = response.json()["id"]
        response = await client.post(f"/v4/repos/{space}/branches", json={"name": THEIRS_LINE, "from_ref": fork})
        response.raise_for_status()
        per_line = APART // 2
        await asyncio.gather(
            _commit_line(client, space, None, line_states(base, side_changes(base, "ours"), per_line)),
            _commit_line(client, space, THEIRS_LINE, line_states(base, side_changes(base, "theirs"), per_line)),
        )
        response = await client.post(
            f"/v5/repos/{space}/proposals",
            json={"from": THEIRS_LINE, "title": "Research"},
            headers={"Authorization": f"Bearer {key}"},
        )
        response.raise_for_status()
        opened = response.json()
        assert opened["relation"] == "diverged", opened["relation"]
        assert opened["preview"]["base_commit_id"] == fork
    print(f"  seeded: {SPACES} Spaces, a proposal of lines {APART:,} apart", flush=True)
    return {"spaces": spaces, "key": key, "proposal": f"/v5/repos/{space}/proposals/{opened['number']}"}


def run_agents(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str) -> None:
    """The agent rows on a server of their own (also `--only agents`)."""
    print(f"agents ({args.server}, 1 worker, SMRITI_API_TOKEN set):", flush=True)
    with server(server_command(args.server, "smriti"), {**env, "SMRITI_API_TOKEN": PERSON}, ROOT, log) as smriti:
        fixtures = asyncio.run(seed_agents(smriti.url))
        asyncio.run(analyze(url))
        tokens = dict(zip(WHO, (fixtures["key"], PERSON), strict=True))
        head = f"{smriti.url}/v4/repos/{fixtures['spaces'][0]}/head"
        rows: list[tuple[str, str, Path | Callable[[], Path] | None]] = [
            (HEAD_ROW.format(who=who), head, _get_script(work, f"head-{n}", token))
            for n, (who, token) in enumerate(tokens.items())
        ]
        rows += [
            (
                COMMIT_ROW.format(who=who),
                smriti.url + "/",
                _commit_script(work, f"agents-commit-{n}", token, fixtures["spaces"]),
            )
            for n, (who, token) in enumerate(tokens.items())
        ]
        rows_in_turn(report, "agents", rows[:2], CLIENTS, args, seconds=args.seconds)
        rows_in_turn(report, "agents", rows[2:], CLIENTS, args, seconds=args.seconds)
        page = _get_script(work, "proposal-page", PERSON)
        rows_in_turn(
            report, "agents", [(PROPOSAL_ROW, smriti.url + fixtures["proposal"], page)], 1, args, seconds=args.seconds
        )


def evaluate_agents(report: Report) -> None:
    for row in (HEAD_ROW, COMMIT_ROW):
        agent, person = (report.get(row.format(who=who), CLIENTS) for who in WHO)
        ratio = agent.rps / person.rps
        what = f"{row.format(who='agent key / person token')} at {CLIENTS} clients (requests/s)"
        report.target(what, ratio, "≥ 0.95", ratio >= 0.95)
    page = report.get(PROPOSAL_ROW, 1)
    report.target("proposal page, lines 1,000 apart: median ms, 1 client", page.p50_ms, "< 50", page.p50_ms < 50)
    report.target("proposal page, lines 1,000 apart: p99 ms, 1 client", page.p99_ms, "(reported)", True)
