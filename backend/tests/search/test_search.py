"""GET /v5/search: what it finds, what it leaves out, and what it refuses (SYSTEM.md §10)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg
import httpx
import pytest

from smriti.search import sql
from smriti.search.service import _snippets
from tests.support.api import commit, create_session, create_space, send


async def search(client: httpx.AsyncClient, q: str, **params: Any) -> dict[str, Any]:
    response = await client.get("/v5/search", params={"q": q, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def marked(hit: dict[str, Any]) -> list[str]:
    return [hit["snippet"][start:end] for start, end in hit["highlights"]]


@pytest.fixture
async def spaces(client: httpx.AsyncClient, db: asyncpg.Connection) -> dict[str, str]:
    trip = await create_space(client, "Lisbon trip")
    storage = await create_space(client, "Storage migration")
    await commit(
        client,
        trip["id"],
        "Booked the flights",
        summary="Flights to Lisbon are booked for May; hotels still open.",
        decisions=["Fly with TAP", "Stay in Alfama near the castle"],
        tasks=[{"text": "Reserve the hotel in Alfama"}],
        entities=[{"name": "Tiago", "kind": "person", "description": "the guide who knows every tram"}],
        artifacts=[{"name": "packing.md", "content": "sunscreen, walking shoes, an umbrella for rain"}],
    )
    await commit(client, storage["id"], "Migrated the tables", summary="The deploy moved every table to PostgreSQL 16.")
    chat = await create_session(client, storage["id"], title="Chat")
    await send(client, chat["id"], "We are deploying the new storage engine on Friday, not Monday.")
    return {"trip": trip["id"], "storage": storage["id"], "chat": chat["id"]}


async def test_words_are_stemmed_and_each_hit_says_where_it_matched(
    client: httpx.AsyncClient, spaces: dict[str, str]
) -> None:
    found = await search(client, "deploy")
    where = {(hit["kind"], hit["field"]) for hit in found["items"]}
    assert ("checkpoint", "summary") in where
    assert ("turn", "content") in where
    turn = next(hit for hit in found["items"] if hit["kind"] == "turn")
    assert turn["session_id"] == spaces["chat"]
    assert turn["sequence_number"] == 1
    assert turn["repo_id"] == spaces["storage"]
    assert turn["commit_id"] is None
    assert marked(turn) == ["deploying"]
    assert "\x02" not in turn["snippet"]
    # The Checkpoint, the message, and the offline model's reply, which quotes it.
    assert found["total"] == 3
    assert found["total_is_exact"] is True


async def test_every_part_of_a_checkpoint_is_searchable_and_named(
    client: httpx.AsyncClient, spaces: dict[str, str]
) -> None:
    for words, field in [
        ("castle", "decisions[1]"),
        ("reserve", "tasks[0].text"),
        ("tram", "entities[0].description"),
        ("Tiago", "entities[0].name"),
        ("umbrella", "artifacts[0].content"),
        ("packing.md", "artifacts[0].name"),
        ("flights", "message"),
    ]:
        found = await search(client, words, kind="checkpoint")
        assert [hit["field"] for hit in found["items"]] == [field], words
        assert found["items"][0]["repo_id"] == spaces["trip"]
        assert [word.lower() for word in marked(found["items"][0])][:1] == [words.lower()], words


async def test_phrases_alternatives_and_exclusions_read_as_in_a_web_search(
    client: httpx.AsyncClient, spaces: dict[str, str]
) -> None:
    assert (await search(client, '"storage engine"', kind="turn"))["total"] == 2
    assert (await search(client, '"engine storage"'))["total"] == 0
    assert (await search(client, "umbrella or deploying"))["total"] == 4
    assert (await search(client, "Lisbon -hotels"))["total"] == 0
    assert (await search(client, "Lisbon"))["total"] == 1


async def test_filters_by_space_and_kind(client: httpx.AsyncClient, spaces: dict[str, str]) -> None:
    assert (await search(client, "deploy", repo_id=spaces["trip"]))["total"] == 0
    in_storage = await search(client, "deploy", repo_id=spaces["storage"])
    assert in_storage["total"] == 3
    turns_only = await search(client, "deploy", kind="turn")
    assert [hit["kind"] for hit in turns_only["items"]] == ["turn", "turn"]
    everything = await search(client, "deploy")
    page = await search(client, "deploy", limit=1, offset=1)
    assert page["items"] == everything["items"][1:2]
    assert page["total"] == 3
    past = await search(client, "deploy", offset=5)
    assert past["items"] == []
    assert past["total"] == 3


async def test_a_deleted_space_is_never_found(client: httpx.AsyncClient, spaces: dict[str, str]) -> None:
    assert (await client.delete(f"/v4/repos/{spaces['storage']}")).status_code == 204
    assert (await search(client, "deploy"))["items"] == []
    gone = await client.get("/v5/search", params={"q": "deploy", "repo_id": spaces["storage"]})
    assert gone.status_code == 404


async def test_a_better_match_ranks_first(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "Ranks")
    await commit(client, space["id"], "Notes", artifacts=[{"name": "a", "content": "an aside about kafka"}])
    await commit(client, space["id"], "Kafka cluster sizing", summary="kafka kafka")
    found = await search(client, "kafka")
    assert [hit["field"] for hit in found["items"]] == ["message", "artifacts[0].content"]
    assert found["items"][0]["rank"] > found["items"][1]["rank"]


async def test_an_artifact_larger_than_a_vector_can_hold_is_saved_and_found(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Big")
    # About 900 KB of distinct words: their whole vector would pass PostgreSQL's 1 MB limit.
    content = " ".join(f"w{n:06d}x" for n in range(90_000)) + " needle"
    await commit(client, space["id"], "Big artifact", artifacts=[{"name": "words.txt", "content": content}])
    assert (await search(client, "w000001x"))["total"] == 1
    # What lies past the indexed start of an artifact is not searched (migration 0012).
    assert (await search(client, "needle"))["total"] == 0


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"q": ""}, "q", "got nothing"),
        ({"q": "   "}, "q", "got nothing"),
        ({"q": "the of and"}, "q", "no words to search for"),
        ({"q": "!!! ---"}, "q", "no words to search for"),
        ({"q": "x" * 501}, "q", "500"),
        ({"q": "a\x00b"}, "q", "NUL"),
        ({"q": "ok", "kind": "space"}, "kind", ""),
        ({"q": "ok", "repo_id": "not-a-uuid"}, "repo_id", ""),
        ({"q": "ok", "limit": "0"}, "limit", ""),
        ({"q": "ok", "offset": "-1"}, "offset", ""),
    ],
)
async def test_bad_searches_are_refused_naming_the_parameter(
    client: httpx.AsyncClient, db: asyncpg.Connection, params: dict[str, str], field: str, words: str
) -> None:
    response = await client.get("/v5/search", params=params)
    assert response.status_code == 400, response.text
    body = response.json()
    assert field in str(body)
    assert words in body["detail"]


async def test_q_is_required(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    response = await client.get("/v5/search")
    assert response.status_code == 400
    assert "q" in str(response.json())


async def test_a_space_deleted_between_the_hits_and_their_snippets_leaves_them_out(
    client: httpx.AsyncClient, db: asyncpg.Connection, spaces: dict[str, str]
) -> None:
    rows = await db.fetch(sql.hits_sql(None, False), "deploy", 20, 0)
    assert len(rows) == 3
    await db.execute("DELETE FROM repos WHERE id = $1", UUID(spaces["storage"]))
    assert await _snippets(db, "deploy", rows) == {}
