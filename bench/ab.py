"""This tree's write rows against another revision's, measured in turn on one PostgreSQL: the
send (unmounted and mounted) and the ~4 KB commit, at 1 and 16 clients.

    .venv/bin/python bench/ab.py aeb071e                  (5 rounds of 5 s a row and side)
    .venv/bin/python bench/ab.py aeb071e --rounds 9 --rows send

A target such as "the send stays ≥ 0.95× of what it was" compares two trees, and two runs of
`make bench` do not: their floors alone move ±15% between runs on this machine. Here both servers
run at once, each on its own database (the other revision's migrated with the migrations it
has), and every round measures a row on one then the other, the order alternating, so that a busy
minute lands on both. The ratios are this tree's over the other's, of medians.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from database import drop_search, fresh_database
from measure import WrkRun, post_script, settle, wrk
from payload import STATE_4KB
from seed import MOUNTED_AFTER, analyze, post_all, write_sessions
from servers import POSTMASTERS, ROOT, Server, find_postmaster, server, server_command

_MIGRATIONS = "backend/src/smriti/db/migrations/versions"
_QUESTION = "What should we do next about the storage layer?"
_GIT = shutil.which("git") or "git"
_ROWS = ["send", "mounted", "commit"]


def _checkout(revision: str, into: Path) -> tuple[Path, str]:
    """A detached work tree of `revision`, and the newest migration it has."""
    subprocess.run(
        [_GIT, "-C", str(ROOT), "worktree", "add", "--detach", str(into), revision],
        check=True,
    )
    names = subprocess.run(
        [_GIT, "-C", str(ROOT), "ls-tree", "--name-only", revision, _MIGRATIONS + "/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    newest = max(Path(name).name.split("_", 1)[0] for name in names if name.endswith(".py"))
    return into, newest


async def seed_rows(base: str, url: str, sessions: int) -> dict[str, Any]:
    """What the rows write to: a send Space with `sessions` Sessions and a 4 KB Checkpoint to
    mount, and 16 Spaces to commit to. Only v4 requests, so that any revision takes them."""
    spaces = await post_all(
        base,
        "/v4/repos",
        [{"name": "send"}] + [{"name": f"commit-{i}"} for i in range(16)],
    )
    send_space = spaces[0]["id"]
    mount = await post_all(
        base,
        "/v4/chat/commit",
        [{"repo_id": send_space, "message": "mount", **STATE_4KB}],
    )
    made = await post_all(
        base,
        f"/v4/repos/{send_space}/sessions",
        [{"title": f"s{i}"} for i in range(sessions)],
    )
    await analyze(url)
    return {
        "send_space": send_space,
        "mounted": mount[0]["id"],
        "sessions": [s["id"] for s in made],
        "commit_spaces": [s["id"] for s in spaces[1:]],
    }


def _mounted_script(work: Path, side: str, url: str, fixtures: dict[str, Any]) -> Path:
    """Fresh mounted Sessions for one run (the mounted row starts from empty windows)."""
    ids = asyncio.run(write_sessions(url, fixtures["send_space"], [MOUNTED_AFTER] * 2000))
    bodies = [
        {
            "session_id": str(s),
            "content": _QUESTION,
            "checkpoint_id": fixtures["mounted"],
            "history_base_seq": MOUNTED_AFTER,
        }
        for s in ids
    ]
    return post_script(work, f"{side}-mounted", "/v4/chat/send", bodies)


def _line(label: str, runs: list[WrkRun]) -> str:
    rps = statistics.median(r.rps for r in runs)
    cpu = statistics.median(r.server_cpu_us for r in runs)
    pg = statistics.median(r.postgres_cpu_us for r in runs)
    spread = f"{min(r.rps for r in runs):.0f}–{max(r.rps for r in runs):.0f}"
    return f"{label:<6} {rps:>7.0f} req/s ({spread})  server {cpu:5.0f} µs  PostgreSQL {pg:5.0f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the other tree: a commit, tag or branch")
    parser.add_argument(
        "--this",
        dest="this_revision",
        help="measure this revision instead of the work tree",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rows", nargs="+", choices=_ROWS, default=_ROWS)
    parser.add_argument("--clients", nargs="+", type=int, default=[1, 16])
    parser.add_argument(
        "--drop-search",
        action="store_true",
        help="drop the search triggers and indexes (migration 0012) where there are any: what the rest costs",
    )
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="smriti-ab-"))
    trees = {"this": ROOT}  # every tree but ROOT is a worktree of ours, removed at the end
    try:
        trees["other"], migration = _checkout(args.revision, work / "tree")
        this_migration = None
        if args.this_revision:
            trees["this"], this_migration = _checkout(args.this_revision, work / "this")
        tree = trees["other"]
        urls = {
            "this": asyncio.run(fresh_database("smriti_ab_this", revision=this_migration or "head")),
            "other": asyncio.run(fresh_database("smriti_ab_other", revision=migration)),
        }
        if args.drop_search:
            for url in urls.values():
                asyncio.run(drop_search(url))
        if postmaster := asyncio.run(find_postmaster(urls["this"])):
            POSTMASTERS.append(postmaster)
        env = {
            "OPENAI_API_KEY": "",
            "ANTHROPIC_API_KEY": "",
            "SMRITI_LOG_LEVEL": "WARNING",
        }
        envs = {
            side: {
                **env,
                "DATABASE_URL": urls[side],
                "PYTHONPATH": str(trees[side] / "backend" / "src"),
            }
            for side in trees
        }
        log = work / "servers.log"
        command = server_command("uvicorn", "smriti")
        with (
            server(command, envs["this"], trees["this"], log) as this,
            server(command, envs["other"], tree, log) as other,
        ):
            servers = {"this": this, "other": other}
            fixtures = {side: asyncio.run(seed_rows(servers[side].url, urls[side], 2000)) for side in servers}
            dropped = ", search dropped" if args.drop_search else ""
            name = args.this_revision or "this tree"
            print(
                f"{name} against {args.revision} (migration {migration}){dropped}; logs in {log}",
                flush=True,
            )
            for row in args.rows:
                for clients in args.clients:
                    _compare(row, clients, args, work, servers, urls, fixtures)
    finally:
        for side in set(trees.values()) - {ROOT}:
            subprocess.run(
                [_GIT, "-C", str(ROOT), "worktree", "remove", "--force", str(side)],
                check=False,
            )


def _compare(
    row: str,
    clients: int,
    args: argparse.Namespace,
    work: Path,
    servers: dict[str, Server],
    urls: dict[str, str],
    fixtures: dict[str, dict[str, Any]],
) -> None:
    """One row on both sides, round by round, the order alternating; prints the ratio."""
    runs: dict[str, list[WrkRun]] = {"this": [], "other": []}
    for round_number in range(args.rounds):
        for side in ("this", "other") if round_number % 2 == 0 else ("other", "this"):
            script = row_script(row, work, side, urls[side], fixtures[side])
            for each in urls.values():  # both: the other side's writes slow this one's too
                settle(each)
            url = servers[side].url + "/"
            runs[side].append(
                wrk(
                    url,
                    clients=clients,
                    seconds=args.seconds,
                    script=script,
                    watch=None,
                )
            )
    ratio = statistics.median(r.rps for r in runs["this"]) / statistics.median(r.rps for r in runs["other"])
    failed = sum(r.failed for side in runs.values() for r in side)
    print(f"{row} c={clients}: {ratio:.2f}× ({failed} failed)", flush=True)
    for side in ("this", "other"):
        print("  " + _line(side, runs[side]), flush=True)


def row_script(row: str, work: Path, side: str, url: str, fixtures: dict[str, Any]) -> Path:
    if row == "mounted":
        return _mounted_script(work, side, url, fixtures)
    if row == "send":
        bodies = [{"session_id": s, "content": _QUESTION} for s in fixtures["sessions"]]
        return post_script(work, f"{side}-send", "/v4/chat/send", bodies)
    bodies = [{"repo_id": s, "message": "bench commit", **STATE_4KB} for s in fixtures["commit_spaces"]]
    return post_script(work, f"{side}-commit", "/v4/chat/commit", bodies)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
