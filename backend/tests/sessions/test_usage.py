"""Usage (issue 25): the tokens each Session's replies cost, and each Space's, as the providers
reported them, with the replies they reported nothing for counted apart."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.support.api import create_session, create_space, send, turns
from tests.support.fake_providers import FakeProviderServer


def _summed(stored: list[dict[str, Any]]) -> dict[str, int]:
    replies = [t for t in stored if t["role"] == "assistant"]
    return {
        "input_tokens": sum(t["input_tokens"] or 0 for t in replies),
        "output_tokens": sum(t["output_tokens"] or 0 for t in replies),
        "uncounted_replies": sum(t["input_tokens"] is None or t["output_tokens"] is None for t in replies),
    }


async def test_a_session_and_its_space_sum_what_the_providers_reported(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    space = await create_space(client, f"usage-{uuid.uuid4().hex[:6]}")
    other_space = await create_space(client, f"usage-other-{uuid.uuid4().hex[:6]}")
    first = await create_session(client, space["id"])
    second = await create_session(client, space["id"])
    elsewhere = await create_session(client, other_space["id"])
    assert first["usage"] == {"input_tokens": 0, "output_tokens": 0, "uncounted_replies": 0}

    await send(client, first["id"], "one", provider="openai")
    await send(client, first["id"], "two", provider="anthropic")
    fake_providers.state.stream_usage = False  # a server that ignores include_usage: no counts
    await send(client, second["id"], "three", provider="openai")
    fake_providers.state.stream_usage = True
    await send(client, second["id"], "four", provider="openai")
    await send(client, elsewhere["id"], "not this Space's", provider="openai")

    one = (await client.get(f"/v4/sessions/{first['id']}")).json()["usage"]
    two = (await client.get(f"/v4/sessions/{second['id']}")).json()["usage"]
    assert one == _summed(await turns(client, first["id"]))
    assert two == _summed(await turns(client, second["id"]))
    assert one["input_tokens"] > 0
    assert one["uncounted_replies"] == 0
    assert two["uncounted_replies"] == 1
    expected = {key: one[key] + two[key] for key in one}
    assert (await client.get(f"/v4/repos/{space['id']}")).json()["usage"] == expected
    listed = (await client.get("/v4/repos?limit=200")).json()["items"]
    assert next(s for s in listed if s["id"] == space["id"])["usage"] == expected
    sessions = (await client.get(f"/v4/repos/{space['id']}/sessions")).json()["items"]
    assert {s["id"]: s["usage"] for s in sessions} == {first["id"]: one, second["id"]: two}


async def test_imported_replies_and_a_fork_start_honest(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"usage-{uuid.uuid4().hex[:6]}")
    ingested = await client.post(
        "/v1/transcripts",
        json={"transcript": "User: hi\nAssistant: hello\nUser: bye\nAssistant: ciao", "repo_id": space["id"]},
    )
    session_id = ingested.json()["session_id"]
    usage = (await client.get(f"/v4/sessions/{session_id}")).json()["usage"]
    assert usage == {"input_tokens": 0, "output_tokens": 0, "uncounted_replies": 2}
    saved = await client.post("/v4/chat/commit", json={"repo_id": space["id"], "message": "Plan"})
    fork = await client.post(f"/v5/sessions/{session_id}/fork", json={"checkpoint_id": saved.json()["id"]})
    assert fork.json()["usage"] == {"input_tokens": 0, "output_tokens": 0, "uncounted_replies": 0}
