"""The offline draft of a short Lisbon-trip conversation: what issue 21 (item 14) saw go wrong.

Each test is one failure a new user met: two tasks in one message merged into one, a plan
("we'll do Sintra on day 3") missed as a decision, a backticked phrase taken for the only entity
while the places were left out, and a summary ending "staying in?.".
"""

from __future__ import annotations

import re

import pytest

from smriti.rules.extract import Extraction, SourceTurn, extract

LISBON = [
    ("user", "Four nights in Lisbon with Marta in May: which neighbourhood should we be staying in?"),
    (
        "assistant",
        "Baixa is flat and central, close to the metro; Alfama is charming but hilly and hard with luggage. "
        "Portugal uses type F sockets, so bring an `adapter type F` for your chargers.",
    ),
    ("user", "Let's stay in Baixa then. I'll book the hotel and sort out the Lisboa Card tonight."),
    (
        "assistant",
        "Good plan. Sintra is an easy day trip by train from Rossio; go early on a weekday to beat the crowds.",
    ),
    ("user", "Great, we'll do Sintra on day 3."),
]


@pytest.fixture(scope="module")
def draft() -> Extraction:
    return extract([SourceTurn(n, role, text) for n, (role, text) in enumerate(LISBON, start=1)])


def test_two_tasks_in_one_sentence_are_two_tasks(draft: Extraction) -> None:
    assert [text for text, _ in draft.tasks] == ["Book the hotel", "Sort out the Lisboa Card tonight"]


def test_a_plan_for_a_day_is_a_decision_not_a_task(draft: Extraction) -> None:
    assert draft.decisions == ["Stay in Baixa", "Do Sintra on day 3"]
    assert all("Sintra" not in text for text, _ in draft.tasks)


def test_the_decision_closes_the_question_it_answers() -> None:
    # "Stay in Baixa" answers "which neighbourhood should we be staying in?" ("staying" is "stay").
    turns = [
        SourceTurn(1, "user", "Which neighbourhood should we be staying in?"),
        SourceTurn(2, "assistant", "Baixa is flat and central; Alfama is charming but hilly."),
        SourceTurn(3, "user", "Let's stay in Baixa."),
    ]
    found = extract(turns)
    assert found.decisions == ["Stay in Baixa"]
    assert found.open_questions == []


def test_entities_are_the_places_not_a_backticked_phrase(draft: Extraction) -> None:
    names = [name for name, _ in draft.entities]
    assert {"Lisbon", "Baixa", "Sintra"} <= set(names)
    assert "adapter type F" not in names


def test_summary_punctuation_is_not_broken(draft: Extraction) -> None:
    assert "staying in?" in draft.summary
    assert not re.search(r"[?!.…][.?!]", draft.summary), draft.summary
    assert draft.summary.endswith(".")


def test_work_on_a_weekday_stays_a_task() -> None:
    found = extract([SourceTurn(1, "user", "We'll do Monday's report first.")])
    assert found.decisions == []
    assert [text for text, _ in found.tasks] == ["Do Monday's report first"]
