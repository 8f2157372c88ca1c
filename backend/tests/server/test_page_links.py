"""Every paged list says where its neighbouring pages are in a `Link` header (RFC 8288; issue 44
item 12): `next` while items remain, `prev` and `first` past the first page, each the request's
own path and query with `offset` changed."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from smriti.core.schemas import MAX_INT4
from tests.support.api import commit, create_session, create_space, send


async def _walk(client: httpx.AsyncClient, first: str) -> list[Any]:
    """The items of every page, following `next` from `first` until a page has none."""
    items: list[Any] = []
    url: str | None = first
    while url is not None:
        page = await client.get(url)
        assert page.status_code == 200, (url, page.text)
        body = page.json()
        assert body["items"], url  # a `next` link never leads to an empty page
        items += body["items"]
        following = page.links.get("next")
        url = following["url"] if following else None
        if url is not None:
            assert "offset=" in url
    return items


async def _space_with_lists(client: httpx.AsyncClient) -> dict[str, Any]:
    space = await create_space(client, f"links-{uuid.uuid4().hex[:8]}")
    base = await commit(client, space["id"], "c0")
    for n in range(1, 5):
        await commit(client, space["id"], f"c{n}")
    for name in ("alpha", "beta", "gamma", "delta"):
        made = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": name, "from_ref": base["id"]})
        assert made.status_code == 201, made.text
    for n in range(5):
        await create_session(client, space["id"], title=f"Trip {n}")
    return space


async def test_each_list_links_its_next_page_until_the_last(client: httpx.AsyncClient) -> None:
    space = await _space_with_lists(client)
    for _ in range(2):  # three Spaces to page through
        await create_space(client, f"other-{uuid.uuid4().hex[:8]}")
    chat = await create_session(client, space["id"], title="Chat")
    for n in range(3):
        await send(client, chat["id"], f"message {n}")
    lists = [
        "/v4/repos",
        f"/v4/repos/{space['id']}/branches",
        f"/v4/repos/{space['id']}/commits",
        f"/v4/repos/{space['id']}/commits?branch=main",
        f"/v4/repos/{space['id']}/sessions",
        f"/v4/repos/{space['id']}/sessions?q=trip",
        f"/v4/sessions/{chat['id']}/turns",
        f"/v4/sessions/{chat['id']}/turns?after_seq=1",
        f"/v5/search?q=message&repo_id={space['id']}",
    ]
    for path in lists:
        joiner = "&" if "?" in path else "?"
        whole = (await client.get(f"{path}{joiner}limit=200")).json()
        assert whole["total"] >= 3, path
        walked = await _walk(client, f"{path}{joiner}limit=2")
        assert walked == whole["items"], path
        # The filters stay in every link: `q` kept only the five Trips, `after_seq` the Turns after 1.
        if "q=trip" in path:
            assert {s["title"] for s in walked} == {f"Trip {n}" for n in range(5)}
        if "after_seq" in path:
            assert [t["sequence_number"] for t in walked] == [2, 3, 4, 5, 6]


async def test_links_on_a_middle_page_the_last_page_and_past_the_end(client: httpx.AsyncClient) -> None:
    space = await _space_with_lists(client)
    commits = f"/v4/repos/{space['id']}/commits"

    first = await client.get(commits, params={"limit": 2})
    assert set(first.links) == {"next"}
    middle = await client.get(commits, params={"limit": 2, "offset": 2})
    assert middle.links["next"]["url"] == f"{commits}?limit=2&offset=4"
    assert middle.links["prev"]["url"] == f"{commits}?limit=2&offset=0"
    assert middle.links["first"]["url"] == f"{commits}?limit=2&offset=0"
    last = await client.get(commits, params={"limit": 2, "offset": 4})
    assert len(last.json()["items"]) == 1
    assert set(last.links) == {"prev", "first"}

    # Past the end: no next; prev is the last page that holds items.
    beyond = await client.get(commits, params={"offset": MAX_INT4, "limit": 2})
    assert beyond.status_code == 200
    assert beyond.json()["items"] == []
    assert set(beyond.links) == {"prev", "first"}
    back = await client.get(beyond.links["prev"]["url"])
    assert [c["message"] for c in back.json()["items"]] == ["c1", "c0"]

    # The largest page holds everything: nothing to link to.
    whole = await client.get(commits, params={"limit": 200})
    assert "link" not in whole.headers
    sessions = await client.get(f"/v4/repos/{space['id']}/sessions", params={"limit": 200, "offset": 0})
    assert "link" not in sessions.headers


async def test_a_link_keeps_the_query_as_sent_and_escapes_what_a_header_cannot_hold(
    client: httpx.AsyncClient,
) -> None:
    space = await create_space(client, f"links-{uuid.uuid4().hex[:8]}")
    for title in ("Café <1>", "Café <2>", "Café <3>"):
        await create_session(client, space["id"], title=title)
    sessions = f"/v4/repos/{space['id']}/sessions"
    # A space and angle brackets escaped by the client, an `é` sent as UTF-8: kept as sent, and
    # `offset` given twice is replaced, not repeated.
    answer = await client.get(f"{sessions}?q=Caf%C3%A9+%3C&limit=1&offset=0&offset=1")
    assert answer.status_code == 200, answer.text
    link = answer.headers["link"]
    assert f'<{sessions}?q=Caf%C3%A9+%3C&limit=1&offset=2>; rel="next"' in link
    assert link.count("offset=") == 3  # next, prev, first: one offset each
    walked = await _walk(client, answer.links["first"]["url"])
    assert sorted(s["title"] for s in walked) == ["Café <1>", "Café <2>", "Café <3>"]


async def test_the_openapi_document_names_the_link_header_of_every_paged_list(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    for path in (
        "/v4/repos",
        "/v4/repos/{repo_id}/branches",
        "/v4/repos/{repo_id}/commits",
        "/v4/repos/{repo_id}/sessions",
        "/v4/sessions/{session_id}/turns",
        "/v5/search",
    ):
        assert "Link" in schema["paths"][path]["get"]["responses"]["200"]["headers"], path
