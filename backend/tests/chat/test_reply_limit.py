"""A reply the provider ends at its length limit is marked (`Turn.at_limit`), never stored as if
whole: every reply is sent with a limit (`max_tokens`), so a long answer can end mid-sentence."""

from __future__ import annotations

import json
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.api import create_session, create_space, send, turns
from tests.support.events import EVENT_STREAM
from tests.support.fake_providers import FakeProviderServer


def _done_event(body: str) -> dict[str, Any]:
    """The `done` event's data in a whole event stream."""
    for block in body.split("\n\n"):
        lines = block.splitlines()
        if "event: done" in lines:
            return dict(json.loads("".join(line[len("data:") :] for line in lines if line.startswith("data:"))))
    raise AssertionError(f"no done event in {body[:500]!r}")


@pytest.mark.parametrize("streamed", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_reply_ended_at_the_limit_is_marked_and_a_whole_one_is_not(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection, provider: str, streamed: bool
) -> None:
    space = await create_space(client, f"limit-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"], provider=provider)
    await send(client, session["id"], "A short question.")

    fake_providers.state.at_limit = True
    if streamed:
        response = await client.post(
            "/v4/chat/send", json={"session_id": session["id"], "content": "Tell me everything."}, headers=EVENT_STREAM
        )
        assert response.status_code == 200, response.text
        reply = _done_event(response.text)["assistant_turn"]
    else:
        response = await client.post(
            "/v4/chat/send", json={"session_id": session["id"], "content": "Tell me everything."}
        )
        assert response.status_code == 201, response.text
        reply = response.json()["assistant_turn"]

    assert reply["at_limit"] is True
    stored = await turns(client, session["id"])
    assert [turn["at_limit"] for turn in stored] == [False, False, False, True]
    assert await db.fetchval("SELECT count(*) FROM turns WHERE at_limit") == 1
