"""The token-count rows of `make bench` (issue 42, item 1): counting an unbroken run with a model's
own tokenizer is linear in its length.

In-process, `smriti.providers.tokenizers.count_tokens` with o200k_base (what gpt-4o, gpt-4.1 and
gpt-5 count with) over 100 KB and 1 MB of: ordinary prose (the floor: short pieces, each merged
as tiktoken does), one letter repeated, a DNA sequence, Chinese without punctuation, and one
dash repeated (the walk's budget runs out on that one, and the count is the estimate). The time
is the counting thread's CPU time, the median of five counts after one to warm the caches up.

Targets: for each run, 1 MB takes at most 12× the time of 100 KB (linear; quadratic would be
100×); and the table shows each against prose of the same size.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from report import Report

from smriti.providers.tokenizers import count_tokens

ENCODING = "o200k_base"
SIZES = (100_000, 1_000_000)
REPEATS = 5

_CHINESE = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而"


def _prose(n: int, _: random.Random) -> str:
    return ("The patient was stable overnight; we decided to keep the dose. " * (n // 60 + 1))[:n]


def _letter(n: int, _: random.Random) -> str:
    return "x" * n


def _dna(n: int, rng: random.Random) -> str:
    return "".join(rng.choice("ACGT") for _ in range(n))


def _chinese(n: int, rng: random.Random) -> str:
    return "".join(rng.choice(_CHINESE) for _ in range(n // 3))  # three bytes a character


def _dashes(n: int, _: random.Random) -> str:
    return "-" * n


RUNS: dict[str, Callable[[int, random.Random], str]] = {
    "prose": _prose,
    "one letter repeated": _letter,
    "DNA": _dna,
    "Chinese, no punctuation": _chinese,
    "one dash repeated": _dashes,
}


def _cpu_s(text: str) -> tuple[float, bool]:
    count_tokens(ENCODING, [text])  # the caches, as a server that has counted before has them
    times = []
    exact = True
    for _ in range(REPEATS):
        started = time.thread_time()
        exact = count_tokens(ENCODING, [text]).exact
        times.append(time.thread_time() - started)
    return statistics.median(times), exact


def run_tokens(report: Report) -> None:
    rng = random.Random(42)  # noqa: S311 (the same texts every run, not secrets)
    rows = []
    for kind, make in RUNS.items():
        measured = {size: _cpu_s(make(size, rng)) for size in SIZES}
        rows.append(
            {
                "run": kind,
                **{f"ms_{size // 1000}k": round(1000 * seconds, 1) for size, (seconds, _) in measured.items()},
                "exact": all(exact for _, exact in measured.values()),
                "growth_10x": round(measured[SIZES[1]][0] / measured[SIZES[0]][0], 2),
            }
        )
    report.growth["tokens"] = rows
    print(f"\n{'token count, o200k_base':<28} {'100 KB ms':>10} {'1 MB ms':>10} {'1 MB/100 KB':>12} ", end="")
    print(f"{'× prose':>8}  exact")
    prose = rows[0]["ms_1000k"]
    for row in rows:
        print(
            f"{row['run']:<28} {row['ms_100k']:>10.1f} {row['ms_1000k']:>10.1f} {row['growth_10x']:>12.2f} "
            f"{row['ms_1000k'] / prose:>8.1f}  {'yes' if row['exact'] else 'estimated'}"
        )


def evaluate_tokens(report: Report) -> None:
    for row in report.growth.get("tokens", []):
        report.target(f"tokens: 1 MB ≤ 12× 100 KB, {row['run']}", row["growth_10x"], "≤ 12", row["growth_10x"] <= 12)
