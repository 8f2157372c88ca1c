"""The review rules on their own (no database): negations and rival choices that differ by more
than a word or two, and the findings that must not be reported (a wrong finding costs more than a
missed one)."""

from __future__ import annotations

import datetime
import time
import uuid
from collections.abc import Callable

import pytest

from smriti.checkpoints.schemas import Checkpoint, Entity, Task
from smriti.review.rivals import MAX_RIVALS
from smriti.review.rules import (
    MAX_CLAUSE_COMPARISONS,
    ClauseBudget,
    contradictions,
    hidden_assumptions,
    review_by_rules,
    run_rules,
)
from smriti.review.slots import MAX_SLOT_TOKENS, slot_form


def checkpoint(
    decisions: list[str] | None = None,
    assumptions: list[str] | None = None,
    open_questions: list[str] | None = None,
    tasks: list[str] | None = None,
    entities: list[str] | None = None,
) -> Checkpoint:
    return Checkpoint(
        id=uuid.uuid4(),
        repo_id=uuid.uuid4(),
        parent_commit_id=None,
        merge_parent_id=None,
        commit_hash="0" * 64,
        message="Under review",
        summary="",
        decisions=decisions or [],
        assumptions=assumptions or [],
        tasks=[Task(text=t) for t in tasks or []],
        open_questions=open_questions or [],
        entities=[Entity(name=e) for e in entities or []],
        artifacts=[],
        metadata={},
        created_at=datetime.datetime.now(datetime.UTC),
    )


def found(cp: Checkpoint) -> list[tuple[str, list[tuple[str, int]]]]:
    return [(f.kind, sorted((r.field, r.index) for r in f.refs)) for f in run_rules(cp)]


def test_a_rejected_option_chosen_elsewhere_is_a_contradiction() -> None:
    cp = checkpoint(["Stay in Baixa, not Alfama", "Stay in Alfama for the last night"])
    assert found(cp) == [("contradiction", [("decisions", 0), ("decisions", 1)])]


@pytest.mark.parametrize(
    ("decisions", "assumptions"),
    [
        (["Don't rent a car", "Rent a car for the Sintra day trip"], []),
        (["Use PostgreSQL instead of MongoDB", "Use MongoDB for the audit log"], []),
        (["Do not hire a DJ for the reception", "Book the DJ that Priya recommended for the reception"], []),
        (["Ship the Android app in the first release"], ["We won't ship an Android app"]),
    ],
)
def test_a_negation_or_a_rival_choice_a_few_words_apart_is_a_contradiction(
    decisions: list[str], assumptions: list[str]
) -> None:
    kinds = [kind for kind, _ in found(checkpoint(decisions, assumptions))]
    assert kinds == ["contradiction"]


@pytest.mark.parametrize(
    "decisions",
    [
        # Different things done, not the same thing done and not done.
        ["Don't store passwords in plain text", "Store passwords with bcrypt"],
        ["Stay in Baixa", "Eat dinner in Alfama on the last night"],
        ["Use PostgreSQL for storage", "Use Redis for caching"],
        ["Skip the museum on Monday", "Visit the castle on Monday"],
    ],
)
def test_statements_that_can_both_hold_are_not_a_contradiction(decisions: list[str]) -> None:
    assert found(checkpoint(decisions)) == []


@pytest.mark.parametrize(
    ("decisions", "assumptions", "kind"),
    [
        # Issue 44: "use" is a stop word, so each side had one word of its own, too few to compare.
        (["Use PostgreSQL as the only database", "Do not use PostgreSQL; use MySQL instead"], [], "negation"),
        (["Use pandas for data cleaning", "Do not use pandas"], [], "negation"),
        (["Use MySQL instead of PostgreSQL", "Use PostgreSQL"], [], "ruled_out"),
        # A thing ruled out "instead of" is taken up by any choosing verb, not only the same one.
        (["Order pizza instead of a caterer", "Book a caterer for the dessert"], [], "ruled_out"),
        # Two values for one slot.
        (["Stay in Baixa", "Stay in Graca"], [], "same_slot"),
        (["Budget is 2000", "Budget is 3000"], [], "same_slot"),
        (["Budget is 2000 euros"], ["The budget is 3000 euros"], "same_slot"),
        (["The ticket price is 120 euros", "Ticket price: 150 euros"], [], "same_slot"),
        (["Set the connection pool size to 20", "Set the connection pool size to 50"], [], "same_slot"),
        (["Hold the party on Saturday 14 June", "Hold the party on Sunday 15 June"], [], "same_slot"),
        (["Deploy the API to Fly.io", "Deploy the API to Render"], [], "same_slot"),
        (["Use PostgreSQL for storage", "Use MongoDB for storage"], [], "same_slot"),
    ],
)
def test_rival_choices_are_contradictions_of_their_kind(
    decisions: list[str], assumptions: list[str], kind: str
) -> None:
    findings = run_rules(checkpoint(decisions, assumptions))
    assert [(f.kind, f.rival) for f in findings] == [("contradiction", kind)]


@pytest.mark.parametrize(
    "decisions",
    [
        # Items that share words, or a frame that takes many values: both can hold.
        ["Stay in Lisbon for three nights", "Stay in Porto for two nights"],
        ["Invite Alice", "Invite Bob"],
        ["Use PostgreSQL", "Use Redis"],
        ["Submit to Granta by 1 March", "Submit to the Paris Review by 1 March"],
        ["The API is public", "The API is versioned"],
        ["Review chapter 3 with Anna", "Review chapter 4 with Anna"],
        ["Use Redis for caching", "Do not use Redis for sessions"],
        ["Collect data for 6 weeks", "Analyse data for 2 weeks"],
        ["Use Sentry for error tracking", "Use Grafana for dashboards"],
        # Identifiers that hold digits name two things, not two amounts for one (bench/review_cost.py).
        ["Decide item00001 with the project plan", "Decide item00002 with the project plan"],
    ],
)
def test_items_that_merely_share_words_are_not_rival_choices(decisions: list[str]) -> None:
    assert found(checkpoint(decisions)) == []


def test_a_long_item_has_no_slot_so_comparing_two_costs_a_bounded_amount() -> None:
    short = "Stay in Baixa"
    long = short + " " + " ".join(f"word{i}" for i in range(MAX_SLOT_TOKENS))
    assert slot_form(short) is not None
    assert slot_form(long) is None
    assert found(checkpoint([long, long.replace("Baixa", "Graca")])) == []


def test_rival_pairs_are_listed_up_to_a_bound_and_the_review_says_so() -> None:
    """300 decisions that all fill one slot are 44,850 pairs: 15 MB of answer for 7.7 KB of
    Checkpoint before the bound (the old rule for one purpose had the same hole)."""
    cp = checkpoint([f"Use tool{i} for storage" for i in range(300)])
    findings, limits = review_by_rules(cp)
    assert len(findings) == MAX_RIVALS
    assert all(f.rival == "same_slot" for f in findings)
    assert len(limits) == 1
    assert limits[0].startswith(f"The contradiction rule listed {MAX_RIVALS} pairs of rival choices")


def test_an_option_word_inside_a_longer_alternative_does_not_resolve_a_question() -> None:
    # "Sintra" belongs to "rent a car for Sintra"; doing Sintra on day 3 does not say how to get there.
    cp = checkpoint(["Do Sintra on day 3"], open_questions=["Should we rent a car for Sintra or take the train?"])
    assert found(cp) == []


def test_an_entity_named_in_a_shorter_form_is_connected() -> None:
    cp = checkpoint(
        ["Host the API on Postgres 16"], entities=["PostgreSQL", "Ana"], tasks=["Ask Ana's team for access"]
    )
    assert found(cp) == []


def test_an_entity_inside_another_word_is_not_mentioned() -> None:
    cp = checkpoint(["Buy bananas for the picnic"], entities=["Ana"])
    assert found(cp) == [("disconnected_entity", [("entities", 0)])]


@pytest.mark.parametrize(
    "decision",
    [
        "Roll back if the error rate doubles",  # a condition to act on, not an assumption
        "Keep the nightly backups we have run since 2019",  # "since" as time, not as a reason
        "Don't take taxis at night without checking the price first",  # two negations: a positive rule
    ],
)
def test_conditions_and_time_are_not_hidden_assumptions(decision: str) -> None:
    assert found(checkpoint([decision, "Take a taxi from the airport"])) == []


def test_a_decision_that_answers_a_question_is_the_closest_one() -> None:
    cp = checkpoint(
        ["Rent a van for the move instead of hiring movers", "Move on the 14th"],
        open_questions=["When exactly do we move?"],
    )
    assert found(cp) == [("resolved_question", [("decisions", 1), ("open_questions", 0)])]


def test_ordinary_items_at_the_item_cap_are_all_compared() -> None:
    # 300 decisions, 300 assumptions and 300 questions that share vocabulary: ~225,000 pairs.
    places = ["Baixa", "Alfama", "Belém", "Sintra", "Cascais", "Porto"]
    decisions = [f"Stay in {places[i % 6]}, not {places[(i + 1) % 6]}, on night {i}" for i in range(300)]
    assumptions = [f"The hotel in {places[i % 6]} has rooms free on night {i}" for i in range(300)]
    questions = [f"Should we eat in {places[i % 6]} or {places[(i + 2) % 6]} on night {i}?" for i in range(300)]
    cp = checkpoint(decisions, assumptions, questions)
    budget = ClauseBudget()
    assert list(contradictions(cp, budget)) == []
    assert budget.stopped is None
    assert MAX_CLAUSE_COMPARISONS - budget.left < MAX_CLAUSE_COMPARISONS / 5, "far from the budget"
    assert review_by_rules(cp)[1] == []


def test_items_of_many_clauses_are_compared_until_the_budget_is_spent_and_the_review_says_so() -> None:
    """The item cap bounds the pairs, not a pair's cost: 40 decisions of 60 clauses each are 780
    pairs of ~11,000 clause comparisons each (issue 42: 300 of 20 clauses took 22 s)."""
    many = ["; ".join(f"stay in place{(i + j) % 50}, not town{j}" for j in range(60)) for i in range(40)]
    cp = checkpoint(["Cache API responses", "Do not cache API responses", *many])
    budget = ClauseBudget()
    found = [(f.kind, sorted((r.field, r.index) for r in f.refs)) for f in contradictions(cp, budget)]
    assert found == [("contradiction", [("decisions", 0), ("decisions", 1)])], "the pairs before the stop count"
    assert budget.stopped is not None
    compared, total = budget.stopped
    assert total == 42 * 41 // 2
    assert 0 < compared < total
    spent = MAX_CLAUSE_COMPARISONS - budget.left
    assert MAX_CLAUSE_COMPARISONS < spent < MAX_CLAUSE_COMPARISONS + 20_000, "no more than one pair past it"
    findings, limits = review_by_rules(cp)
    assert [f.kind for f in findings].count("contradiction") == 1
    assert limits == [
        f"The contradiction rule compared {compared:,} of {total:,} pairs of decisions and assumptions, then "
        f"stopped: its {MAX_CLAUSE_COMPARISONS:,} clause comparisons were spent (a pair costs its items' clauses "
        "multiplied, so long items of many clauses cost most). Split such items to have every pair compared."
    ]


def _cpu(run: Callable[[], object]) -> float:
    """The least CPU time of three runs (this process's own, so other work on the machine weighs little)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def test_one_long_decision_costs_its_length_not_its_length_squared() -> None:
    """A decision's words were read again for each "because" in it: one decision of 4,000 such
    clauses (191 KB) took 49.5 s. Four times the clauses, about four times the work; a ratio of
    two runs in one process, not a time (bench/review_cost.py measures time)."""
    recorded = [f"the server is fast{j} today" for j in range(7)]

    def review(clauses: int) -> Callable[[], object]:
        decision = " ".join(f"Use item{j} because the server is fast{j % 7} today." for j in range(clauses))
        cp = checkpoint([decision], recorded)
        return lambda: list(hidden_assumptions(cp))

    small, large = _cpu(review(250)), _cpu(review(1_000))
    assert large / small < 8, (small, large)
