"""Reviewing a merge before it is saved: what only the combination of two lines produces is said to be so."""

from __future__ import annotations

import uuid

import httpx

from tests.support.api import commit, create_space


async def test_a_contradiction_that_only_the_merge_makes_is_marked_and_one_a_line_had_is_not(
    client: httpx.AsyncClient,
) -> None:
    space = await create_space(client, f"review-merge-{uuid.uuid4().hex[:6]}")
    base = await commit(client, space["id"], "base", decisions=["Fly on Friday"])
    line = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "car", "from_ref": base["id"]})
    assert line.status_code == 201, line.text
    # Ours alone already contradicts itself; theirs alone does not, nor does ours' other half.
    await commit(
        client,
        space["id"],
        "ours",
        decisions=[
            "Fly on Friday",
            "Don't rent a car",
            "Use PostgreSQL instead of MongoDB",
            "Use MongoDB for the audit log",
        ],
    )
    await commit(
        client, space["id"], "theirs", branch="car", decisions=["Fly on Friday", "Rent a car for the Sintra day trip"]
    )
    preview = (await client.get(f"/v5/repos/{space['id']}/merge", params={"ours": "main", "theirs": "car"})).json()
    assert preview["clean"] is True
    response = await client.post(
        f"/v5/repos/{space['id']}/merge/review", json={"ours": "main", "theirs": "car", "merged": preview["merged"]}
    )
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["theirs_commit_id"] == preview["theirs_commit_id"]
    decisions = preview["merged"]["decisions"]
    marked = {
        frozenset(decisions[ref["index"]] for ref in finding["refs"]): finding
        for finding in review["findings"]
        if finding["kind"] == "contradiction"
    }
    combined = marked[frozenset({"Don't rent a car", "Rent a car for the Sintra day trip"})]
    assert combined["from_merge"] is True
    assert "combining the two lines" in combined["detail"]
    own = marked[frozenset({"Use PostgreSQL instead of MongoDB", "Use MongoDB for the audit log"})]
    assert own["from_merge"] is False
    # Nothing was saved.
    head = (await client.get(f"/v4/repos/{space['id']}/head")).json()
    assert head["message"] == "ours"


async def test_a_merge_review_names_what_is_wrong_with_its_request(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"review-merge-{uuid.uuid4().hex[:6]}")
    await commit(client, space["id"], "one")
    for body, status, field in (
        ({"ours": "main", "theirs": "nowhere", "merged": {}}, 404, "theirs"),
        ({"ours": "main", "theirs": "main", "merged": {}}, 400, "theirs"),
        ({"ours": "main", "merged": {}}, 400, "theirs"),
        ({"ours": "main", "theirs": "x", "merged": {"tasks": [{"done": True}]}}, 400, "merged.tasks[0].text"),
        ({"ours": "main", "theirs": "x", "merged": {"decision": ["typo"]}}, 400, "merged.decision"),
    ):
        response = await client.post(f"/v5/repos/{space['id']}/merge/review", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["errors"][0]["field"] == field
