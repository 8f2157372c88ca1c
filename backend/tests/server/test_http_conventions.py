"""HTTP's own conventions (SYSTEM.md §11; issue 21, item 15): HEAD, OPTIONS, Location, ETag."""

from __future__ import annotations

import uuid

import httpx

from tests.support.api import commit, create_space


async def test_options_lists_every_method_of_the_path(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    for path, methods in (
        (f"/v4/repos/{space['id']}", "DELETE, GET, HEAD, OPTIONS, PATCH"),
        ("/v4/repos", "GET, HEAD, OPTIONS, POST"),
        ("/v4/chat/send", "OPTIONS, POST"),
        (f"/v4/repos/{space['id']}/branches/main", "DELETE, GET, HEAD, OPTIONS, PATCH"),
    ):
        response = await client.options(path)
        assert response.status_code == 204, (path, response.text)
        assert response.headers["allow"] == methods, path
    wrong = await client.put(f"/v4/repos/{space['id']}", json={})
    assert wrong.status_code == 405
    assert set(wrong.headers["allow"].replace(" ", "").split(",")) >= {"GET", "PATCH", "DELETE"}


async def test_every_get_route_answers_head_with_the_get_headers_and_no_body(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    checkpoint = await commit(client, space["id"], "first")
    for path in (
        "/health",
        "/v4/repos",
        f"/v4/repos/{space['id']}",
        f"/v4/repos/{space['id']}/head",
        f"/v4/commits/{checkpoint['id']}",
        "/v4/providers",
        "/schema/openapi.json",
    ):
        got = await client.get(path)
        head = await client.head(path)
        assert head.status_code == got.status_code == 200, (path, head.status_code)
        assert head.content == b""
        assert head.headers["content-length"] == got.headers["content-length"] == str(len(got.content)), path
        assert head.headers["content-type"] == got.headers["content-type"]
    missing = await client.head(f"/v4/repos/{uuid.uuid4()}")
    assert missing.status_code == 404
    assert missing.content == b""
    post_only = await client.head("/v4/chat/send")
    assert post_only.status_code == 405


async def test_a_201_says_where_the_new_resource_is(client: httpx.AsyncClient) -> None:
    created = await client.post("/v4/repos", json={"name": f"s-{uuid.uuid4().hex[:8]}"})
    space = created.json()
    assert created.headers["location"] == f"/v4/repos/{space['id']}"
    session = await client.post(f"/v4/repos/{space['id']}/sessions", json={})
    assert session.headers["location"] == f"/v4/sessions/{session.json()['id']}"
    saved = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "m"})
    assert saved.headers["location"] == f"/v4/commits/{saved.json()['id']}"
    line = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "idea/b"})
    assert line.status_code == 201, line.text
    assert line.headers["location"] == f"/v4/repos/{space['id']}/branches/idea/b"
    sent = await client.post("/v4/chat/send", json={"session_id": session.json()["id"], "content": "hi"})
    assert sent.status_code == 201, sent.text
    assert sent.headers["location"] == f"/v4/sessions/{session.json()['id']}/turns?after_seq=0"
    fork = await client.post(f"/v5/sessions/{session.json()['id']}/fork", json={"checkpoint_id": saved.json()["id"]})
    assert fork.headers["location"] == f"/v4/sessions/{fork.json()['id']}"
    for response in (created, session, saved, line, sent, fork):
        assert (await client.get(response.headers["location"])).status_code == 200


async def test_a_checkpoint_is_immutable_and_cached_by_its_hash(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    checkpoint = await commit(client, space["id"], "first", decisions=["Stay in Baixa"])
    by_id = await client.get(f"/v4/commits/{checkpoint['id']}")
    etag = f'"{checkpoint["commit_hash"]}"'
    assert by_id.headers["etag"] == etag
    assert "immutable" in by_id.headers["cache-control"]
    for ref in (checkpoint["id"], checkpoint["commit_hash"]):
        again = await client.get(f"/v4/commits/{ref}", headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["etag"] == etag
    listed = await client.get(f"/v4/commits/{checkpoint['id']}", headers={"If-None-Match": f'"x", {etag}'})
    assert listed.status_code == 304
    weak = await client.get(f"/v4/commits/{checkpoint['id']}", headers={"If-None-Match": f"W/{etag}"})
    assert weak.status_code == 304  # If-None-Match compares weakly (RFC 9110 §13.1.2)
    other = await client.get(f"/v4/commits/{checkpoint['id']}", headers={"If-None-Match": '"abc"'})
    assert other.status_code == 200
    assert other.json()["decisions"] == ["Stay in Baixa"]
    # A hash prefix may name another Checkpoint tomorrow (or none): tagged, but not immutable.
    prefix = await client.get(f"/v4/commits/{checkpoint['commit_hash'][:7]}")
    assert prefix.headers["etag"] == etag
    assert "immutable" not in prefix.headers["cache-control"]
    assert "no-cache" in prefix.headers["cache-control"]
    # HEAD moves: never cached as immutable.
    head = await client.get(f"/v4/repos/{space['id']}/head")
    assert "immutable" not in head.headers.get("cache-control", "")
