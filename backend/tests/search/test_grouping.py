"""GET /v5/search names each hit as the log does and shows an item carried forward once (issue 44, item 13)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.api import commit, create_session, create_space, send


async def search(client: httpx.AsyncClient, q: str, **params: Any) -> dict[str, Any]:
    response = await client.get("/v5/search", params={"q": q, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture
async def carried(client: httpx.AsyncClient) -> dict[str, Any]:
    """Six Checkpoints that each carry the decision forward, and one that says something else."""
    space = await create_space(client, "Carried forward")
    saved = [
        await commit(client, space["id"], f"Step {n}", decisions=["Take the zeppelin to Oslo"] + ["More"] * n)
        for n in range(6)
    ]
    other = await commit(client, space["id"], "Elsewhere", summary="A zeppelin museum, not the route")
    return {"space": space, "saved": saved, "other": other}


async def test_an_item_carried_forward_is_one_hit_naming_its_newest_checkpoint_and_the_earlier_ones(
    client: httpx.AsyncClient, carried: dict[str, Any]
) -> None:
    found = await search(client, "zeppelin")
    saved = carried["saved"]
    decision = next(hit for hit in found["items"] if hit["field"] == "decisions[0]")
    assert [hit["field"] for hit in found["items"]].count("decisions[0]") == 1
    assert len(found["items"]) == 2
    assert (decision["commit_id"], decision["commit_hash"]) == (saved[-1]["id"], saved[-1]["commit_hash"])
    assert decision["earlier"] == [
        {"commit_id": c["id"], "commit_hash": c["commit_hash"], "field": "decisions[0]"} for c in reversed(saved[:-1])
    ]
    summary = next(hit for hit in found["items"] if hit["field"] == "summary")
    assert (summary["commit_hash"], summary["earlier"]) == (carried["other"]["commit_hash"], [])
    # `total` counts matches, each Checkpoint once, as before grouping.
    assert found["total"] == 7
    ranks = [hit["rank"] for hit in found["items"]]
    assert ranks == sorted(ranks, reverse=True)


async def test_paging_counts_matches_so_no_match_is_skipped_or_shown_twice(
    client: httpx.AsyncClient, carried: dict[str, Any]
) -> None:
    shown: list[str] = []
    for offset in range(0, 7, 3):
        page = await search(client, "zeppelin", limit=3, offset=offset)
        assert (page["total"], page["limit"], page["offset"]) == (7, 3, offset)
        assert 1 <= len(page["items"]) <= 3
        shown += [c["commit_id"] for hit in page["items"] for c in [hit, *hit["earlier"]]]
    assert sorted(shown) == sorted([c["id"] for c in carried["saved"]] + [carried["other"]["id"]])


async def test_the_same_words_in_two_spaces_or_two_turns_stay_apart(client: httpx.AsyncClient) -> None:
    first = await create_space(client, "First")
    second = await create_space(client, "Second")
    await commit(client, first["id"], "One", decisions=["Paint it vermilion"])
    await commit(client, second["id"], "Two", decisions=["Paint it vermilion"])
    chat = await create_session(client, first["id"], title="Colours")
    await send(client, chat["id"], "vermilion")
    await send(client, chat["id"], "vermilion")
    found = await search(client, "vermilion")
    checkpoints = [hit for hit in found["items"] if hit["kind"] == "checkpoint"]
    assert len(checkpoints) == 2
    assert {hit["repo_id"] for hit in checkpoints} == {first["id"], second["id"]}
    turns = [hit for hit in found["items"] if hit["kind"] == "turn" and hit["snippet"] == "vermilion"]
    assert sorted(hit["sequence_number"] for hit in turns) == [1, 3]
    assert all(hit["earlier"] == [] for hit in found["items"])


async def test_a_turn_hit_names_its_session_and_a_checkpoint_hit_its_hash(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "Named")
    saved = await commit(client, space["id"], "Quokka census")
    chat = await create_session(client, space["id"], title="Island fauna")
    await send(client, chat["id"], "How many quokkas live on Rottnest?")
    found = await search(client, "quokka")
    checkpoint = next(hit for hit in found["items"] if hit["kind"] == "checkpoint")
    assert (checkpoint["commit_hash"], checkpoint["session_title"]) == (saved["commit_hash"], None)
    turn = next(hit for hit in found["items"] if hit["kind"] == "turn")
    assert (turn["session_title"], turn["commit_hash"], turn["session_id"]) == ("Island fauna", None, chat["id"])
