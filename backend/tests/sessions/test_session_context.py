"""What a Session's next save starts from, and its lineage, read from the server (SYSTEM.md §12).

`GET /v4/sessions/{id}` answers `last_saved: {commit_id, branch}`: the newest Checkpoint of its
Space whose `metadata.source.session_id` names it, and the line it went to; and `continued_in`
with `continued_count`, the Sessions forked from it. The same in every client: nothing of it
lives in a browser.
"""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space, send


def _source(session: dict[str, Any], *, spelled: str | None = None) -> dict[str, Any]:
    return {"source": {"session_id": spelled or session["id"], "from_seq": 1, "to_seq": 2}}


async def _get(client: httpx.AsyncClient, session_id: str) -> dict[str, Any]:
    response = await client.get(f"/v4/sessions/{session_id}")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def _line(client: httpx.AsyncClient, space_id: str, name: str, from_ref: str) -> None:
    made = await client.post(f"/v4/repos/{space_id}/branches", json={"name": name, "from_ref": from_ref})
    assert made.status_code == 201, made.text


async def test_last_saved_is_the_newest_checkpoint_saved_from_the_session_and_the_line_it_went_to(
    client: httpx.AsyncClient,
) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base", decisions=["Start here"])
    session = await create_session(client, space["id"], base_commit_id=base["id"])
    other = await create_session(client, space["id"])
    assert (await _get(client, session["id"]))["last_saved"] is None

    # Saved from the Session on a new line started at its base, then HEAD of main moves on.
    await _line(client, space["id"], "from-base", base["id"])
    first = await commit(client, space["id"], "first save", branch="from-base", metadata=_source(session))
    elsewhere = await commit(client, space["id"], "someone else on main", metadata=_source(other))
    answer = await _get(client, session["id"])
    assert answer["last_saved"] == {
        "commit_id": first["id"],
        "commit_hash": first["commit_hash"],
        "branch": "from-base",
    }
    assert answer["base_commit_id"] == base["id"]  # the base never changes

    # The next save from it, spelled in capitals by some client, on the default line: the newest wins.
    second = await commit(client, space["id"], "second save", metadata=_source(session, spelled=session["id"].upper()))
    assert (await _get(client, session["id"]))["last_saved"] == {
        "commit_id": second["id"],
        "commit_hash": second["commit_hash"],
        "branch": "main",
    }
    # The other Session's last save is its own.
    assert (await _get(client, other["id"]))["last_saved"] == {
        "commit_id": elsewhere["id"],
        "commit_hash": elsewhere["commit_hash"],
        "branch": "main",
    }


async def test_the_line_is_named_as_it_is_now_and_null_once_it_is_deleted(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    session = await create_session(client, space["id"])
    await _line(client, space["id"], "draft", base["id"])
    saved = await commit(client, space["id"], "saved", branch="draft", metadata=_source(session))
    # The line moves on after the save, and is renamed: still the line it went to.
    await commit(client, space["id"], "later", branch="draft")
    renamed = await client.patch(f"/v4/repos/{space['id']}/branches/draft", json={"name": "Plan B"})
    assert renamed.status_code == 200, renamed.text
    assert (await _get(client, session["id"]))["last_saved"] == {
        "commit_id": saved["id"],
        "commit_hash": saved["commit_hash"],
        "branch": "Plan B",
    }
    # A line of the same name made again is another line.
    assert (await client.delete(f"/v4/repos/{space['id']}/branches/Plan%20B")).status_code == 204
    await _line(client, space["id"], "Plan B", base["id"])
    assert (await _get(client, session["id"]))["last_saved"] == {
        "commit_id": saved["id"],
        "commit_hash": saved["commit_hash"],
        "branch": None,
    }


async def test_apply_restore_and_merges_record_their_line_too(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base", decisions=["A"])
    await _line(client, space["id"], "side", base["id"])
    applied = await client.post(
        "/v5/checkpoints/apply",
        json={"repo_id": space["id"], "message": "applied", "branch": "side", "add": {"decisions": ["B"]}},
    )
    assert applied.status_code == 201, applied.text
    restored = await client.post(f"/v5/commits/{base['id']}/restore", json={"branch": "side"})
    assert restored.status_code == 201, restored.text
    rows = await db.fetch(
        "SELECT c.message, b.name FROM commits c LEFT JOIN branches b ON b.id = c.branch_id WHERE c.repo_id = $1",
        uuid.UUID(space["id"]),
    )
    assert {row["message"]: row["name"] for row in rows} == {
        "base": "main",
        "applied": "side",
        restored.json()["message"]: "side",
    }


async def test_a_checkpoint_of_another_space_naming_the_session_is_not_its_last_save(
    client: httpx.AsyncClient,
) -> None:
    space, elsewhere = await create_space(client), await create_space(client, name="Elsewhere")
    session = await create_session(client, space["id"])
    await commit(client, elsewhere["id"], "claims to come from it", metadata=_source(session))
    # Free-form metadata of every shape: none makes the read fail.
    odd_sources: list[Any] = ["text", {"session_id": 4}, {"session_id": None}, []]
    for odd in odd_sources:
        await commit(client, space["id"], "odd", metadata={"source": odd})
    assert (await _get(client, session["id"]))["last_saved"] is None


async def test_a_session_lists_the_sessions_continued_from_it_newest_first_and_bounded(
    client: httpx.AsyncClient,
) -> None:
    space = await create_space(client)
    checkpoint = await commit(client, space["id"], "plan")
    origin = await create_session(client, space["id"], title="Origin")
    await send(client, origin["id"], "hello")
    forks = []
    for n in range(12):
        made = await client.post(
            f"/v5/sessions/{origin['id']}/fork", json={"checkpoint_id": checkpoint["id"], "title": f"fork {n}"}
        )
        assert made.status_code == 201, made.text
        forks.append(made.json())
    answer = await _get(client, origin["id"])
    assert answer["continued_count"] == 12
    assert [c["title"] for c in answer["continued_in"]] == [f"fork {n}" for n in range(11, 1, -1)]
    assert answer["continued_in"][0]["session_id"] == forks[-1]["id"]
    assert answer["continued_in"][0]["base_commit_id"] == checkpoint["id"]
    # All of them, paged, through the list's filter; the fork links back.
    listed = await client.get(f"/v4/repos/{space['id']}/sessions", params={"forked_from": origin["id"], "limit": 50})
    assert listed.status_code == 200, listed.text
    assert listed.json()["total"] == 12
    assert {s["id"] for s in listed.json()["items"]} == {f["id"] for f in forks}
    fork = await _get(client, forks[0]["id"])
    assert fork["forked_from"] == {"session_id": origin["id"], "sequence_number": 2, "deleted": False}
    assert (fork["continued_count"], fork["continued_in"]) == (0, [])


async def test_an_imported_space_knows_the_line_of_each_head(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    base = await commit(client, space["id"], "base")
    await _line(client, space["id"], "side", base["id"])
    on_side = await commit(client, space["id"], "saved on side", branch="side", metadata=_source(session))
    bundle = (await client.get(f"/v5/repos/{space['id']}/export")).content
    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204

    imported = await client.post("/v5/repos/import", content=bundle, headers={"Content-Type": "application/x-ndjson"})
    assert imported.status_code == 201, imported.text
    # A bundle does not carry the line each Checkpoint went to; a HEAD younger than its line did.
    assert (await _get(client, session["id"]))["last_saved"] == {
        "commit_id": on_side["id"],
        "commit_hash": on_side["commit_hash"],
        "branch": "side",
    }
