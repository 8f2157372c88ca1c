"""A receipt for every reply (SYSTEM.md §9): `context_sha256` on each assistant Turn, the same
hash from the context preview, and the endpoint that rebuilds a past reply's context, held to
what the fake provider really received."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from typing import Any

import httpx
import pytest
import rfc8785

from smriti.chat.context import HistoryTurn
from smriti.chat.receipts import ReceiptCache, canonical_context, context_sha256
from smriti.providers.base import ChatMessage
from tests.support.api import commit, create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer, last_sent

HOSTILE = ['quote " backslash \\ slash /', "\x00\x01\x1f\x7f", "tab\tnew\nline\r", "é ü 漢字 🙂 \u2028\u2029 \ufeff"]


def test_the_canonical_json_is_rfc_8785_byte_for_byte() -> None:
    for text in [*HOSTILE, *(chr(cp) for cp in range(0x3000) if not 0xD800 <= cp <= 0xDFFF)]:
        messages = [ChatMessage(role="user", content=text), ChatMessage(role="assistant", content=text + "!")]
        ours = canonical_context("openai", f"m{text}", text, messages)
        expected: dict[str, Any] = {
            "provider": "openai",
            "model": f"m{text}",
            "system": text,
            "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": text + "!"}],
        }
        assert ours == rfc8785.dumps(expected), repr(text)
    assert canonical_context("offline", "offline-1", None, []) == rfc8785.dumps(
        {"provider": "offline", "model": "offline-1", "system": None, "messages": []}
    )


def test_the_receipt_cache_moves_on_with_the_session_and_hashes_only_what_is_new() -> None:
    cache, key, request = ReceiptCache(), ("session", None, None), ("offline", "offline-1", None)
    history: list[HistoryTurn] = []
    for n in range(1, 6):
        message = ChatMessage(role="user", content=f"message {n}")
        assert cache.receipt(key, request, [*history, message]) == context_sha256(*request, [*history, message])
        # The hash state kept is after the whole history this send had: the next send feeds it
        # its own pair and message only, however long the Session (it once stayed on the first).
        kept = cache._prefixes.get(key)
        assert (kept.count if kept else 0) == len(history)
        history += [HistoryTurn("user", f"message {n}", 2 * n - 1), HistoryTurn("assistant", f"reply {n}", 2 * n)]
    # A history that no longer begins the same way (a retry took a pair out) hashes afresh, and
    # the Session goes on from there; another mount of it is kept apart.
    history = history[:4]
    mounted = ("offline", "offline-1", "## Checkpoint abc1234: the state")
    for n in range(6, 9):
        message = ChatMessage(role="user", content=f"message {n}")
        assert cache.receipt(key, request, [*history, message]) == context_sha256(*request, [*history, message])
        since = history[2:]
        other = ("session", "checkpoint", 2)
        assert cache.receipt(other, mounted, [*since, message]) == context_sha256(*mounted, [*since, message])
        history += [HistoryTurn("user", f"message {n}", 2 * n - 1), HistoryTurn("assistant", f"reply {n}", 2 * n)]


async def _answered(client: httpx.AsyncClient, session_id: str, seq: int) -> dict[str, Any]:
    response = await client.get(f"/v4/sessions/{session_id}/turns/{seq}/context")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _check_receipt(
    client: httpx.AsyncClient, fake: FakeProviderServer, provider: str, sent: dict[str, Any]
) -> dict[str, Any]:
    """The rebuilt context is what the provider received, and both hash to the reply's receipt."""
    reply = sent["assistant_turn"]
    rebuilt = await _answered(client, reply["session_id"], reply["sequence_number"])
    model, system, messages = last_sent(fake, provider)
    assert rebuilt["system"] == system
    assert [{"role": m["role"], "content": m["content"]} for m in rebuilt["messages"]] == messages
    assert rebuilt["model"] == model == sent["user_turn"]["model"]
    assert rebuilt["provider"] == provider
    received = rfc8785.dumps({"provider": provider, "model": model, "system": system, "messages": messages})
    assert reply["context_sha256"] == hashlib.sha256(received).hexdigest()
    assert rebuilt["context_sha256"] == rebuilt["recorded_sha256"] == reply["context_sha256"]
    assert rebuilt["matches"] is True
    return rebuilt


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_plain_mounted_forked_and_retried_sends_rebuild_to_what_the_provider_received(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    via = {"provider": provider}
    # Plain, with awkward text.
    first = await send(client, session["id"], HOSTILE[0] + HOSTILE[3], **via)
    await _check_receipt(client, fake_providers, provider, first)
    second = await send(client, session["id"], "tab\tand\nnewline", **via)
    await _check_receipt(client, fake_providers, provider, second)

    # Mounted: the Checkpoint's state and only the Turns after the boundary.
    saved = await commit(client, space["id"], "Plan", decisions=["Fly to Lisbon"], summary="A trip.")
    mount = {"checkpoint_id": saved["id"], "history_base_seq": 2, **via}
    mounted = await send(client, session["id"], "What next?", **mount)
    rebuilt = await _check_receipt(client, fake_providers, provider, mounted)
    assert "Fly to Lisbon" in rebuilt["system"]
    assert [m["sequence_number"] for m in rebuilt["messages"]] == [3, 4, 5]
    after = await send(client, session["id"], "And then?", **mount)
    rebuilt = await _check_receipt(client, fake_providers, provider, after)
    assert [m["sequence_number"] for m in rebuilt["messages"]] == [3, 4, 5, 6, 7]

    # Retried: the retry's context leaves out the pair it asks again, and so does every later one.
    retry = await send(client, session["id"], "And then?", retry_of=7, **mount)
    rebuilt = await _check_receipt(client, fake_providers, provider, retry)
    assert [m["sequence_number"] for m in rebuilt["messages"]] == [3, 4, 5, 6, 9]
    later = await send(client, session["id"], "Last one", **mount)
    rebuilt = await _check_receipt(client, fake_providers, provider, later)
    assert [m["sequence_number"] for m in rebuilt["messages"]] == [3, 4, 5, 6, 9, 10, 11]
    # The earlier replies still rebuild as they were answered, though later retries changed later contexts.
    retried = await _answered(client, session["id"], 8)
    assert retried["matches"] is True
    assert [m["sequence_number"] for m in retried["messages"]] == [3, 4, 5, 6, 7]

    # Forked: the fork's base and its own Turns.
    fork = await client.post(f"/v5/sessions/{session['id']}/fork", json={"checkpoint_id": saved["id"]})
    assert fork.status_code == 201, fork.text
    forked = await send(client, fork.json()["id"], "From the fork", **via)
    rebuilt = await _check_receipt(client, fake_providers, provider, forked)
    assert rebuilt["checkpoint_id"] == saved["id"]
    assert rebuilt["history_base_seq"] is None
    assert "Fly to Lisbon" in rebuilt["system"]


async def test_two_sends_answered_at_once_each_rebuild_to_the_context_they_saw(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    """Both read the same Turns; the pair stored second was answered without the first's, though
    that pair's numbers come before it. Its rebuild leaves it out too (`context_through_seq`)."""
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], "before", provider="openai")
    fake_providers.state.delay_seconds = 0.4  # both are with the provider at once
    one, two = await asyncio.gather(
        send(client, session["id"], "first at once", provider="openai"),
        send(client, session["id"], "second at once", provider="openai"),
    )
    later, earlier = sorted((one, two), key=lambda sent: -sent["user_turn"]["sequence_number"])
    assert later["user_turn"]["context_through_seq"] == earlier["user_turn"]["context_through_seq"] == 2
    for sent in (earlier, later):
        rebuilt = await _answered(client, session["id"], sent["assistant_turn"]["sequence_number"])
        assert rebuilt["matches"] is True
        assert [m["sequence_number"] for m in rebuilt["messages"]] == [1, 2, sent["user_turn"]["sequence_number"]]


async def test_the_preview_of_a_message_answers_the_receipt_its_reply_then_carries(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], "first", provider="openai")
    body = {"session_id": session["id"], "provider": "openai", "content": "second"}
    preview = (await client.post("/v4/chat/context", json=body)).json()
    assert preview["messages"][-1] == {"role": "user", "content": "second", "sequence_number": None}
    sent = await send(client, session["id"], "second", provider="openai")
    assert preview["context_sha256"] == sent["assistant_turn"]["context_sha256"]
    # Without a message: the hash of what is shown, which is another context.
    shown = (await client.post("/v4/chat/context", json={"session_id": session["id"]})).json()
    assert len(shown["context_sha256"]) == 64
    assert shown["context_sha256"] != preview["context_sha256"]


async def test_the_user_turn_records_the_model_it_was_sent_to_and_the_reply_the_one_that_answered(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    fake_providers.state.reply_fields = {"model": "gpt-test-2026-12-01"}
    sent = await send(client, session["id"], "hi", provider="openai")
    assert sent["user_turn"]["model"] == "gpt-test"
    assert sent["assistant_turn"]["model"] == "gpt-test-2026-12-01"
    assert sent["user_turn"]["context_sha256"] is None
    await _check_receipt(client, fake_providers, "openai", sent)


async def test_a_turn_with_no_receipt_rebuilds_with_nothing_to_compare(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    ingested = await client.post(
        "/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello", "repo_id": space["id"]}
    )
    assert ingested.status_code in (200, 201), ingested.text
    rebuilt = await _answered(client, ingested.json()["session_id"], 2)
    assert rebuilt["recorded_sha256"] is None
    assert rebuilt["matches"] is None
    assert [m["content"] for m in rebuilt["messages"]] == ["hi"]


async def test_asking_for_a_context_that_is_not_a_reply_is_refused_naming_the_field(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"receipts-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], "hi")
    cases = [
        (f"/v4/sessions/{session['id']}/turns/1/context", 400, "sequence_number"),
        (f"/v4/sessions/{session['id']}/turns/3/context", 404, "sequence_number"),
        (f"/v4/sessions/{session['id']}/turns/0/context", 400, "sequence_number"),
        (f"/v4/sessions/{session['id']}/turns/abc/context", 400, "sequence_number"),
        (f"/v4/sessions/{session['id']}/turns/99999999999/context", 400, "sequence_number"),
        (f"/v4/sessions/{uuid.uuid4()}/turns/2/context", 404, "session_id"),
        ("/v4/sessions/not-a-uuid/turns/2/context", 400, "session_id"),
    ]
    for path, status, field in cases:
        response = await client.get(path)
        assert response.status_code == status, (path, response.text)
        assert field in {error["field"] for error in response.json()["errors"]}, (path, response.text)
