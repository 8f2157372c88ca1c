"""Rival choices a merge brings together: pairs of the merged state's decisions and assumptions
that make rival choices (`review/rivals.py`, the review's own detector) and that neither line had
together.

The item rules merge decisions by their text, so two lines that each changed one decision
differently ("Stay in Alfama" became "Stay in Baixa" on one and "Stay in Graca" on the other)
merge cleanly and keep both: no conflict, yet both cannot hold. A pair that one line already
had is that line's own contradiction (its review reports it); only the pairs the merge makes are
listed, so a person sees them before saving.
"""

from __future__ import annotations

from smriti.merges.schemas import MergeState
from smriti.review.rivals import ClauseBudget, Ref, rivals
from smriti.review.schemas import RivalChoice

_FIELDS = ("decisions", "assumptions")


def merge_rivals(merged: MergeState, ours: MergeState, theirs: MergeState) -> tuple[list[RivalChoice], list[str]]:
    """The rival pairs of `merged` that neither side had together, and what the search left out."""
    texts = {field: getattr(merged, field) for field in _FIELDS}
    in_ours = {field: set(getattr(ours, field)) for field in _FIELDS}
    in_theirs = {field: set(getattr(theirs, field)) for field in _FIELDS}

    def from_both(side: dict[str, set[str]]) -> bool:
        return all(text in side[field] for field, items in texts.items() for text in items)

    if from_both(in_ours) or from_both(in_theirs):
        return [], []  # every item is one line's: every pair is that line's own

    def made_by_the_merge(left: Ref, right: Ref) -> bool:
        items = (texts[left[0]][left[1]], left[0]), (texts[right[0]][right[1]], right[0])
        return not all(text in in_ours[field] for text, field in items) and not all(
            text in in_theirs[field] for text, field in items
        )

    budget = ClauseBudget()
    found = list(rivals(merged.decisions, merged.assumptions, budget, wanted=made_by_the_merge))
    return found, budget.limits()
