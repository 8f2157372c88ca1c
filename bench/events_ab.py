"""What the event log costs a commit and a send (issue 46, SYSTEM.md §14): an A/B in one run, part
of `bench/run.py --only events`.

Every change writes its event in its own statement (a commit's and a send's is one more INSERT
in the statement that writes the change), and the product has no switch to turn that off. So the
side without the log is made in the bench: a second database, migrated alike, whose `events`
table discards every row (`database.discard_events`: a BEFORE INSERT trigger returning NULL).
Side B still runs the insert (planned and executed, the identity's next value, the trigger's
call) and its hub still ticks, numbering nothing: what B saves is storing the row, its indexes
and its WAL, and the hub's numbering and reading of it. The ratio with/without therefore leaves
out the insert's share of the statement: it is an upper bound on the true ratio, the log's cost
understated by that share, which PostgreSQL's instructions count (docs/performance.md, Events).

Two servers of the same code run at once, one per database. Each row (a ~4 KB commit rotating over
16 Spaces; a send with the offline provider rotating over the Sessions, which grow through the
run as in `make bench`'s send rows; 16 clients) is measured on one side then the other, round by
round, the order alternating (`measure.rows_in_turn`), both databases vacuumed and checkpointed
before every run, so that a busy minute on this shared machine lands on both.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

import asyncpg
from ab import row_script, seed_rows
from database import discard_events, fresh_database
from measure import rows_in_turn
from report import Report
from servers import ROOT, server, server_command

CLIENTS = 16
SIDES = ("with the event log", "without")
ROWS = {"commit": "events: POST commit (~4 KB), {side}", "send": "events: POST send (offline), {side}"}
AIM = 0.95


def run_events_ab(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path) -> None:
    print(f"events A/B ({args.server}, 1 worker each, both at once):", flush=True)
    urls = {
        SIDES[0]: asyncio.run(fresh_database("smriti_bench_events_on")),
        SIDES[1]: asyncio.run(fresh_database("smriti_bench_events_off")),
    }
    asyncio.run(discard_events(urls[SIDES[1]]))
    sessions = 200 if args.quick else 2000
    command = server_command(args.server, "smriti")
    with (
        server(command, {**env, "DATABASE_URL": urls[SIDES[0]]}, ROOT, log) as on,
        server(command, {**env, "DATABASE_URL": urls[SIDES[1]]}, ROOT, log) as off,
    ):
        bases = dict(zip(SIDES, (on.url, off.url), strict=True))
        fixtures = {side: asyncio.run(seed_rows(bases[side], urls[side], sessions)) for side in SIDES}
        for row, name in ROWS.items():
            rows: list[tuple[str, str, Path | Callable[[], Path] | None]] = [
                (
                    name.format(side=side),
                    bases[side] + "/",
                    row_script(row, work, f"events-{n}", urls[side], fixtures[side]),
                )
                for n, side in enumerate(SIDES)
            ]
            rows_in_turn(report, "events", rows, CLIENTS, args, seconds=args.seconds, databases=list(urls.values()))
        stored = asyncio.run(_events_stored(urls))
    report.growth["events_ab_stored"] = [stored]
    print(f"  events stored: {stored}", flush=True)


async def _events_stored(urls: dict[str, str]) -> dict[str, int]:
    """Rows in each side's `events`: a check that A logged and B discarded."""
    counts = {}
    for side, url in urls.items():
        conn = await asyncpg.connect(url)
        try:
            counts[side] = int(await conn.fetchval("SELECT count(*) FROM events"))
        finally:
            await conn.close()
    return counts


def evaluate_events_ab(report: Report) -> None:
    stored = report.growth["events_ab_stored"][0]
    held = stored[SIDES[0]] > 0 and stored[SIDES[1]] == 0
    report.target("events A/B: events stored with the log (none without)", stored[SIDES[0]], "> 0, 0", held)
    for row, name in ROWS.items():
        on, off = (report.get(name.format(side=side), CLIENTS) for side in SIDES)
        ratio = on.rps / off.rps
        what = f"{row} with the event log / without, {CLIENTS} clients (requests/s)"
        report.target(what, ratio, f"≥ {AIM}", ratio >= AIM)
        for part, attribute in (("PostgreSQL", "postgres_cpu_us"), ("server", "cpu_us")):
            cost = (getattr(on, attribute) or float("nan")) / (getattr(off, attribute) or float("nan"))
            what = f"{row}: {part} CPU per request with the log / without, {CLIENTS} clients"
            report.target(what, cost, "(reported)", True)
