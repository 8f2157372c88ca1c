"""Faults: the database goes away, the API is killed, the load does not stop. Nothing acknowledged is lost."""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg
import pytest

from tests.support.faults import api_killed, database_outage, slow_provider, soak

pytestmark = pytest.mark.slow


async def test_database_outage_gives_503_and_recovers_without_restart(tmp_path: Path) -> None:
    outcome = await database_outage(tmp_path)
    ledger = outcome.ledger
    assert outcome.during_fault, "the probe during the outage got answers"
    assert set(outcome.during_fault) == {503}, outcome.during_fault
    assert ledger.statuses[503] > 0, ledger.statuses
    assert not ledger.server_errors, ledger.server_errors  # 503 is the only 5xx
    assert set(outcome.after_recovery) == {200}, outcome.after_recovery
    assert ledger.acknowledged > 50
    assert outcome.consistency.lost == []
    assert outcome.consistency.broken == []


async def test_sigkill_mid_traffic_leaves_nothing_half_written(
    tmp_path: Path, database_url: str, db: asyncpg.Connection
) -> None:
    outcome = await api_killed(tmp_path, database_url)
    assert outcome.ledger.statuses[0] > 0, "some requests were cut off by the kill"
    assert not outcome.ledger.server_errors, outcome.ledger.server_errors
    assert outcome.ledger.acknowledged > 50
    assert outcome.consistency.lost == []
    assert outcome.consistency.broken == []


async def test_two_processes_sixteen_clients_mixed_traffic(
    tmp_path: Path, database_url: str, db: asyncpg.Connection
) -> None:
    seconds = float(os.environ.get("SMRITI_SOAK_SECONDS", "60"))
    outcome = await soak(tmp_path, database_url, seconds=seconds)
    statuses = outcome.ledger.statuses
    assert all(status < 500 for status in statuses), statuses
    assert statuses[0] == 0, statuses
    assert outcome.ledger.acknowledged > 100 * seconds
    assert outcome.consistency.lost == []
    assert outcome.consistency.broken == []


async def test_provider_that_never_answers_does_not_starve_the_pool(
    tmp_path: Path, database_url: str, db: asyncpg.Connection
) -> None:
    outcome = await slow_provider(tmp_path, database_url)
    sends, reads = outcome.during_fault, outcome.after_recovery
    assert set(sends) == {504}, sends
    assert outcome.row["slowest_send_s"] < 3, "each send fails within the 1 s timeout plus overhead"
    assert set(reads) == {200}, reads
    assert sum(reads.values()) > 10 * sum(sends.values()), "reads kept flowing while sends waited"
    assert outcome.consistency.broken == []
