"""What the offline review costs on the largest Checkpoints a client can send (issue 42 item 12).

    make bench-review        (or: .venv/bin/python bench/review_cost.py)

The review rules run in the API process's worker thread (`review.rules.review_by_rules`); this
runs them in-process, with no server, on five shapes of Checkpoint near the 1 MiB body limit, each
at a quarter of its size and at its size. For each: the process's CPU time (the least of three
runs), the growth from a quarter to the whole (4 is linear; the search per entity it replaced
grew 16-fold), how many of the contradiction rule's clause comparisons were spent, and whether
`limits` says a rule stopped.

Run it on another tree to compare: `PYTHONPATH=<tree>/backend/src .venv/bin/python bench/review_cost.py`
(the shapes are built here; only the rules come from that tree; before issue 42 there is no
`review_by_rules`, and `run_rules` is timed instead).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
from draft_quality import review_checkpoint

from smriti.checkpoints.schemas import Checkpoint
from smriti.review import rules

PLACES = ("Baixa", "Alfama", "Belém", "Sintra", "Cascais", "Porto")


@dataclass
class Shape:
    name: str
    what: str
    build: Callable[[float], Checkpoint]
    """The Checkpoint at a scale: 1.0 is near the 1 MiB body limit."""


@dataclass
class Row:
    shape: str
    kilobytes: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    spent: int | None = None
    limits: list[str] = field(default_factory=list)


def checkpoint(
    decisions: list[str] | None = None,
    assumptions: list[str] | None = None,
    questions: list[str] | None = None,
    tasks: list[str] | None = None,
    entities: list[str] | None = None,
) -> Checkpoint:
    fields = {"decisions": decisions, "assumptions": assumptions, "open_questions": questions, "tasks": tasks}
    return review_checkpoint({name: items for name, items in {**fields, "entities": entities}.items() if items})


def entities_and_items(scale: float) -> Checkpoint:
    items = [f"Decide item{i:05d} with some ordinary words about the project plan" for i in range(int(9_000 * scale))]
    return checkpoint(
        items[:300],
        items[300:600],
        tasks=items[600:],
        entities=[f"Entity{i:05d}x" for i in range(int(2_500 * scale))],
    )


def many_clauses(scale: float) -> Checkpoint:
    clauses = int(60 * scale)
    said = ["; ".join(f"stay in place{(i + j) % 50}, not town{j}" for j in range(clauses)) for i in range(600)]
    return checkpoint(said[:300], said[300:])


def phrase_names(scale: float) -> Checkpoint:
    words = "ab"
    tasks = [" ".join(words[(i * 7 + j * 3) % 2] for j in range(50)) + f" c-a {i}" for i in range(int(3_000 * scale))]
    names = ["-".join(words[(i >> j) & 1] for j in range(12)) + f"-{i % 997}-c" for i in range(int(10_000 * scale))]
    return checkpoint(tasks=tasks, entities=names)


def long_questions(scale: float) -> Checkpoint:
    words = " ".join(f"w{j}" for j in range(int(360 * scale)))
    return checkpoint(
        [f"Which {words} Lisbon {i}" for i in range(300)], questions=[f"Which {words} city {i}?" for i in range(300)]
    )


def ordinary_at_the_cap(scale: float) -> Checkpoint:
    n = int(300 * scale)
    return checkpoint(
        [f"Stay in {PLACES[i % 6]}, not {PLACES[(i + 1) % 6]}, on night {i}" for i in range(n)],
        [f"The hotel in {PLACES[i % 6]} has rooms free on night {i}" for i in range(n)],
        [f"Should we eat in {PLACES[i % 6]} or {PLACES[(i + 2) % 6]} on night {i}?" for i in range(n)],
        tasks=[f"Book the table for night {i}" for i in range(n)],
        entities=[PLACES[i % 6] if i < 6 else f"Guest {i}" for i in range(n)],
    )


SHAPES = (
    Shape("entities × items", "2,500 entities no item names, 9,000 items (the issue's shape)", entities_and_items),
    Shape("many clauses", "300 decisions and 300 assumptions of 60 clauses each", many_clauses),
    Shape("phrase names", "10,000 names of words the text has, none of them a phrase of it", phrase_names),
    Shape("long questions", "300 questions and 300 decisions of 360 shared words", long_questions),
    Shape(
        "ordinary, at the cap", "300 each of decisions, assumptions, questions, tasks, entities", ordinary_at_the_cap
    ),
)


def review(cp: Checkpoint) -> list[str]:
    """What the API runs: the rules' findings and limits (on a tree before issue 42, `run_rules`)."""
    if not hasattr(rules, "review_by_rules"):
        rules.run_rules(cp)
        return []
    return rules.review_by_rules(cp)[1]


def clause_comparisons(cp: Checkpoint) -> int | None:
    """How much of the contradiction rule's budget the Checkpoint spends (None before issue 42)."""
    if not hasattr(rules, "ClauseBudget"):
        return None
    budget = rules.ClauseBudget()
    for _ in rules.contradictions(cp, budget):
        pass
    return rules.MAX_CLAUSE_COMPARISONS - budget.left


def cpu(run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    print(f"Offline review, in-process CPU time (least of 3), {datetime.datetime.now():%Y-%m-%d %H:%M}")
    print(f"{'shape':<22} {'KB':>11} {'seconds':>15} {'growth':>6} {'clauses':>10}  limits")
    for shape in SHAPES:
        row = Row(shape.name)
        for scale in (0.25, 1.0):
            cp = shape.build(scale)
            row.kilobytes.append(len(msgspec.json.encode(cp)) // 1024)
            row.seconds.append(cpu(lambda cp=cp: review(cp)))  # type: ignore[misc]
            row.limits, row.spent = review(cp), clause_comparisons(cp)
        growth = row.seconds[1] / row.seconds[0] if row.seconds[0] else float("nan")
        spent = f"{row.spent:,}" if row.spent is not None else "-"
        stopped = "contradiction rule stopped" if any("stopped" in line for line in row.limits) else "-"
        print(
            f"{row.shape:<22} {row.kilobytes[0]:>5}/{row.kilobytes[1]:<5} "
            f"{row.seconds[0]:>7.2f}/{row.seconds[1]:<7.2f} {growth:>6.1f} {spent:>10}  {stopped}"
        )
        print(f"  {shape.what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
