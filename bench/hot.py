"""The hot paths over HTTP, against the floor: the floor itself, Smriti's HEAD, one Checkpoint,
the log, a commit and the two sends (with the lines-and-forks rows beside them, and the growth
rows after them on the same server), then two server processes and the other ASGI server."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

import lines
from growth import run_growth
from measure import floor_write_script, measure, post_script
from payload import STATE_4KB
from report import Report
from seed import analyze, mounted_send_script, seed_smriti, write_sessions
from servers import HERE, ROOT, server, server_command


def run_floor(report: Report, args: argparse.Namespace, env: dict[str, str], work: Path, kind: str) -> None:
    print(f"floor ({kind}):", flush=True)
    write_lua = floor_write_script(work)
    with server(server_command(kind, "floor"), env, HERE, work / "servers.log") as floor:
        for clients in (1, 16):
            if kind == args.server:
                measure(report, "floor", "floor: constant (HTTP only)", floor.url + "/constant", clients, args)
                measure(report, "floor", "floor: one durable write", floor.url + "/", clients, args, script=write_lua)
            measure(
                report,
                "floor",
                f"floor: one-query{'' if kind == args.server else f' ({kind})'}",
                floor.url + "/row/7",
                clients,
                args,
            )


def run_smriti(
    report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path, url: str
) -> dict[str, Any]:
    """Smriti's rows; returns the seeded fixtures (Spaces, Sessions) for the rows that follow."""
    print(f"smriti ({args.server}, 1 worker):", flush=True)
    with server(server_command(args.server, "smriti"), env, ROOT, log) as smriti:
        fixtures = asyncio.run(seed_smriti(smriti.url, sessions=2000))
        # The growth rows' long Sessions, written now so that `turns` is not empty when the send
        # rows start: statements planned after an ANALYZE of an empty table keep scanning all of
        # it until the next ANALYZE (the first 1-client send run cost ~470 µs of PostgreSQL).
        sizes = [10, 1_000, 100_000]
        long = dict(zip(sizes, asyncio.run(write_sessions(url, fixtures["send_space"], sizes)), strict=True))
        asyncio.run(analyze(url))
        report.growth["fixtures"] = [{"sessions": len(fixtures["sessions"])}]
        commit_lua = post_script(
            work,
            "commit",
            "/v4/chat/commit",
            [{"repo_id": space, "message": "bench commit", **STATE_4KB} for space in fixtures["commit_spaces"]],
        )
        send_lua = post_script(
            work,
            "send",
            "/v4/chat/send",
            [
                {"session_id": s, "content": "What should we do next about the storage layer?"}
                for s in fixtures["sessions"]
            ],
        )
        head = f"{smriti.url}/v4/repos/{fixtures['head_space']}/head"
        one = f"{smriti.url}/v4/commits/{fixtures['head']['id']}"
        log20 = f"{smriti.url}/v4/repos/{fixtures['log_spaces'][10_000]}/commits?limit=20"
        lines.seed(smriti.url, fixtures)
        for clients in (1, 16):
            watch = smriti if clients == 16 else None
            measure(report, "smriti", "smriti: GET head", head, clients, args, watch=watch)
            measure(report, "smriti", "smriti: GET commit", one, clients, args, watch=watch)
            measure(report, "smriti", "smriti: GET log 20 of 10,000", log20, clients, args, watch=watch)
            measure(
                report,
                "smriti",
                "smriti: POST commit (~4 KB)",
                smriti.url + "/",
                clients,
                args,
                script=commit_lua,
                watch=watch,
            )
            measure(
                report,
                "smriti",
                "smriti: POST send (offline)",
                smriti.url + "/",
                clients,
                args,
                script=send_lua,
                watch=watch,
            )
            measure(
                report,
                "smriti",
                "smriti: POST send (offline), mounted",
                smriti.url + "/",
                clients,
                args,
                script=lambda: mounted_send_script(work, url, fixtures),
                watch=watch,
            )
            # Lines and forks (bench/lines.py), each beside the row it is compared with.
            lines.measure_line_rows(report, args, smriti, work, url, fixtures, clients)
        report.rss_mb = smriti.peak_rss / 2**20

        run_growth(report, args, smriti, work, url, fixtures, long)

    print(f"smriti, 2 worker processes ({args.server}):", flush=True)
    with server(server_command(args.server, "smriti", workers=2), env, ROOT, log) as two:
        measure(
            report,
            "scale",
            "smriti: GET head, 2 processes",
            f"{two.url}/v4/repos/{fixtures['head_space']}/head",
            16,
            args,
        )

    other = "uvicorn" if args.server == "granian" else "granian"
    print(f"smriti ({other}, 1 worker):", flush=True)
    with server(server_command(other, "smriti"), env, ROOT, log) as alt:
        measure(
            report,
            "server",
            f"smriti: GET head ({other})",
            f"{alt.url}/v4/repos/{fixtures['head_space']}/head",
            16,
            args,
        )
        measure(report, "server", f"smriti: POST send (offline) ({other})", alt.url + "/", 16, args, script=send_lua)
    return fixtures
