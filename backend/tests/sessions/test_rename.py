"""`PATCH /v4/sessions/{session_id}` renames a Session (issue 21, item 4)."""

from __future__ import annotations

import uuid

import httpx

from tests.support.api import create_session, create_space


async def test_a_session_is_renamed_and_keeps_the_new_title(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"], title="Session of Dec 1, 2026, 6:04 PM")
    renamed = await client.patch(f"/v4/sessions/{session['id']}", json={"title": "  Lisbon itinerary "})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "Lisbon itinerary"
    assert renamed.json()["turn_count"] == 0
    again = await client.get(f"/v4/sessions/{session['id']}")
    assert again.json()["title"] == "Lisbon itinerary"
    listed = await client.get(f"/v4/repos/{space['id']}/sessions")
    assert [s["title"] for s in listed.json()["items"]] == ["Lisbon itinerary"]


async def test_renaming_a_missing_session_is_a_404_and_bad_titles_name_the_field(client: httpx.AsyncClient) -> None:
    missing = await client.patch(f"/v4/sessions/{uuid.uuid4()}", json={"title": "x"})
    assert missing.status_code == 404
    space = await create_space(client, f"s-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"], title="kept")
    for body in ({"title": 4}, {}, {"title": "a\u0000b"}, {"title": "x", "provider": "openai"}):
        refused = await client.patch(f"/v4/sessions/{session['id']}", json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert "title" in refused.text or "provider" in refused.text
    assert (await client.get(f"/v4/sessions/{session['id']}")).json()["title"] == "kept"
