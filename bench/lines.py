"""Fixtures and targets of the lines-and-forks rows of `make bench` (issue 22).

- a commit to a line against the commit row (the default line), 1 and 16 clients;
- HEAD of a line against the Space's HEAD;
- a send on a forked Session (its base in context, no boundary sent) against the mounted send;
- forking a 100,000-Turn Session against forking a 10-Turn one;
- the newest 20 of a 10,000-Checkpoint line (a first-parent walk) against the Space-wide page.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Protocol

import asyncpg
import httpx

LINE = "work"
BESIDE = "smriti, beside lines:"
"""The prefix of each row measured in turn with a lines-and-forks row, for its ratio."""


class _Report(Protocol):
    def speedup(self, name: str, over: str, clients: int) -> float: ...

    def target(self, what: str, value: float, aim: str, held: bool) -> None: ...


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


def evaluate_lines(report: _Report) -> None:
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
