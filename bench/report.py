"""The report of one `make bench` run: its rows and targets, the table printed at the end, and
the JSON written beside it (bench/results/latest.json)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Row:
    group: str
    name: str
    clients: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int = 0
    cpu_us: float | None = None
    """CPU time of the server's processes per request (µs): steadier than req/s on a shared machine."""
    machine_busy: float | None = None
    """Share of the whole machine's CPU in use during the run (server, PostgreSQL and wrk together)."""
    postgres_cpu_us: float | None = None
    """CPU time of the run's PostgreSQL, all its processes, per request (µs); NaN for a remote one."""
    ratio: float | None = None
    ratio_to: str = ""


@dataclass
class Target:
    what: str
    value: float
    aim: str
    held: bool


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    growth: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)
    rss_mb: float = 0.0

    def get(self, name: str, clients: int) -> Row:
        return next(r for r in self.rows if r.name == name and r.clients == clients)

    def speedup(self, name: str, over: str, clients: int) -> float:
        """Throughput of one row over another's, at the same number of clients."""
        return self.get(name, clients).rps / self.get(over, clients).rps

    def target(self, what: str, value: float, aim: str, held: bool) -> None:
        self.targets.append(Target(what, round(value, 3), aim, held))


def print_report(report: Report) -> None:
    print()
    print(
        f"{'path':<44} {'clients':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'× floor':>8} {'errors':>6} "
        f"{'CPU µs':>7} {'PG µs':>6} {'busy':>5}"
    )
    for row in report.rows:
        ratio = f"{row.ratio:8.2f}" if row.ratio is not None else " " * 8
        cpu = f"{row.cpu_us:7.0f}" if row.cpu_us is not None else " " * 7
        busy = f"{100 * row.machine_busy:4.0f}%" if row.machine_busy is not None else " " * 5
        postgres = f"{row.postgres_cpu_us:6.0f}" if row.postgres_cpu_us is not None else " " * 6
        print(
            f"{row.name:<44} {row.clients:>7} {row.rps:>9.0f} {row.p50_ms:>8.2f} {row.p99_ms:>8.2f} {ratio} "
            f"{row.errors:>6} {cpu} {postgres} {busy}"
        )
    print()
    print(f"{'target':<76} {'value':>8}  {'aim':<14} held")
    for target in report.targets:
        print(f"{target.what:<76} {target.value:>8.2f}  {target.aim:<14} {'yes' if target.held else 'NO'}")


def write_results(report: Report, args: argparse.Namespace) -> None:
    """The run's rows, growth figures and targets, with the machine and settings, to `args.out`."""
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "server": args.server,
        "seconds": args.seconds,
        "repeat": args.repeat,
        "rows": [asdict(r) for r in report.rows],
        "growth": report.growth,
        "targets": [asdict(t) for t in report.targets],
        "rss_mb": report.rss_mb,
        "median_floor_rps": statistics.median(r.rps for r in report.rows if r.name == "floor: one-query"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
