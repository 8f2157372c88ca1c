"""Rival choices among a Checkpoint's decisions and assumptions: the one detector behind the
review's contradictions (`review/rules.py`) and the merge preview's `rivals`
(`merges/service.py`), so the two never disagree about a pair.

Every decision is compared with every later decision and with every assumption
(`statements.contradicts`). Pure and deterministic; bounded twice, because a Checkpoint may hold
thousands of items: the first `MAX_COMPARED` of each field are compared (at most ~135,000 pairs),
and all the pairs together may cost `MAX_CLAUSE_COMPARISONS` clause comparisons
(`statements.cost`), after which the search stops and says so (`ClauseBudget.limits`). Two
items that share no word cost one set look-up; a pair's slot comparison is bounded by
`slots.MAX_SLOT_TOKENS`. Callers with more than a few items run it off the event loop
(`core/cpu.off_loop`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from smriti.core.cpu import keep_going
from smriti.review.schemas import ItemRef, RivalChoice
from smriti.review.statements import contradicts, statement
from smriti.review.statements import cost as comparison_cost

MAX_COMPARED = 300
"""Items per field the pairwise rules compare: 300 decisions and 300 assumptions are ~135,000
pairs, well under a second; a Checkpoint's size is bounded only by the body limit."""

MAX_CLAUSE_COMPARISONS = 5_000_000
"""What the rival search may compare in all, in clauses (`statements.cost`). The item cap bounds
the pairs, not what one pair costs: two decisions of a hundred clauses each are ten thousand
clause comparisons, and 300 decisions of twenty took 22 s at 340 KB (issue 42). The other rules
cost at most `MAX_COMPARED` set look-ups per word of the Checkpoint; this one alone grows with
clauses × clauses. Ordinary Checkpoints at the item cap spend a tenth of it
(`bench/review_cost.py`); about a second of work on this machine when spent."""

MAX_RIVALS = 200
"""Pairs listed at most. Without it, 300 decisions that all fill one slot ("Use tool1 for
storage", "Use tool2 for storage"…) were 44,850 findings: 15 MB of answer for 7.7 KB of
Checkpoint. Past this many, a person has enough to resolve first; the search stops and says so."""

Ref = tuple[str, int]
"""(field, index): "decisions", 2 is the third decision."""


@dataclass(slots=True)
class ClauseBudget:
    """What the rival search has left to compare, and where it stopped if it ran out."""

    left: int = MAX_CLAUSE_COMPARISONS
    stopped: tuple[int, int] | None = None
    """(pairs compared, pairs in all) when it ran out."""
    listed: int = 0
    full: tuple[int, int] | None = None
    """(pairs compared, pairs in all) when `MAX_RIVALS` pairs were listed and it stopped."""

    def limits(self) -> list[str]:
        if self.full is not None:
            compared, total = self.full
            return [
                f"The contradiction rule listed {MAX_RIVALS} pairs of rival choices after comparing {compared:,} of "
                f"{total:,} pairs of decisions and assumptions, then stopped: it lists no more. Resolve these and "
                "review again to see the rest."
            ]
        if self.stopped is None:
            return []
        compared, total = self.stopped
        return [
            f"The contradiction rule compared {compared:,} of {total:,} pairs of decisions and assumptions, then "
            f"stopped: its {MAX_CLAUSE_COMPARISONS:,} clause comparisons were spent (a pair costs its items' "
            "clauses multiplied, so long items of many clauses cost most). Split such items to have every pair "
            "compared."
        ]


def _quote(text: str, limit: int = 90) -> str:
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"


def _label(field: str, index: int) -> str:
    return {"decisions": "Decision", "assumptions": "Assumption"}[field] + f" {index + 1}"


def rivals(
    decisions: Sequence[str],
    assumptions: Sequence[str],
    budget: ClauseBudget,
    *,
    wanted: Callable[[Ref, Ref], bool] | None = None,
) -> Iterator[RivalChoice]:
    """The pairs that make rival choices, in order: decision with decision, then with assumption.
    `wanted` (earlier item, later item) leaves a pair out before it is compared or costs anything."""
    texts = {"decisions": decisions[:MAX_COMPARED], "assumptions": assumptions[:MAX_COMPARED]}
    read = {field: [statement(text) for text in items] for field, items in texts.items()}
    n_decisions, n_assumptions = len(read["decisions"]), len(read["assumptions"])
    pairs: list[tuple[Ref, Ref]] = [
        (("decisions", i), ("decisions", j)) for i in range(n_decisions) for j in range(i + 1, n_decisions)
    ]
    pairs += [(("decisions", i), ("assumptions", j)) for i in range(n_decisions) for j in range(n_assumptions)]
    for compared, (left, right) in enumerate(pairs):
        if compared % 1024 == 0:
            keep_going()  # the rules' longest loop: a review ends when the server stops
        if wanted is not None and not wanted(left, right):
            continue
        earlier, later = read[left[0]][left[1]], read[right[0]][right[1]]
        budget.left -= comparison_cost(later, earlier)
        if budget.left < 0:
            budget.stopped = (compared, len(pairs))
            return
        found = contradicts(later, earlier)
        if found:
            if budget.listed == MAX_RIVALS:
                budget.full = (compared, len(pairs))
                return
            budget.listed += 1
            yield RivalChoice(
                kind=found.kind,
                refs=[ItemRef(left[0], left[1]), ItemRef(right[0], right[1])],  # type: ignore[arg-type]
                detail=(
                    f"{_label(*right)} {_quote(texts[right[0]][right[1]])} {found.how} "
                    f"{_label(*left).lower()} {_quote(texts[left[0]][left[1]])}. "
                    "Both cannot hold: keep one, or say when each applies."
                ),
            )
