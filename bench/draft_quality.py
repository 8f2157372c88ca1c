"""How well the offline extractor drafts Checkpoints: precision and recall per field.

    make bench-draft        (or: .venv/bin/python bench/draft_quality.py)

The 12 conversations in bench/draft/conversations.json (software design, travel planning,
research, writing) carry the decisions, assumptions, tasks and open questions a careful person
would extract. An extracted item counts as correct when it matches an expected item of the same
field: at least 60% of the shorter item's content words (and at least two, unless it has only one)
appear in the other, ignoring empty verbs such as "use" or "go"; each expected item matches once.

bench/draft/holdout.json holds 12 more conversations written blind by someone who had not seen the
extractor; it is scored too, and is the honest figure for unseen phrasing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from smriti.rules.extract import SourceTurn, extract
from smriti.rules.words import content_words

HERE = Path(__file__).resolve().parent
FIELDS = ("decisions", "assumptions", "tasks", "open_questions")
AIMS = {"decisions": (0.8, 0.6), "tasks": (0.8, 0.6)}


# Verbs that carry no meaning of their own in "use X", "go with X", "keep X".
_GENERIC = {"use", "go", "make", "keep", "put", "hold", "do", "get", "take", "lets"}


def matches(expected: str, extracted: str) -> bool:
    """Same item, said shorter or longer: most of the shorter one's words are in the other."""
    want, got = content_words(expected) - _GENERIC, content_words(extracted) - _GENERIC
    if not want or not got:
        return False
    overlap = len(want & got)
    shorter = min(len(want), len(got))
    return overlap >= min(2, shorter) and overlap / shorter >= 0.6


def score(expected: list[str], extracted: list[str]) -> tuple[int, list[str], list[str]]:
    """(correct, unmatched extracted, missed expected) with one-to-one greedy matching."""
    remaining = list(expected)
    wrong = []
    correct = 0
    for item in extracted:
        hit = next((want for want in remaining if matches(want, item)), None)
        if hit is None:
            wrong.append(item)
        else:
            remaining.remove(hit)
            correct += 1
    return correct, wrong, remaining


def main() -> int:
    verbose = "-v" in sys.argv
    failed = False
    for name, enforce in (("conversations.json", True), ("holdout.json", False)):
        print(f"\n{name}{'' if enforce else ' (written blind, not tuned on)'}:")
        failed |= evaluate(json.loads((HERE / "draft" / name).read_text()), verbose=verbose) and enforce
    return 1 if failed else 0


def evaluate(conversations: list[dict[str, Any]], *, verbose: bool) -> bool:
    """Print the table; True when an aim is not met."""
    totals = {field: [0, 0, 0] for field in FIELDS}  # correct, extracted, expected
    for conversation in conversations:
        turns = [SourceTurn(n, role, text) for n, (role, text) in enumerate(conversation["turns"], start=1)]
        found = extract(turns)
        extracted = {
            "decisions": found.decisions,
            "assumptions": found.assumptions,
            "tasks": [text for text, _ in found.tasks],
            "open_questions": found.open_questions,
        }
        for field in FIELDS:
            correct, wrong, missed = score(conversation["expected"][field], extracted[field])
            totals[field][0] += correct
            totals[field][1] += len(extracted[field])
            totals[field][2] += len(conversation["expected"][field])
            if verbose and (wrong or missed):
                print(f"{conversation['id']} {field}: extra {wrong} missed {missed}")
    print(f"{'field':<16} {'precision':>9} {'recall':>7} {'correct':>8} {'extracted':>10} {'expected':>9}  aim")
    failed = False
    for field in FIELDS:
        correct, extracted_count, expected_count = totals[field]
        precision = correct / extracted_count if extracted_count else 1.0
        recall = correct / expected_count if expected_count else 1.0
        aim = AIMS.get(field)
        verdict = ""
        if aim:
            ok = precision >= aim[0] and recall >= aim[1]
            failed |= not ok
            verdict = f"P ≥ {aim[0]}, R ≥ {aim[1]}: {'met' if ok else 'NOT met'}"
        counts = f"{correct:>8} {extracted_count:>10} {expected_count:>9}"
        print(f"{field:<16} {precision:>9.2f} {recall:>7.2f} {counts}  {verdict}")
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
