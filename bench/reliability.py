"""The reliability report: faults injected under load, and what was lost (it must be nothing).

    make reliability        (or: .venv/bin/python bench/reliability.py --soak-seconds 60)

Scenarios (the same code the fault tests run, in backend/tests/support/faults.py):
- the database stops for 3 s under load and comes back, the API is not restarted;
- the API is killed with SIGKILL in the middle of commits and sends, then restarted;
- the provider never answers, with a database pool of 2, while others keep reading;
- two API processes and 16 clients of mixed traffic.
Afterwards every acknowledged Space, Checkpoint and exchange is looked up, every Session's
sequence numbers are checked for gaps, and every Space's hashes and parent links are verified.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backend"))

from database import fresh_database  # noqa: E402

from tests.support.faults import api_killed, database_outage, slow_provider, soak  # noqa: E402


async def run(soak_seconds: float) -> list[dict[str, Any]]:
    url = await fresh_database("smriti_reliability")
    rows = []
    with tempfile.TemporaryDirectory(prefix="smriti-reliability-") as work:
        root = Path(work)
        for name, scenario in (
            ("outage", database_outage),
            ("kill", lambda path: api_killed(path, url)),
            ("provider", lambda path: slow_provider(path, url)),
            ("soak", lambda path: soak(path, url, seconds=soak_seconds)),
        ):
            path = root / name
            path.mkdir()
            print(f"running: {name} …", flush=True)
            outcome = await scenario(path)
            rows.append(outcome.row | {"problems": outcome.consistency.lost[:5] + outcome.consistency.broken[:5]})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--soak-seconds", type=float, default=60)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "reliability.json")
    args = parser.parse_args()
    rows = asyncio.run(run(args.soak_seconds))
    columns = f"{'scenario':<36} {'requests':>8} {'2xx':>7}  {'errors by status':<28} {'faults':<22}"
    header = f"{columns} {'checked':>7} {'lost':>4}"
    print("\n" + header)
    print("-" * len(header))
    for row in rows:
        errors = ", ".join(f"{'no answer' if s == 0 else s}: {n}" for s, n in row["errors"].items()) or "none"
        print(
            f"{row['scenario']:<36} {row['requests']:>8} {row['acknowledged']:>7}  {errors:<28} {row['faults']:<22} "
            f"{row['checked']:>7} {row['lost'] + row['broken']:>4}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2, default=str))
    failed = any(row["lost"] or row["broken"] for row in rows)
    print(f"\ndata lost: {'NONE' if not failed else 'YES — see ' + str(args.out)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
