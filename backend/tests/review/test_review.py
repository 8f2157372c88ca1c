"""On-demand review: one hand-made Checkpoint per finding kind, a clean one, and a model's additions."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.api import commit, create_space
from tests.support.fake_providers import FakeProviderServer


async def _review(client: httpx.AsyncClient, fields: dict[str, Any], **body: Any) -> dict[str, Any]:
    space = await create_space(client)
    saved = await commit(client, space["id"], "Under review", **fields)
    response = await client.post(f"/v5/commits/{saved['id']}/review", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    assert result["commit_id"] == saved["id"]
    return result


def _kinds(result: dict[str, Any]) -> list[tuple[str, list[tuple[str, int]]]]:
    return [(f["kind"], [(r["field"], r["index"]) for r in f["refs"]]) for f in result["findings"]]


async def test_clean_checkpoint_has_no_findings(client: httpx.AsyncClient) -> None:
    result = await _review(
        client,
        {
            "decisions": ["Use PostgreSQL for storage", "Deploy on Fridays only"],
            "assumptions": ["Traffic stays under 100 requests per second"],
            "tasks": [{"text": "Tune PostgreSQL autovacuum"}],
            "open_questions": ["Do we need read replicas?"],
            "entities": [{"name": "PostgreSQL", "kind": "database"}],
        },
    )
    assert result["findings"] == []
    assert result["reviewed_by"]["provider"] == "offline"


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {"decisions": ["Use PostgreSQL for storage", "Cache sessions", "Use MongoDB for storage"]},
            [("contradiction", [("decisions", 0), ("decisions", 2)])],
        ),
        (
            {"decisions": ["Send emails synchronously"], "assumptions": ["We send emails asynchronously"]},
            [("contradiction", [("decisions", 0), ("assumptions", 0)])],
        ),
        (
            {"decisions": ["Cache API responses", "Do not cache API responses"]},
            [("contradiction", [("decisions", 0), ("decisions", 1)])],
        ),
        (
            {
                "decisions": ["Ship the desktop app first because most users work on laptops"],
                "assumptions": ["The budget covers one platform"],
            },
            [("hidden_assumption", [("decisions", 0)])],
        ),
        (
            {
                "decisions": ["Stay in Baixa"],
                "open_questions": ["Do we rent a car?", "Should we stay in Alfama or Baixa?"],
            },
            [("resolved_question", [("open_questions", 1), ("decisions", 0)])],
        ),
        (
            {
                "decisions": ["Use PostgreSQL for storage"],
                "entities": [{"name": "PostgreSQL"}, {"name": "Redis", "kind": "cache"}],
            },
            [("disconnected_entity", [("entities", 1)])],
        ),
    ],
)
async def test_each_finding_kind_points_at_its_items(
    client: httpx.AsyncClient, fields: dict[str, Any], expected: list[Any]
) -> None:
    result = await _review(client, fields)
    assert _kinds(result) == expected
    assert all(f["source"] == "rules" and len(f["detail"]) > 20 for f in result["findings"])


async def test_rival_choices_are_contradictions_that_say_their_kind(client: httpx.AsyncClient) -> None:
    """Issue 44: a negation of "use X" and two values for one slot were not found; each kind is named."""
    result = await _review(
        client,
        {
            "decisions": [
                "Use PostgreSQL as the only database",
                "Do not use PostgreSQL; use MySQL instead",
                "Stay in Baixa",
                "Stay in Graca",
            ],
            "assumptions": ["The budget is 3000 euros"],
        },
    )
    rivals = [(f["kind"], f["rival"], [(r["field"], r["index"]) for r in f["refs"]]) for f in result["findings"]]
    assert rivals == [
        ("contradiction", "negation", [("decisions", 0), ("decisions", 1)]),
        ("contradiction", "same_slot", [("decisions", 2), ("decisions", 3)]),
    ]
    assert "“Graca”, not “Baixa”" in result["findings"][1]["detail"]


async def test_hidden_assumption_recorded_as_assumption_is_not_reported(client: httpx.AsyncClient) -> None:
    result = await _review(
        client,
        {
            "decisions": ["Ship the desktop app first because most users work on laptops"],
            "assumptions": ["Most of our users work on laptops"],
        },
    )
    assert result["findings"] == []


async def test_model_findings_are_added_without_duplicates(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    fake_providers.state.reply = json.dumps(
        {
            "findings": [
                # Same as a rule finding: merged away.
                {
                    "kind": "disconnected_entity",
                    "detail": "Redis is unused.",
                    "refs": [{"field": "entities", "index": 0}],
                },
                # Something rules cannot see: kept.
                {
                    "kind": "hidden_assumption",
                    "detail": "Caching sessions assumes they are small.",
                    "refs": [{"field": "decisions", "index": 0}],
                },
                # Points at an item that does not exist: dropped.
                {"kind": "contradiction", "detail": "Nonsense.", "refs": [{"field": "decisions", "index": 7}]},
            ]
        }
    )
    result = await _review(
        client,
        {"decisions": ["Cache sessions in memory"], "entities": [{"name": "Redis"}]},
        provider="openai",
    )
    assert [(f["kind"], f["source"]) for f in result["findings"]] == [
        ("disconnected_entity", "rules"),
        ("hidden_assumption", "model"),
    ]
    assert result["reviewed_by"] == {"provider": "openai", "model": "gpt-test"}
    (body,) = fake_providers.state.bodies("/chat/completions")
    assert "decisions[0]: Cache sessions in memory" in body["messages"][1]["content"]


async def test_unusable_model_review_is_502(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    fake_providers.state.reply = '{"findings": [{"kind": "vibes", "detail": "x", "refs": []}]}'
    space = await create_space(client)
    saved = await commit(client, space["id"], "x", decisions=["a decision"])
    response = await client.post(f"/v5/commits/{saved['id']}/review", json={"provider": "anthropic"})
    assert response.status_code == 502
    assert response.json()["provider"] == "anthropic"


async def test_review_bad_input(client: httpx.AsyncClient) -> None:
    missing = await client.post("/v5/commits/00000000-0000-0000-0000-000000000000/review", json={})
    assert missing.status_code == 404
    space = await create_space(client)
    saved = await commit(client, space["id"], "x")
    unknown = await client.post(f"/v5/commits/{saved['id']}/review", json={"provider": "nope"})
    assert unknown.status_code == 400
    assert unknown.json()["errors"][0]["field"] == "provider"
