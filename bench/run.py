"""Smriti's benchmark suite: hot paths against the floor and the peer, measured in one run.

    make bench                                   (10 s per row, median of 3)
    .venv/bin/python bench/run.py --quick        (3 s per row, one run: a smoke test)

- floor: a bare Litestar app on the same server and pool settings, returning a constant (pure
  HTTP) and doing one asyncpg primary-key SELECT of a ~4 KB JSONB row (the floor);
- Smriti over HTTP: HEAD, one Checkpoint, the latest 20 of 10,000 Checkpoints, a ~4 KB commit
  and two sends with the offline provider (unmounted Sessions that grow through the run, and
  fresh mounted ones every run), at 1 and 16 clients (wrk, its own process, loopback);
- peer: LangGraph's AsyncPostgresSaver (bench extra) in-process on the same PostgreSQL: aput,
  aget_tuple and alist(limit=20) on a 10,000-checkpoint thread, 1 and 16 callers, each run in
  turn with a run of Smriti's commit in-process and over HTTP;
- growth: context assembly and send for Sessions of 10, 1,000 and 100,000 Turns; HEAD and log
  for Spaces of 10, 1,000 and 10,000 Checkpoints; commits with 1 KB, 100 KB and 1 MB artifacts;
- scale-out: two server processes against one on HEAD; resident memory of the API;
- server: granian against uvicorn for the floor and for Smriti's HEAD and send;
- merges: a merge preview of two 1,000-item Checkpoints 1,000 and 10 Checkpoints apart, 1 client;
- agents: HEAD and a commit with an agent key against the same with the person's token (16
  clients), and a proposal page (its merge preview included) of two lines 1,000 apart (1 client);
- bundles: export and import of a 10,000-Checkpoint, 100,000-Turn Space and one 10× smaller (rows
  per second, the server's memory rise: constant in the Space's size);
- imports: the server's peak memory importing a 200 MB conversations.json and a bundle of lines at
  SMRITI_MAX_BUNDLE_LINE_BYTES (bounded by the largest item, not the file);
- streams: time to the first piece through Smriti against straight from a fake streaming
  provider, at 1 and 16 clients; 64 streams at once (CPU per piece, memory per stream);
- search: a rare, a medium and a common word over 1,000,000 Turns and 100,000 Checkpoints, at 1
  and 16 clients, against the floor's bare `… WHERE search_vector @@ query LIMIT 20`;
- events: a commit and a send with the event log against without it (an A/B in one run, the side
  without made in the bench: `events_ab.py`); the time from a commit on one server process to its
  event at 1 and 100 subscribers of another; memory per idle event stream, 1,000 at once
  (`events_live.py`);
- tokens: counting 100 KB and 1 MB unbroken runs with o200k_base, in-process, against prose.

Every ratio compares numbers from the same run; the table ends with each target and whether it
held. Results are also written as JSON (bench/results/latest.json).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

import agents
import bundles
import events_ab
import events_live
import import_memory
import lines
import merges
import searching
import streams
import tokens
from database import fresh_database
from hot import run_floor, run_smriti
from peer import run_peer
from report import Report, print_report, write_results
from seed import seed_floor
from servers import POSTMASTERS, find_postmaster
from targets import evaluate

HERE = Path(__file__).resolve().parent

# The rows live by family: hot.py (the floor, Smriti over HTTP, two processes, the other server),
# growth.py, lines.py, merges.py and peer.py; measure.py runs wrk and records a row, servers.py
# starts the servers, seed.py sets up the database, targets.py computes the ratios (merges.py its
# own) and report.py prints them.


def run_events(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path) -> None:
    events_ab.run_events_ab(report, args, env, log, work)
    events_live.run_events_live(report, args, env, log)


def evaluate_events(report: Report) -> None:
    events_ab.evaluate_events_ab(report)
    events_live.evaluate_events_live(report)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", "10")))
    parser.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "3")))
    parser.add_argument("--history", type=int, default=10_000, help="checkpoints in the peer's long thread")
    parser.add_argument("--server", choices=["uvicorn", "granian"], default="uvicorn")
    parser.add_argument("--quick", action="store_true", help="3 s per row, one run, a shorter peer thread")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "latest.json")
    parser.add_argument(
        "--only",
        choices=["lines", "merges", "agents", "streams", "bundles", "imports", "search", "events", "tokens"],
        help="only these rows (and their targets)",
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeat, args.history = 3.0, 1, 2_000

    work = Path(tempfile.mkdtemp(prefix="smriti-bench-"))
    url = asyncio.run(fresh_database("smriti_bench"))
    args.database_url = url
    if postmaster := asyncio.run(find_postmaster(url)):
        POSTMASTERS.append(postmaster)
    asyncio.run(seed_floor(url))
    env = {
        "DATABASE_URL": url,
        "OPENAI_API_KEY": "",
        "ANTHROPIC_API_KEY": "",
        "SMRITI_LOG_LEVEL": "WARNING",
        "SMRITI_MAX_BODY_BYTES": str(4 * 2**20),  # room for the 1 MB artifact row
    }
    log = work / "servers.log"
    report = Report()
    # One group of rows alone: how to run it, then how to judge it.
    groups = {
        "lines": (lambda: lines.run_lines_only(report, args, env, log, work, url), lines.evaluate_lines),
        "merges": (lambda: merges.run_merges(report, args, env, log, work, url), merges.evaluate_merges),
        "agents": (lambda: agents.run_agents(report, args, env, log, work, url), agents.evaluate_agents),
        "bundles": (lambda: bundles.run_bundles(report, args, env, log, work), bundles.evaluate_bundles),
        "imports": (
            lambda: import_memory.run_import_memory(report, args, env, log, work),
            import_memory.evaluate_import_memory,
        ),
        "search": (lambda: searching.run_search(report, args, env, log, work), searching.evaluate_search),
        "streams": (lambda: streams.run_streams(report, args, env, log), streams.evaluate_streams),
        "events": (lambda: run_events(report, args, env, log, work), evaluate_events),
        "tokens": (lambda: tokens.run_tokens(report), tokens.evaluate_tokens),
    }
    if args.only is not None:
        run_group, evaluate_group = groups[args.only]
        run_group()
        evaluate_group(report)
        print_report(report)
        return
    run_floor(report, args, env, work, args.server)
    run_floor(report, args, env, work, "uvicorn" if args.server == "granian" else "granian")
    fixtures = run_smriti(report, args, env, log, work, url)
    run_peer(report, args, env, log, work, url, fixtures["head_space"])
    merges.run_merges(report, args, env, log, work, url)
    agents.run_agents(report, args, env, log, work, url)
    streams.run_streams(report, args, env, log)
    bundles.run_bundles(report, args, env, log, work)
    import_memory.run_import_memory(report, args, env, log, work)
    searching.run_search(report, args, env, log, work)
    run_events(report, args, env, log, work)
    tokens.run_tokens(report)
    evaluate(report)
    merges.evaluate_merges(report)
    agents.evaluate_agents(report)
    streams.evaluate_streams(report)
    bundles.evaluate_bundles(report)
    import_memory.evaluate_import_memory(report)
    searching.evaluate_search(report)
    evaluate_events(report)
    tokens.evaluate_tokens(report)
    print_report(report)
    write_results(report, args)
    print(f"\nwritten to {args.out}; server logs in {log}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
