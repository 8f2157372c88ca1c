"""Merging lines over HTTP: the base, the preview, and the merge Checkpoint (docs/merge.md)."""

from __future__ import annotations

import asyncio
import datetime
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.checkpoints.hashing import CONTENT_FIELDS, compute_commit_hash
from tests.support.api import commit, create_space

BASE: dict[str, Any] = {
    "decisions": ["Stay in Baixa"],
    "tasks": [{"text": "Book hotel"}],
    "summary": "A trip to Lisbon.",
}
OURS: dict[str, Any] = {
    "decisions": ["Stay in Baixa", "Day 3: Sintra"],
    "tasks": [{"text": "Book hotel", "done": True}],
    "summary": "A three-day trip to Lisbon.",
}
THEIRS: dict[str, Any] = {
    "decisions": ["Stay in Baixa", "Keep it under 900 EUR"],
    "tasks": [{"text": "Book hotel"}, {"text": "Compare flights"}],
    "summary": "A cheap trip to Lisbon.",
}


async def _line(client: httpx.AsyncClient, space_id: str, name: str, from_ref: str) -> None:
    response = await client.post(f"/v4/repos/{space_id}/branches", json={"name": name, "from_ref": from_ref})
    assert response.status_code == 201, response.text


async def _merge(client: httpx.AsyncClient, space_id: str, ours: str, theirs: str, status: int = 200) -> Any:
    response = await client.get(f"/v5/repos/{space_id}/merge", params={"ours": ours, "theirs": theirs})
    assert response.status_code == status, response.text
    return response.json()


async def _verify(client: httpx.AsyncClient, space_id: str) -> dict[str, Any]:
    response = await client.get(f"/v4/repos/{space_id}/verify")
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


async def _diverged(client: httpx.AsyncClient) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The worked example of docs/merge.md: main and budget, both changed since their base."""
    space = await create_space(client, f"merge-{uuid.uuid4().hex[:6]}")
    base = await commit(client, space["id"], "base", **BASE)
    await _line(client, space["id"], "budget", base["id"])
    ours = await commit(client, space["id"], "ours", **OURS)
    theirs = await commit(client, space["id"], "theirs", branch="budget", **THEIRS)
    return space["id"], base, ours, theirs


async def test_the_worked_example_merges_as_documented(client: httpx.AsyncClient) -> None:
    space_id, base, ours, theirs = await _diverged(client)
    preview = await _merge(client, space_id, "main", "budget")
    assert preview["base_commit_id"] == base["id"]
    assert preview["base_candidates"] == [base["id"]]
    assert (preview["ours_commit_id"], preview["theirs_commit_id"]) == (ours["id"], theirs["id"])
    assert preview["relation"] == "diverged"
    merged = preview["merged"]
    assert merged["decisions"] == ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"]
    assert merged["tasks"] == [{"text": "Book hotel", "done": True}, {"text": "Compare flights", "done": False}]
    assert merged["summary"] == "A three-day trip to Lisbon."  # ours, until the person chooses
    assert preview["conflicts"] == [
        {
            "field": "summary",
            "key": None,
            "occurrence": 0,
            "base": "A trip to Lisbon.",
            "ours": "A three-day trip to Lisbon.",
            "theirs": "A cheap trip to Lisbon.",
        }
    ]
    assert preview["clean"] is False
    # Refs work as well as line names, and swapping the sides swaps the conflict's sides.
    swapped = await _merge(client, space_id, theirs["id"], ours["commit_hash"][:10])
    assert swapped["conflicts"][0]["ours"] == "A cheap trip to Lisbon."


async def test_a_merge_checkpoint_chains_both_parents_and_the_next_merge_starts_from_it(
    client: httpx.AsyncClient,
) -> None:
    space_id, _, ours, theirs = await _diverged(client)
    preview = await _merge(client, space_id, "main", "budget")
    resolved = {**preview["merged"], "summary": "A cheap three-day trip to Lisbon."}
    saved = await commit(
        client,
        space_id,
        "Merge budget into main",
        **resolved,
        merge_parent_id=theirs["id"],
        expected_head_commit_id=ours["id"],
    )
    assert (saved["parent_commit_id"], saved["merge_parent_id"]) == (ours["id"], theirs["id"])
    got = (await client.get(f"/v4/commits/{saved['id']}")).json()
    assert got["merge_parent_id"] == theirs["id"]
    expected = compute_commit_hash(
        commit_id=uuid.UUID(saved["id"]),
        repo_id=uuid.UUID(space_id),
        parent_hash=ours["commit_hash"],
        created_at=datetime.datetime.fromisoformat(saved["created_at"]),
        content={name: saved[name] for name in CONTENT_FIELDS},
        merge_parent_hash=theirs["commit_hash"],
    )
    assert saved["commit_hash"] == expected
    assert (await _verify(client, space_id))["ok"] is True
    # budget is in main now: nothing comes in.
    assert (await _merge(client, space_id, "main", "budget"))["relation"] == "up_to_date"
    # budget moves on; the next merge's base is budget's merged Checkpoint (reached over the
    # merge link), not the old fork point, so what was merged and resolved does not come back.
    await commit(
        client, space_id, "more budget", **{**THEIRS, "decisions": [*THEIRS["decisions"], "No taxis"]}, branch="budget"
    )
    again = await _merge(client, space_id, "main", "budget")
    assert again["base_commit_id"] == theirs["id"]
    assert again["clean"] is True
    assert again["merged"]["decisions"][-1] == "No taxis"
    assert again["merged"]["summary"] == "A cheap three-day trip to Lisbon."
    # main into budget: fast-forward, merged is main's state plus budget's new decision.
    assert (await _merge(client, space_id, "budget", "main"))["base_commit_id"] == theirs["id"]


async def test_concurrent_merges_into_one_line_one_wins_the_other_gets_409(client: httpx.AsyncClient) -> None:
    space_id, _, ours, theirs = await _diverged(client)
    preview = await _merge(client, space_id, "main", "budget")
    body = {
        "repo_id": space_id,
        "message": "merge",
        **preview["merged"],
        "merge_parent_id": theirs["id"],
        "expected_head_commit_id": ours["id"],
    }
    answers = await asyncio.gather(*(client.post("/v4/chat/commit", json=body) for _ in range(4)))
    assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
    assert all(a.json()["errors"][0]["field"] == "expected_head_commit_id" for a in answers if a.status_code == 409)
    assert (await _verify(client, space_id))["checked"] == 4


async def test_a_merge_parent_must_be_another_checkpoint_of_this_space(client: httpx.AsyncClient) -> None:
    space_id, _, ours, theirs = await _diverged(client)
    other = await create_space(client, f"other-{uuid.uuid4().hex[:6]}")
    foreign = await commit(client, other["id"], "elsewhere")
    for merge_parent, status in ((foreign["id"], 400), (ours["id"], 400), (str(uuid.uuid4()), 404), ("nope", 400)):
        for path, extra in (("/v4/chat/commit", {}), ("/v5/checkpoints/apply", {"add": {"decisions": ["x"]}})):
            response = await client.post(
                path, json={"repo_id": space_id, "message": "merge", "merge_parent_id": merge_parent, **extra}
            )
            assert response.status_code == status, (path, merge_parent, response.text)
            assert response.json()["errors"][0]["field"] == "merge_parent_id"
    assert (await _verify(client, space_id))["checked"] == 3  # nothing written
    applied = await client.post(
        "/v5/checkpoints/apply",
        json={
            "repo_id": space_id,
            "message": "merge by apply",
            "merge_parent_id": theirs["id"],
            "set": {"summary": "x"},
        },
    )
    assert applied.status_code == 201, applied.text
    assert applied.json()["merge_parent_id"] == theirs["id"]
    assert (await _verify(client, space_id))["ok"] is True


@pytest.mark.parametrize(
    ("ours", "theirs", "status", "field"),
    [
        ("main", "main", 400, "theirs"),  # a line merged into itself
        ("MAIN", "main", 400, "theirs"),
        ("main", "no-such-line", 404, "theirs"),
        ("nowhere", "main", 404, "ours"),
        ("main", "empty", 400, "theirs"),  # a line with no Checkpoint yet
        ("main", "zz", 404, "theirs"),
    ],
)
async def test_a_merge_that_names_nothing_to_merge_is_refused(
    client: httpx.AsyncClient, ours: str, theirs: str, status: int, field: str
) -> None:
    space = await create_space(client, f"refuse-{uuid.uuid4().hex[:6]}")
    # Started while the Space had no Checkpoint: a line with no HEAD.
    started = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "empty"})
    assert started.status_code == 201, started.text
    await commit(client, space["id"], "one")
    body = await _merge(client, space["id"], ours, theirs, status)
    assert body["errors"][0]["field"] == field
    assert body["errors"][0]["source"] == "query"


async def test_a_foreign_checkpoint_and_an_unknown_space_are_refused(client: httpx.AsyncClient) -> None:
    space_id, *_ = await _diverged(client)
    other = await create_space(client, f"other-{uuid.uuid4().hex[:6]}")
    foreign = await commit(client, other["id"], "elsewhere")
    body = await _merge(client, space_id, "main", foreign["id"], 400)
    assert body["errors"][0]["field"] == "theirs"
    missing = await _merge(client, str(uuid.uuid4()), "main", "budget", 404)
    assert missing["errors"][0]["field"] == "repo_id"


async def test_ten_lines_merged_in_a_chain_verify(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"chain-{uuid.uuid4().hex[:6]}")
    root = await commit(client, space["id"], "root", decisions=["root"])
    names = [f"line-{i}" for i in range(10)]
    for name in names:
        await _line(client, space["id"], name, root["id"])
        await commit(client, space["id"], name, branch=name, decisions=["root", f"from {name}"])
    for name in names:
        preview = await _merge(client, space["id"], "main", name)
        assert preview["clean"], preview["conflicts"]
        head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
        await commit(
            client,
            space["id"],
            f"merge {name}",
            **preview["merged"],
            merge_parent_id=preview["theirs_commit_id"],
            expected_head_commit_id=head["id"],
        )
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head["decisions"] == ["root", *(f"from {name}" for name in names)]
    report = await _verify(client, space["id"])
    assert report["ok"] is True, report["problems"]
    assert report["checked"] == 21


async def test_a_criss_cross_history_takes_the_newest_base_and_names_the_other(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"criss-{uuid.uuid4().hex[:6]}")
    root = await commit(client, space["id"], "root")
    await _line(client, space["id"], "b", root["id"])
    a1 = await commit(client, space["id"], "a1", decisions=["a"])
    b1 = await commit(client, space["id"], "b1", decisions=["b"], branch="b")
    # Each line merges the other's first Checkpoint: a1 and b1 are both nearest common ancestors.
    await commit(client, space["id"], "a2", decisions=["a", "b"], merge_parent_id=b1["id"])
    await commit(client, space["id"], "b2", decisions=["b", "a"], branch="b", merge_parent_id=a1["id"])
    preview = await _merge(client, space["id"], "main", "b")
    assert set(preview["base_candidates"]) == {a1["id"], b1["id"]}
    assert preview["base_commit_id"] == preview["base_candidates"][0] == b1["id"]  # the newer
    assert (await _merge(client, space["id"], "main", "b"))["base_commit_id"] == b1["id"]  # every time


async def test_verify_sees_a_merge_link_changed_behind_smritis_back(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space_id, base, ours, theirs = await _diverged(client)
    saved = await commit(client, space_id, "merge", **BASE, merge_parent_id=theirs["id"])
    await db.execute(
        "UPDATE commits SET merge_parent_id = $1 WHERE id = $2", uuid.UUID(base["id"]), uuid.UUID(saved["id"])
    )
    problems = (await _verify(client, space_id))["problems"]
    assert [(p["commit_id"], p["kind"]) for p in problems] == [(saved["id"], "hash_mismatch")]
    await db.execute("UPDATE commits SET merge_parent_id = NULL WHERE id = $1", uuid.UUID(saved["id"]))
    assert [p["kind"] for p in (await _verify(client, space_id))["problems"]] == ["hash_mismatch"]
    del ours
