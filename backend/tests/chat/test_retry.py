"""Retrying the last exchange (`retry_of`): the same context again, a new pair, the old pair kept
in the history and left out of every later context."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest

from tests.support.api import create_session, create_space, send, turns
from tests.support.fake_providers import FakeProviderServer

OPENAI = {"provider": "openai"}


async def _two_exchanges(client: httpx.AsyncClient, fake: FakeProviderServer) -> dict[str, Any]:
    space = await create_space(client, f"retry-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    fake.state.reply = "First answer."
    await send(client, session["id"], "first question", **OPENAI)
    fake.state.reply = "Second answer, the one to retry."
    await send(client, session["id"], "second question", **OPENAI)
    fake.state.requests.clear()
    return session


def _sent(fake: FakeProviderServer) -> list[tuple[str, str]]:
    (body,) = fake.state.bodies("/chat/completions")
    fake.state.requests.clear()
    return [(message["role"], message["content"]) for message in body["messages"] if message["role"] != "system"]


async def _seqs_in_context(client: httpx.AsyncClient, session_id: str) -> list[int]:
    response = await client.post("/v4/chat/context", json={"session_id": session_id})
    assert response.status_code == 200, response.text
    return [message["sequence_number"] for message in response.json()["messages"]]


async def test_a_retry_gets_the_same_context_and_the_old_pair_leaves_every_later_one(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    session = await _two_exchanges(client, fake_providers)
    fake_providers.state.reply = "Second answer, asked again."
    again = await send(client, session["id"], "second question", retry_of=3, **OPENAI)

    assert again["user_turn"]["sequence_number"] == 5
    assert again["user_turn"]["retry_of"] == 3
    assert again["assistant_turn"]["retry_of"] is None
    assert again["assistant_turn"]["content"] == "Second answer, asked again."
    # The model got what the retried exchange got: the Turns before it, then the message.
    assert _sent(fake_providers) == [
        ("user", "first question"),
        ("assistant", "First answer."),
        ("user", "second question"),
    ]
    # The retried pair stays in the history, as it was.
    stored = await turns(client, session["id"])
    assert [(t["sequence_number"], t["content"], t["retry_of"]) for t in stored[2:]] == [
        (3, "second question", None),
        (4, "Second answer, the one to retry.", None),
        (5, "second question", 3),
        (6, "Second answer, asked again.", None),
    ]
    # ...and out of the context: the preview and the next send agree.
    assert await _seqs_in_context(client, session["id"]) == [1, 2, 5, 6]
    await send(client, session["id"], "third question", **OPENAI)
    assert [content for _, content in _sent(fake_providers)] == [
        "first question",
        "First answer.",
        "second question",
        "Second answer, asked again.",
        "third question",
    ]


async def test_a_retry_of_a_retry_leaves_both_earlier_pairs_out(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    session = await _two_exchanges(client, fake_providers)
    await send(client, session["id"], "second question", retry_of=3, **OPENAI)
    fake_providers.state.requests.clear()
    third = await send(client, session["id"], "second question", retry_of=5, **OPENAI)
    assert third["user_turn"]["sequence_number"] == 7
    assert [content for _, content in _sent(fake_providers)] == ["first question", "First answer.", "second question"]
    assert await _seqs_in_context(client, session["id"]) == [1, 2, 7, 8]
    # Only the last exchange can be retried: the earlier attempts no longer can.
    stale = await client.post(
        "/v4/chat/send", json={"session_id": session["id"], "content": "second question", "retry_of": 5, **OPENAI}
    )
    assert stale.status_code == 409, stale.text
    assert stale.json()["errors"][0]["field"] == "retry_of"


@pytest.mark.parametrize(
    ("fields", "status", "field"),
    [
        ({"retry_of": 1, "content": "first question"}, 409, "retry_of"),  # not the last exchange
        ({"retry_of": 4, "content": "second question"}, 400, "retry_of"),  # a reply, the last Turn
        ({"retry_of": 99, "content": "second question"}, 400, "retry_of"),  # no such Turn
        ({"retry_of": 0, "content": "second question"}, 400, "retry_of"),
        ({"retry_of": -3, "content": "second question"}, 400, "retry_of"),
        ({"retry_of": "3", "content": "second question"}, 400, "retry_of"),
        ({"retry_of": 3, "content": "another question"}, 400, "content"),  # a retry asks the same message
        # The exchange is at the mount's boundary: not in this context.
        ({"retry_of": 3, "content": "second question", "history_base_seq": 4}, 400, "retry_of"),
    ],
)
async def test_a_retry_that_names_no_last_exchange_is_refused_and_stores_nothing(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, fields: dict[str, Any], status: int, field: str
) -> None:
    session = await _two_exchanges(client, fake_providers)
    body = {"session_id": session["id"], **OPENAI, **fields}
    if "history_base_seq" in fields:
        space_id = session["repo_id"]
        checkpoint = await client.post("/v4/chat/commit", json={"repo_id": space_id, "message": "state"})
        body["checkpoint_id"] = checkpoint.json()["id"]
    response = await client.post("/v4/chat/send", json=body)
    assert response.status_code == status, response.text
    assert response.json()["errors"][0]["field"] == field
    assert fake_providers.state.bodies("/chat/completions") == []  # refused before the provider
    assert len(await turns(client, session["id"])) == 4


async def test_a_retry_is_not_stored_when_another_exchange_was_stored_while_it_was_answered(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    """The race: the retry read a context in which its exchange was last, then another send
    stored a pair (answered with the retried one in its context). Storing the retry then would
    leave that pair answering an exchange that is out of context: 409, nothing stored."""
    session = await _two_exchanges(client, fake_providers)
    fake_providers.state.delay_seconds = 0.6
    other = asyncio.create_task(send(client, session["id"], "a message from another tab", **OPENAI))
    await asyncio.sleep(0.2)  # the other send is with the provider; the retry reads 4 as the last Turn
    retry = await client.post(
        "/v4/chat/send",
        json={"session_id": session["id"], "content": "second question", "retry_of": 3, **OPENAI},
    )
    await other
    assert retry.status_code == 409, retry.text
    assert retry.json()["errors"][0]["field"] == "retry_of"
    assert "nothing was stored" in retry.json()["detail"]
    stored = await turns(client, session["id"])
    assert [(t["role"], t["content"]) for t in stored[4:]] == [
        ("user", "a message from another tab"),
        ("assistant", "Second answer, the one to retry."),  # the fake's reply, unchanged
    ]
    assert all(t["retry_of"] is None for t in stored)
    # The session is whole: its counter and Turns agree, and the new last exchange can be retried.
    fake_providers.state.delay_seconds = 0
    again = await send(client, session["id"], "a message from another tab", retry_of=5, **OPENAI)
    assert again["user_turn"]["sequence_number"] == 7


async def test_a_retry_with_a_request_id_is_idempotent_and_the_key_names_the_retry(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    session = await _two_exchanges(client, fake_providers)
    body = {"session_id": session["id"], "content": "second question", "retry_of": 3, "request_id": "again-1", **OPENAI}
    first, second = await asyncio.gather(
        client.post("/v4/chat/send", json=body), client.post("/v4/chat/send", json=body)
    )
    assert first.status_code == second.status_code == 201, (first.text, second.text)
    assert first.json()["user_turn"] == second.json()["user_turn"]
    assert len(fake_providers.state.bodies("/chat/completions")) == 1
    # The same key and text without retry_of is another request: refused, not replayed.
    plain = await client.post("/v4/chat/send", json={**body, "retry_of": None})
    assert plain.status_code == 409, plain.text
    assert plain.json()["errors"][0]["field"] == "request_id"
    assert len(await turns(client, session["id"])) == 6


async def test_a_draft_reads_the_conversation_without_the_retried_pair(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    session = await _two_exchanges(client, fake_providers)
    fake_providers.state.reply = "Second answer, asked again."
    await send(client, session["id"], "second question", retry_of=3, **OPENAI)
    fake_providers.state.requests.clear()
    await client.post("/v5/checkpoints/draft", json={"session_id": session["id"], **OPENAI})
    (body,) = fake_providers.state.bodies("/chat/completions")
    sent = json.dumps(body)
    assert "Second answer, asked again." in sent
    assert "the one to retry" not in sent
