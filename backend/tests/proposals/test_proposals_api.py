"""Proposals over HTTP (SYSTEM.md §13): opening, listing, reading, merging and closing, and every
refusal naming its field with nothing written."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from tests.proposals.helpers import bearer, field_of, line, make_agent, merge, propose, space_with_line
from tests.support.api import commit, create_space


async def _main_head(client: httpx.AsyncClient, space_id: str) -> str:
    response = await client.get(f"/v4/repos/{space_id}/head")
    assert response.status_code == 200, response.text
    head: str = response.json()["id"]
    return head


async def test_an_agent_opens_a_proposal_and_the_person_merges_it(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    agent = await make_agent(client, "planner")
    theirs = await commit(client, space_id, "Sintra", branch="work", decisions=["Stay in Baixa", "Day 3: Sintra"])
    opened = await propose(
        client, space_id, {"from": "work", "title": "  Add Sintra  "}, headers=bearer(agent["token"])
    )
    assert opened["number"] == 1
    assert (opened["from"], opened["into"], opened["title"], opened["status"]) == ("work", "main", "Add Sintra", "open")
    assert opened["created_by"] == {"kind": "agent", "id": agent["id"], "name": "planner"}
    assert (opened["from_head_commit_id"], opened["into_head_commit_id"]) == (theirs["id"], base["id"])
    assert (opened["relation"], opened["conflicts"]) == ("fast_forward", [])
    assert opened["preview"]["merged"]["decisions"] == ["Stay in Baixa", "Day 3: Sintra"]

    merged = await merge(client, space_id, 1)
    assert merged["status"] == "merged"
    head = await _main_head(client, space_id)
    assert merged["merge_commit_id"] == head
    saved = (await client.get(f"/v4/commits/{head}")).json()
    assert (saved["parent_commit_id"], saved["merge_parent_id"]) == (base["id"], theirs["id"])
    assert saved["decisions"] == ["Stay in Baixa", "Day 3: Sintra"]
    assert saved["message"] == "Merge proposal #1: Add Sintra"
    assert saved["metadata"]["proposal"] == {"id": opened["id"], "number": 1}
    assert (await client.get(f"/v4/repos/{space_id}/verify")).json()["ok"] is True
    # Merged is final: neither merged again nor closed.
    assert field_of(await merge(client, space_id, 1, status=409)) == ["number"]
    response = await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={})
    assert response.status_code == 409, response.text
    assert await db.fetchval("SELECT count(*) FROM commits") == 3


async def test_into_names_a_line_and_the_person_opens_as_null(client: httpx.AsyncClient) -> None:
    space_id, base = await space_with_line(client)
    await line(client, space_id, "review", base["id"])
    await commit(client, space_id, "w", branch="work", decisions=["W"])
    opened = await propose(
        client, space_id, {"from": "WORK", "into": " Review ", "title": "t", "description": "Why: because."}
    )
    assert (opened["from"], opened["into"], opened["created_by"]) == ("work", "review", None)
    assert opened["description"] == "Why: because."


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"from": "work", "into": "work", "title": "t"}, 400, "into"),
        ({"from": "Work ", "into": "work", "title": "t"}, 400, "into"),
        ({"from": "main", "title": "t"}, 400, "into"),
        ({"from": "nope", "title": "t"}, 404, "from"),
        ({"from": "work", "into": "nope", "title": "t"}, 404, "into"),
        ({"from": "x" * 150, "title": "t"}, 404, "from"),
        ({"from": "work"}, 400, "title"),
        ({"from": "work", "title": " \u200b "}, 400, "title"),
        ({"from": "work", "title": "t" * 201}, 400, "title"),
        ({"from": "work", "title": "t", "description": "d" * 20_001}, 400, "description"),
        ({"from": "", "title": "t"}, 400, "from"),
        ({"from": 3, "title": "t"}, 400, "from"),
        ({"title": "t"}, 400, "from"),
        ({"from": "work", "title": "t", "status": "merged"}, 400, "status"),
    ],
)
async def test_a_bad_proposal_names_its_field_and_opens_nothing(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: dict[str, Any], status: int, field: str
) -> None:
    space_id, _ = await space_with_line(client)
    problem = await propose(client, space_id, body, expect=status)
    assert field_of(problem) == [field], problem
    assert await db.fetchval("SELECT count(*) FROM proposals") == 0
    assert await db.fetchval("SELECT proposal_count FROM repos") == 0


async def test_one_open_proposal_per_pair_and_a_number_is_never_spent_on_a_refusal(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, _ = await space_with_line(client)
    first = await propose(client, space_id, {"from": "work", "title": "one"})
    again = await propose(client, space_id, {"from": "work", "into": "main", "title": "two"}, expect=409)
    assert "#1" in again["detail"]
    await propose(client, space_id, {"from": "gone", "title": "three"}, expect=404)
    assert (await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={"reason": "later"})).status_code == 200
    reopened = await propose(client, space_id, {"from": "work", "title": "again"})
    assert (first["number"], reopened["number"]) == (1, 2)
    assert await db.fetchval("SELECT proposal_count FROM repos") == 2


async def test_unknown_and_unseen_spaces_and_read_only_keys(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space_id, _ = await space_with_line(client)
    other = await create_space(client, "other")
    missing = "00000000-0000-0000-0000-000000000000"
    for space in (missing,):
        problem = await propose(client, space, {"from": "work", "title": "t"}, expect=404)
        assert field_of(problem) == ["repo_id"]
        response = await client.get(f"/v5/repos/{space}/proposals")
        assert response.status_code == 404
    reader = await make_agent(client, "reader", write=False)
    problem = await propose(
        client, space_id, {"from": "work", "title": "t"}, expect=403, headers=bearer(reader["token"])
    )
    assert "read" in problem["detail"]
    scoped = await make_agent(client, "scoped", spaces=[other["id"]])
    await propose(client, space_id, {"from": "work", "title": "t"}, expect=404, headers=bearer(scoped["token"]))
    assert (await client.get(f"/v5/repos/{space_id}/proposals", headers=bearer(scoped["token"]))).status_code == 404
    assert await db.fetchval("SELECT count(*) FROM proposals") == 0
    # A read-only key reads.
    await propose(client, space_id, {"from": "work", "title": "t"})
    listed = await client.get(f"/v5/repos/{space_id}/proposals", headers=bearer(reader["token"]))
    assert listed.status_code == 200
    assert listed.json()["total"] == 1


async def test_the_list_is_newest_first_filtered_and_paged(client: httpx.AsyncClient) -> None:
    space_id, base = await space_with_line(client)
    for n in range(5):
        await line(client, space_id, f"l{n}", base["id"])
        await propose(client, space_id, {"from": f"l{n}", "title": f"p{n}"})
    assert (await client.post(f"/v5/repos/{space_id}/proposals/2/close", json={})).status_code == 200
    everything = (await client.get(f"/v5/repos/{space_id}/proposals")).json()
    assert [p["number"] for p in everything["items"]] == [5, 4, 3, 2, 1]
    page = await client.get(f"/v5/repos/{space_id}/proposals", params={"status": "open", "limit": 2, "offset": 1})
    assert page.status_code == 200
    assert [p["number"] for p in page.json()["items"]] == [4, 3]
    assert page.json()["total"] == 4
    assert 'rel="next"' in page.headers["link"]
    assert "status=open" in page.headers["link"]
    closed = (await client.get(f"/v5/repos/{space_id}/proposals", params={"status": "closed"})).json()
    assert [(p["number"], p["status"]) for p in closed["items"]] == [(2, "closed")]
    past = (await client.get(f"/v5/repos/{space_id}/proposals", params={"offset": 10})).json()
    assert (past["items"], past["total"]) == ([], 5)
    for params, field in (({"status": "done"}, "status"), ({"limit": "0"}, "limit"), ({"offset": "-1"}, "offset")):
        response = await client.get(f"/v5/repos/{space_id}/proposals", params=params)
        assert response.status_code == 400, response.text
        assert field in response.text


@pytest.mark.parametrize(("number", "status"), [("7", 404), ("0", 400), ("abc", 400), ("1e1", 400), ("9" * 12, 400)])
async def test_a_proposal_number_that_names_none(client: httpx.AsyncClient, number: str, status: int) -> None:
    space_id, _ = await space_with_line(client)
    await propose(client, space_id, {"from": "work", "title": "t"})
    for method, path, body in (
        ("GET", "", None),
        ("POST", "/merge", {}),
        ("POST", "/close", {}),
    ):
        response = await client.request(method, f"/v5/repos/{space_id}/proposals/{number}{path}", json=body)
        assert response.status_code == status, (method, path, response.text)
        assert field_of(response.json()) == ["number"]


async def test_conflicts_need_merged_and_the_resolution_is_what_is_saved(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    ours = await commit(client, space_id, "ours", summary="A three-day trip.", decisions=["Stay in Baixa"])
    theirs = await commit(
        client, space_id, "theirs", branch="work", summary="A cheap trip.", decisions=["Stay in Baixa", "Walk"]
    )
    opened = await propose(client, space_id, {"from": "work", "title": "cheap"})
    assert opened["relation"] == "diverged"
    assert [(c["field"], c["ours"], c["theirs"]) for c in opened["conflicts"]] == [
        ("summary", "A three-day trip.", "A cheap trip.")
    ]
    problem = await merge(client, space_id, 1, status=400)
    assert field_of(problem) == ["merged"]
    problem = await merge(client, space_id, 1, status=400, merged={"summary": 3})
    assert field_of(problem) == ["merged.summary"]
    assert await db.fetchval("SELECT count(*) FROM commits") == 3
    resolved = {**opened["preview"]["merged"], "summary": "A cheap three-day trip."}
    pinned = {
        "expected_from_head_commit_id": opened["from_head_commit_id"],
        "expected_into_head_commit_id": opened["into_head_commit_id"],
    }
    # A resolution comes with the HEADs it was made from: else a `from` that moved since would be
    # merged in name while what it added is missing from the state saved.
    for missing in pinned:
        problem = await merge(
            client, space_id, 1, status=400, merged=resolved, **{k: v for k, v in pinned.items() if k != missing}
        )
        assert field_of(problem) == [missing]
    later = await commit(
        client,
        space_id,
        "theirs again",
        branch="work",
        summary="A cheap trip.",
        decisions=["Stay in Baixa", "Walk", "Run"],
    )
    problem = await merge(client, space_id, 1, status=409, merged=resolved, **pinned)
    assert field_of(problem) == ["expected_from_head_commit_id"]
    assert await db.fetchval("SELECT count(*) FROM commits") == 4
    pinned["expected_from_head_commit_id"] = later["id"]
    resolved["decisions"] = ["Stay in Baixa", "Walk", "Run"]
    theirs = later
    done = await merge(client, space_id, 1, merged=resolved, message="Take the cheap plan", **pinned)
    saved = (await client.get(f"/v4/commits/{done['merge_commit_id']}")).json()
    assert (saved["summary"], saved["message"]) == ("A cheap three-day trip.", "Take the cheap plan")
    assert saved["decisions"] == ["Stay in Baixa", "Walk", "Run"]
    assert (saved["parent_commit_id"], saved["merge_parent_id"]) == (ours["id"], theirs["id"])
    assert base["id"] != ours["id"]


async def test_a_head_that_moved_since_the_preview_is_a_409_and_nothing_is_written(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    await commit(client, space_id, "w1", branch="work", decisions=["Stay in Baixa", "One"])
    opened = await propose(client, space_id, {"from": "work", "title": "t"})
    seen = (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()
    assert seen["from_head_commit_id"] == opened["from_head_commit_id"]
    moved = await commit(client, space_id, "w2", branch="work", decisions=["Stay in Baixa", "One", "Two"])
    # The page shows `from` as it is now.
    now = (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()
    assert now["from_head_commit_id"] == moved["id"]
    assert now["preview"]["merged"]["decisions"] == ["Stay in Baixa", "One", "Two"]
    expected = {
        "expected_from_head_commit_id": seen["from_head_commit_id"],
        "expected_into_head_commit_id": seen["into_head_commit_id"],
    }
    problem = await merge(client, space_id, 1, status=409, **expected)
    assert field_of(problem) == ["expected_from_head_commit_id"]
    await commit(client, space_id, "m2", decisions=["Stay in Baixa", "Main"])
    problem = await merge(
        client,
        space_id,
        1,
        status=409,
        expected_from_head_commit_id=moved["id"],
        expected_into_head_commit_id=base["id"],
    )
    assert field_of(problem) == ["expected_into_head_commit_id"]
    assert await db.fetchval("SELECT count(*) FROM commits WHERE merge_parent_id IS NOT NULL") == 0
    assert await db.fetchval("SELECT status FROM proposals") == "open"
    current = (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()
    done = await merge(
        client,
        space_id,
        1,
        expected_from_head_commit_id=current["from_head_commit_id"],
        expected_into_head_commit_id=current["into_head_commit_id"],
    )
    saved = (await client.get(f"/v4/commits/{done['merge_commit_id']}")).json()
    assert saved["merge_parent_id"] == moved["id"]
    assert saved["decisions"] == ["Stay in Baixa", "Main", "One", "Two"]


async def test_a_deleted_from_line_is_shown_refused_by_merge_and_still_closed(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, _ = await space_with_line(client)
    await commit(client, space_id, "w", branch="work", decisions=["W"])
    agent = await make_agent(client, "bot")
    opened = await propose(client, space_id, {"from": "work", "title": "t"}, headers=bearer(agent["token"]))
    await client.patch(f"/v4/repos/{space_id}/branches/work", json={"name": "renamed"})
    assert (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()["from"] == "renamed"
    assert (await client.delete(f"/v4/repos/{space_id}/branches/renamed")).status_code == 204
    shown = (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()
    assert (shown["from"], shown["from_name"], shown["from_deleted"]) == (None, "work", True)
    assert (shown["from_head_commit_id"], shown["relation"], shown["preview"]) == (None, None, None)
    assert (shown["title"], shown["id"]) == ("t", opened["id"])
    problem = await merge(client, space_id, 1, status=409)
    assert field_of(problem) == ["from"]
    assert "deleted" in problem["detail"]
    assert await db.fetchval("SELECT count(*) FROM commits WHERE merge_parent_id IS NOT NULL") == 0
    closed = await client.post(
        f"/v5/repos/{space_id}/proposals/1/close", json={"reason": "line gone"}, headers=bearer(agent["token"])
    )
    assert closed.status_code == 200, closed.text
    assert (closed.json()["status"], closed.json()["closed_reason"]) == ("closed", "line gone")


async def test_only_the_person_merges_and_only_the_opener_or_the_person_closes(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base = await space_with_line(client)
    await line(client, space_id, "other", base["id"])
    await commit(client, space_id, "w", branch="work", decisions=["W"])
    opener, stranger = await make_agent(client, "opener"), await make_agent(client, "stranger")
    await propose(client, space_id, {"from": "work", "title": "t"}, headers=bearer(opener["token"]))
    await propose(client, space_id, {"from": "other", "title": "u"}, headers=bearer(opener["token"]))
    for token in (opener["token"], stranger["token"]):
        response = await client.post(f"/v5/repos/{space_id}/proposals/1/merge", json={}, headers=bearer(token))
        assert response.status_code == 403, response.text
        assert "person" in response.json()["detail"]
    response = await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={}, headers=bearer(stranger["token"]))
    assert response.status_code == 403, response.text
    assert await db.fetchval("SELECT count(*) FROM proposals WHERE status = 'open'") == 2
    response = await client.post(f"/v5/repos/{space_id}/proposals/1/close", json={}, headers=bearer(opener["token"]))
    assert response.status_code == 200
    assert response.json()["closed_reason"] is None
    response = await client.post(f"/v5/repos/{space_id}/proposals/2/close", json={"reason": "no"})
    assert response.status_code == 200
    response = await client.post(f"/v5/repos/{space_id}/proposals/2/close", json={"reason": "again"})
    assert response.status_code == 409
    assert field_of(response.json()) == ["number"]
    response = await client.post(f"/v5/repos/{space_id}/proposals/2/close", json={"reason": "x" * 2001})
    assert response.status_code == 400
    assert field_of(response.json()) == ["reason"]


async def test_nothing_to_merge_is_a_409_naming_from(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space_id, base = await space_with_line(client)
    opened = await propose(client, space_id, {"from": "work", "title": "early"})
    assert (opened["relation"], opened["preview"], opened["conflicts"]) == ("up_to_date", None, [])
    assert field_of(await merge(client, space_id, 1, status=409)) == ["from"]
    await commit(client, space_id, "m", decisions=["Stay in Baixa", "M"])
    behind = (await client.get(f"/v5/repos/{space_id}/proposals/1")).json()
    assert behind["relation"] == "up_to_date"
    assert field_of(await merge(client, space_id, 1, status=409)) == ["from"]
    assert await db.fetchval("SELECT count(*) FROM commits WHERE merge_parent_id IS NOT NULL") == 0
    assert base["id"]


async def test_the_merge_checkpoint_and_the_merged_status_are_one_transaction(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """A failure after the merge Checkpoint's statement (here: marking the proposal merged) leaves
    neither: no merge Checkpoint, `into` where it was, the proposal open."""
    space_id, base = await space_with_line(client)
    await commit(client, space_id, "w", branch="work", decisions=["W"])
    await propose(client, space_id, {"from": "work", "title": "t"})
    await db.execute(
        """CREATE FUNCTION refuse_merged() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
           CREATE TRIGGER refuse_merged BEFORE UPDATE ON proposals FOR EACH ROW
           WHEN (NEW.status = 'merged') EXECUTE FUNCTION refuse_merged();"""
    )
    try:
        response = await client.post(f"/v5/repos/{space_id}/proposals/1/merge", json={})
        assert response.status_code >= 500
    finally:
        await db.execute("DROP TRIGGER refuse_merged ON proposals; DROP FUNCTION refuse_merged();")
    assert await db.fetchval("SELECT count(*) FROM commits WHERE merge_parent_id IS NOT NULL") == 0
    assert str(await db.fetchval("SELECT head_commit_id FROM repos")) == base["id"]
    assert await db.fetchval("SELECT status FROM proposals") == "open"
    await merge(client, space_id, 1)
    assert await db.fetchval("SELECT count(*) FROM commits WHERE merge_parent_id IS NOT NULL") == 1
