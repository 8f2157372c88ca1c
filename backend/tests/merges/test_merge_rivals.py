"""The merge preview points out rival choices the merge brings together (issue 44 item 2): each
line changed one decision differently, the item rules keep both, and no conflict says so."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.support.api import commit, create_space


async def _lines(client: httpx.AsyncClient, base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """A Space whose main line (ours) and `other` line (theirs) both changed `base`."""
    space = await create_space(client, f"rivals-{uuid.uuid4().hex[:6]}")
    first = await commit(client, space["id"], "base", **base)
    line = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "other", "from_ref": first["id"]})
    assert line.status_code == 201, line.text
    await commit(client, space["id"], "ours", **ours)
    await commit(client, space["id"], "theirs", branch="other", **theirs)
    return str(space["id"])


async def _preview(client: httpx.AsyncClient, space_id: str, ours: str = "main", theirs: str = "other") -> Any:
    response = await client.get(f"/v5/repos/{space_id}/merge", params={"ours": ours, "theirs": theirs})
    assert response.status_code == 200, response.text
    return response.json()


def _texts(merged: dict[str, Any], rival: dict[str, Any]) -> tuple[str, ...]:
    return tuple(merged[ref["field"]][ref["index"]] for ref in rival["refs"])


async def test_both_lines_decided_where_to_stay_and_the_preview_says_so(client: httpx.AsyncClient) -> None:
    space_id = await _lines(
        client,
        {"decisions": ["Stay in Alfama", "Take the train to Sintra"]},
        # Ours also contradicts itself: that pair is its own (its review reports it), not the merge's.
        {
            "decisions": [
                "Stay in Baixa",
                "Take the train to Sintra",
                "Cache API responses",
                "Do not cache API responses",
            ]
        },
        {"decisions": ["Stay in Graca", "Take the train to Sintra"], "assumptions": ["The budget is 3000 euros"]},
    )
    preview = await _preview(client, space_id)
    assert preview["clean"] is True, "no conflict: the item rules keep both decisions"
    merged = preview["merged"]
    assert merged["decisions"][:2] == ["Stay in Baixa", "Take the train to Sintra"]
    assert "Stay in Graca" in merged["decisions"]
    assert [(rival["kind"], _texts(merged, rival)) for rival in preview["rivals"]] == [
        ("same_slot", ("Stay in Baixa", "Stay in Graca"))
    ]
    assert "“Graca”, not “Baixa”" in preview["rivals"][0]["detail"]
    assert preview["limits"] == []

    # The review of the same state reports the same pair, with the same words: one detector.
    response = await client.post(
        f"/v5/repos/{space_id}/merge/review", json={"ours": "main", "theirs": "other", "merged": merged}
    )
    assert response.status_code == 200, response.text
    contradictions = [f for f in response.json()["findings"] if f["kind"] == "contradiction"]
    from_merge = [f for f in contradictions if f["from_merge"]]
    assert [(f["rival"], f["refs"]) for f in from_merge] == [("same_slot", preview["rivals"][0]["refs"])]
    assert from_merge[0]["detail"].startswith(preview["rivals"][0]["detail"])
    own = [_texts(merged, f) for f in contradictions if not f["from_merge"]]
    assert own == [("Cache API responses", "Do not cache API responses")]


async def test_one_line_uses_what_the_other_rules_out(client: httpx.AsyncClient) -> None:
    space_id = await _lines(
        client,
        {"decisions": ["Book the flights"]},
        {"decisions": ["Book the flights", "Use PostgreSQL as the only database"]},
        {"decisions": ["Book the flights", "Do not use PostgreSQL; use MySQL instead"]},
    )
    preview = await _preview(client, space_id)
    assert [(rival["kind"], _texts(preview["merged"], rival)) for rival in preview["rivals"]] == [
        ("negation", ("Use PostgreSQL as the only database", "Do not use PostgreSQL; use MySQL instead"))
    ]


async def test_no_rivals_when_nothing_comes_in_or_the_lines_agree(client: httpx.AsyncClient) -> None:
    space_id = await _lines(
        client,
        {"decisions": ["Stay in Alfama"]},
        {"decisions": ["Stay in Alfama", "Rent a car", "Don't rent a car"]},
        {"decisions": ["Stay in Alfama", "Take the train to Sintra"]},
    )
    assert (await _preview(client, space_id))["rivals"] == [], "ours' own pair is not the merge's"
    # The other way round, the pair is still one line's own.
    other_way = await _preview(client, space_id, ours="other", theirs="main")
    assert other_way["rivals"] == []
