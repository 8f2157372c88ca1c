"""Lines of Checkpoints: each has its own HEAD, moved only forward by compare-and-swap; the
default line's HEAD is the Space's HEAD, so a client that names no line sees no change."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_space
from tests.support.locks import someone_waits_on_a_lock


async def _line(client: httpx.AsyncClient, space: str, name: str, **fields: Any) -> dict[str, Any]:
    response = await client.post(f"/v4/repos/{space}/branches", json={"name": name, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def _lines(client: httpx.AsyncClient, space: str) -> list[dict[str, Any]]:
    response = await client.get(f"/v4/repos/{space}/branches")
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def _head(client: httpx.AsyncClient, space: str, branch: str | None = None) -> dict[str, Any]:
    params = {"branch": branch} if branch else {}
    response = await client.get(f"/v4/repos/{space}/head", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_new_space_has_a_default_main_line(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    [main] = await _lines(client, space["id"])
    assert (main["name"], main["is_default"], main["head_commit_id"]) == ("main", True, None)
    first = await commit(client, space["id"], "one")
    [main] = await _lines(client, space["id"])
    assert main["head_commit_id"] == first["id"]
    assert (await _head(client, space["id"], "MAIN"))["id"] == first["id"]  # names ignore case


async def test_a_commit_to_a_line_moves_only_that_line(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    await _line(client, space["id"], "idea", from_ref=base["commit_hash"][:7])
    side = await commit(client, space["id"], "on idea", branch=" idea ")
    assert side["parent_commit_id"] == base["id"]
    assert (await _head(client, space["id"]))["id"] == base["id"]  # the Space's HEAD stayed
    assert (await _head(client, space["id"], "idea"))["id"] == side["id"]
    mainline = await commit(client, space["id"], "on main")
    assert mainline["parent_commit_id"] == base["id"]
    log = (await client.get(f"/v4/repos/{space['id']}/commits", params={"branch": "idea"})).json()
    assert [c["message"] for c in log["items"]] == ["on idea", "base"]
    assert log["total"] == 2
    everything = (await client.get(f"/v4/repos/{space['id']}/commits")).json()
    assert everything["total"] == 3


async def test_a_stale_expected_head_on_a_line_is_a_409_naming_the_line(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    await _line(client, space["id"], "idea")
    await commit(client, space["id"], "moved", branch="idea")
    response = await client.post(
        "/v4/chat/commit",
        json={"repo_id": space["id"], "message": "late", "branch": "idea", "expected_head_commit_id": base["id"]},
    )
    assert response.status_code == 409
    assert "'idea'" in response.json()["detail"]
    assert response.json()["errors"][0]["field"] == "expected_head_commit_id"


async def test_an_unknown_line_is_a_404_naming_branch_everywhere(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "base")
    sid = space["id"]
    answers = [
        await client.post("/v4/chat/commit", json={"repo_id": sid, "message": "x", "branch": "nope"}),
        await client.get(f"/v4/repos/{sid}/head", params={"branch": "nope"}),
        await client.get(f"/v4/repos/{sid}/commits", params={"branch": "nope"}),
        await client.post("/v5/checkpoints/apply", json={"repo_id": sid, "message": "x", "branch": "nope"}),
    ]
    for response in answers:
        assert response.status_code == 404, response.text
        assert response.json()["errors"][0]["field"] == "branch", response.text
    assert (await client.get(f"/v4/repos/{sid}/branches/nope")).status_code == 404
    total = (await client.get(f"/v4/repos/{sid}/commits")).json()["total"]
    assert total == 1  # nothing was written


async def test_twenty_racing_commits_with_one_expected_head_write_exactly_one(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    await _line(client, space["id"], "race")
    responses = await asyncio.gather(
        *(
            client.post(
                "/v4/chat/commit",
                json={
                    "repo_id": space["id"],
                    "message": f"c{i}",
                    "branch": "race" if i % 2 else "RACE",
                    "expected_head_commit_id": base["id"],
                },
            )
            for i in range(20)
        )
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [409] * 19
    log = (await client.get(f"/v4/repos/{space['id']}/commits", params={"branch": "race"})).json()
    assert log["total"] == 2


async def test_concurrent_commits_to_one_line_lose_none(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "base")
    await _line(client, space["id"], "busy")
    # Half name the default line, half leave it out: two keys for one line in the writer.
    made = await asyncio.gather(
        *(
            commit(client, space["id"], f"c{i}", **({"branch": "busy"} if i % 3 else {"branch": "main"}))
            for i in range(30)
        ),
        *(commit(client, space["id"], f"d{i}") for i in range(10)),
    )
    for name in ("busy", "main"):
        log = (await client.get(f"/v4/repos/{space['id']}/commits", params={"branch": name, "limit": 100})).json()
        # One unbroken line: every Checkpoint made on it is in its first-parent history.
        mine = [c for c in made if c["id"] in {item["id"] for item in log["items"]}]
        assert log["total"] == len(log["items"])
        assert len(mine) == len(log["items"]) - 1
    assert (await client.get(f"/v4/repos/{space['id']}/commits")).json()["total"] == 41
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is True, report


async def test_commits_to_another_line_do_not_wait_for_a_held_line(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "base")
    await _line(client, space["id"], "held")
    async with db.transaction():
        await db.execute(
            "SELECT 1 FROM branches WHERE repo_id = $1 AND name = 'held' FOR UPDATE", uuid.UUID(space["id"])
        )
        held = asyncio.create_task(commit(client, space["id"], "waits", branch="held"))
        await someone_waits_on_a_lock(db)
        free = await asyncio.wait_for(commit(client, space["id"], "free"), timeout=5)
        assert free["message"] == "free"
        assert not held.done()
    assert (await held)["message"] == "waits"


async def test_line_names_are_checked(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    base = await commit(client, space["id"], "base")
    url = f"/v4/repos/{space['id']}/branches"
    cases = [
        ({"name": "x" * 101, "from_ref": base["id"]}, 400, "name"),
        ({"name": "bad\u0007name"}, 400, "name"),
        ({"name": "zero\u200bwidth"}, 400, "name"),
        ({"name": "   "}, 400, "name"),
        ({"name": "Main"}, 409, "name"),
        ({"name": ".."}, 400, "name"),
        ({"name": " .. "}, 400, "name"),  # after trimming
        ({"name": "."}, 400, "name"),
        ({"name": "/x"}, 400, "name"),
        ({"name": "y/"}, 400, "name"),
        ({"name": "a//b"}, 400, "name"),
        ({"name": "c/."}, 400, "name"),
        ({"name": "d/../e"}, 400, "name"),
        ({"name": "ok", "from_ref": "0000000"}, 404, "from_ref"),
        ({"name": "ok", "from_ref": "xyz"}, 400, "from_ref"),
    ]
    for body, status, field in cases:
        response = await client.post(url, json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["errors"][0]["field"] == field, (body, response.text)
    other = await create_space(client, name="Other")
    foreign = await commit(client, other["id"], "elsewhere")
    response = await client.post(url, json={"name": "ok", "from_ref": foreign["id"]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "from_ref"
    assert [line["name"] for line in await _lines(client, space["id"])] == ["main"]


async def test_rename_make_default_and_delete(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    sid = space["id"]
    base = await commit(client, sid, "base")
    await _line(client, sid, "feature/login")
    tip = await commit(client, sid, "login works", branch="feature/login")
    renamed = await client.patch(f"/v4/repos/{sid}/branches/feature/login", json={"name": "login"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "login"
    assert (await client.patch(f"/v4/repos/{sid}/branches/login", json={"name": "MAIN"})).status_code == 409
    made = await client.patch(f"/v4/repos/{sid}/branches/login", json={"is_default": True})
    assert made.status_code == 200, made.text
    space_now = (await client.get(f"/v4/repos/{sid}")).json()
    assert (space_now["head_commit_id"], space_now["head_commit_hash"]) == (tip["id"], tip["commit_hash"])
    assert [(line["name"], line["is_default"]) for line in await _lines(client, sid)] == [
        ("login", True),
        ("main", False),
    ]
    # A client that names no line now commits on top of the new default.
    after = await commit(client, sid, "next")
    assert after["parent_commit_id"] == tip["id"]
    assert (await client.delete(f"/v4/repos/{sid}/branches/login")).status_code == 409
    assert (await client.patch(f"/v4/repos/{sid}/branches/main", json={"is_default": False})).status_code == 400
    deleted = await client.delete(f"/v4/repos/{sid}/branches/main")
    assert deleted.status_code == 204
    # Its Checkpoints stay, and so does the count.
    assert (await client.get(f"/v4/commits/{base['id']}")).status_code == 200
    assert (await client.get(f"/v4/repos/{sid}/commits")).json()["total"] == 3
    assert (await client.get(f"/v4/repos/{sid}/verify")).json()["ok"] is True


async def test_making_a_line_default_while_commits_race_loses_none(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    sid = space["id"]
    await commit(client, sid, "base")
    await _line(client, sid, "other")

    async def flip(times: int) -> None:
        for i in range(times):
            name = "other" if i % 2 == 0 else "main"
            response = await client.patch(f"/v4/repos/{sid}/branches/{name}", json={"is_default": True})
            assert response.status_code == 200, response.text

    results = await asyncio.gather(flip(6), *(commit(client, sid, f"c{i}") for i in range(20)))
    made = [r for r in results if r is not None]
    assert len(made) == 20
    everything = (await client.get(f"/v4/repos/{sid}/commits", params={"limit": 100})).json()
    assert everything["total"] == 21
    report = (await client.get(f"/v4/repos/{sid}/verify")).json()
    assert report["ok"] is True, report


@pytest.mark.parametrize("branch", [None, "side"])
async def test_a_line_log_pages_and_counts_without_walking(client: httpx.AsyncClient, branch: str | None) -> None:
    space = await create_space(client)
    sid = space["id"]
    first = await commit(client, sid, "c0")
    if branch:
        await _line(client, sid, branch, from_ref=first["id"])
    for i in range(1, 8):
        await commit(client, sid, f"c{i}", **({"branch": branch} if branch else {}))
    name = branch or "main"
    page = (await client.get(f"/v4/repos/{sid}/commits", params={"branch": name, "limit": 3, "offset": 2})).json()
    assert [c["message"] for c in page["items"]] == ["c5", "c4", "c3"]
    assert page["total"] == 8
    last = (await client.get(f"/v4/repos/{sid}/commits", params={"branch": name, "limit": 3, "offset": 6})).json()
    assert [c["message"] for c in last["items"]] == ["c1", "c0"]


async def test_two_servers_committing_to_one_line_keep_its_length_right(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    # Two writers (as two processes) wait on each other's row lock: a commit that waited must
    # read its parent's depth from the locked line, not from a snapshot that predates it.
    space = await create_space(client)
    await commit(client, space["id"], "base")
    async with make_client(settings) as other:
        made = await asyncio.gather(
            *(commit(client if i % 2 else other, space["id"], f"c{i}", branch="main") for i in range(30))
        )
    log = (await client.get(f"/v4/repos/{space['id']}/commits", params={"branch": "main", "limit": 100})).json()
    assert log["total"] == len(log["items"]) == len(made) + 1
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is True, report


@pytest.mark.parametrize("raw", [b"bad%00name", b"%ED%A0%80", b"x" * 300])
async def test_a_line_name_no_line_can_have_is_a_4xx_not_a_500(client: httpx.AsyncClient, raw: bytes) -> None:
    # NUL, a lone surrogate (its UTF-8 spelling) and an overlong name, raw in the query and path.
    space = await create_space(client)
    await commit(client, space["id"], "base")
    base = f"/v4/repos/{space['id']}".encode()
    for target in (base + b"/head?branch=" + raw, base + b"/commits?branch=" + raw):
        response = await client.get(httpx.URL("http://localhost").copy_with(raw_path=target))
        assert response.status_code in {400, 404}, response.text
        assert response.json()["errors"][0]["field"] == "branch", response.text
        assert response.json()["errors"][0]["source"] == "query", response.text
    path = httpx.URL("http://localhost").copy_with(raw_path=base + b"/branches/" + raw)
    for method in ("GET", "DELETE"):
        response = await client.request(method, path)
        assert response.status_code == 404, response.text
    response = await client.patch(path, json={"name": "fine"})
    assert response.status_code == 404, response.text


async def test_a_line_named_like_a_path_segment_cannot_reach_the_space(client: httpx.AsyncClient) -> None:
    # A client resolves `..` before sending: a line named so would be the Space's own URL, and
    # deleting the line would delete the Space. Such names are refused at creation and rename.
    space = await create_space(client)
    await commit(client, space["id"], "base")
    await _line(client, space["id"], "feature/login")
    for name in ("..", " . ", "x/ .. "):
        renamed = await client.patch(f"/v4/repos/{space['id']}/branches/feature/login", json={"name": name})
        assert (renamed.status_code, renamed.json()["errors"][0]["field"]) == (400, "name")
    assert (await client.get(f"/v4/repos/{space['id']}")).status_code == 200


async def test_a_page_past_the_end_of_a_line_is_empty(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "base")
    response = await client.get(
        f"/v4/repos/{space['id']}/commits", params={"branch": "main", "offset": 2147483647, "limit": 100}
    )
    assert response.status_code == 200, response.text
    assert (response.json()["items"], response.json()["total"]) == ([], 1)


async def test_an_empty_default_line_beside_a_line_with_checkpoints_verifies_clean(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await _line(client, space["id"], "empty")
    await commit(client, space["id"], "on main")
    made = await client.patch(f"/v4/repos/{space['id']}/branches/empty", json={"is_default": True})
    assert made.status_code == 200, made.text
    report = (await client.get(f"/v4/repos/{space['id']}/verify")).json()
    assert report["ok"] is True, report
