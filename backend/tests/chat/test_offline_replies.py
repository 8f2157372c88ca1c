"""The offline provider's replies describe what it was sent; no model wrote them (issue 43 item 4).

A Session that switches from the offline provider to a model does not send those replies to the
model as its own earlier answers: they are left out of every other provider's context, and the
context preview, the receipt and the rebuild of a reply's context leave out the same Turns and say
so. The offline provider itself still gets them (it only describes what it received).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import asyncpg
import httpx
import pytest
import rfc8785

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer, last_sent

MARK = "[offline provider:"


def _receipt(provider: str, model: str, system: str | None, messages: list[dict[str, str]]) -> str:
    canonical = rfc8785.dumps({"provider": provider, "model": model, "system": system, "messages": messages})
    return hashlib.sha256(canonical).hexdigest()


async def _answered(client: httpx.AsyncClient, session_id: str, seq: int) -> dict[str, Any]:
    response = await client.get(f"/v4/sessions/{session_id}/turns/{seq}/context")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _preview(client: httpx.AsyncClient, session_id: str, **fields: Any) -> dict[str, Any]:
    response = await client.post("/v4/chat/context", json={"session_id": session_id, **fields})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _seqs(context: dict[str, Any]) -> list[int | None]:
    return [m["sequence_number"] for m in context["messages"]]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_model_gets_no_offline_reply_and_the_preview_receipt_and_rebuild_say_so(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, provider: str
) -> None:
    space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    sid = session["id"]
    await send(client, sid, "We fly to Lisbon on Friday.")  # offline: Turns 1, 2
    await send(client, sid, "The hotel is near the river.")  # offline: Turns 3, 4
    assert (await _answered(client, sid, 4))["messages"][1]["content"].startswith(MARK)

    # The preview for the model shows what it will get: the person's messages, not the replies.
    preview = await _preview(client, sid, provider=provider, content="Summarise the plan.")
    assert _seqs(preview) == [1, 3, None]
    assert preview["left_out"]["sequence_numbers"] == [2, 4]
    assert "offline provider" in preview["left_out"]["reason"]
    assert next(s for s in preview["sections"] if s["name"] == "history")["items"] == 2

    sent = await send(client, sid, "Summarise the plan.", provider=provider)  # Turns 5, 6
    model, system, messages = last_sent(fake_providers, provider)
    assert messages == [
        {"role": "user", "content": "We fly to Lisbon on Friday."},
        {"role": "user", "content": "The hotel is near the river."},
        {"role": "user", "content": "Summarise the plan."},
    ]
    assert not any(MARK in m["content"] for m in messages)
    receipt = sent["assistant_turn"]["context_sha256"]
    assert receipt == _receipt(provider, model, system, messages) == preview["context_sha256"]

    rebuilt = await _answered(client, sid, 6)
    assert rebuilt["matches"] is True
    assert rebuilt["context_sha256"] == receipt
    assert _seqs(rebuilt) == [1, 3, 5]
    assert rebuilt["left_out"]["sequence_numbers"] == [2, 4]

    # The model's own reply stays in its later contexts; a later offline reply does not.
    await send(client, sid, "Anything else?", provider="offline")  # Turns 7, 8
    later = await send(client, sid, "Book it.", provider=provider)  # Turns 9, 10
    model, system, messages = last_sent(fake_providers, provider)
    assert [m["role"] for m in messages] == ["user", "user", "user", "assistant", "user", "user"]
    assert messages[3]["content"] == sent["assistant_turn"]["content"]
    assert later["assistant_turn"]["context_sha256"] == _receipt(provider, model, system, messages)
    rebuilt = await _answered(client, sid, 10)
    assert (rebuilt["matches"], _seqs(rebuilt)) == (True, [1, 3, 5, 6, 7, 9])
    assert rebuilt["left_out"]["sequence_numbers"] == [2, 4, 8]

    # The offline provider still gets its own replies: it only describes what it received.
    offline = await _preview(client, sid, provider="offline")
    assert _seqs(offline) == list(range(1, 11))
    assert offline["left_out"] is None
    described = await send(client, sid, "What do you see?", provider="offline")  # Turns 11, 12
    assert "History: 10 Turns before your message." in described["assistant_turn"]["content"]
    rebuilt = await _answered(client, sid, 12)
    assert (rebuilt["matches"], rebuilt["left_out"]) == (True, None)
    assert _seqs(rebuilt) == list(range(1, 12))


async def test_a_mounted_retried_send_to_a_model_leaves_them_out_and_its_receipt_holds(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    """A retry's context is cut before the pair it asks again, then the offline replies are left
    out; the receipts kept per Session and mount still match what went out, send after send, as
    the Session goes back and forth between the two providers."""
    space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    sid = session["id"]
    saved = await commit(client, space["id"], "Plan", decisions=["Fly to Lisbon"])
    await send(client, sid, "before the mount")  # 1, 2: below the boundary
    mount = {"checkpoint_id": saved["id"], "history_base_seq": 2}
    for n, provider in enumerate(["offline", "openai", "offline", "openai", "openai", "offline", "openai"]):
        sent = await send(client, sid, f"message {n}", provider=provider, **mount)
        rebuilt = await _answered(client, sid, sent["assistant_turn"]["sequence_number"])
        assert rebuilt["matches"] is True, n
        if provider == "openai":
            model, system, messages = last_sent(fake_providers, provider)
            assert sent["assistant_turn"]["context_sha256"] == _receipt(provider, model, system, messages), n
            assert not any(MARK in m["content"] for m in messages), n
    # The last exchange was the model's (Turns 15, 16): asked again, its pair is left out too.
    retry = await send(client, sid, "message 6", provider="openai", retry_of=15, **mount)
    model, system, messages = last_sent(fake_providers, "openai")
    rebuilt = await _answered(client, sid, retry["assistant_turn"]["sequence_number"])
    assert rebuilt["matches"] is True
    assert _seqs(rebuilt) == [3, 5, 6, 7, 9, 10, 11, 12, 13, 17]
    assert rebuilt["left_out"]["sequence_numbers"] == [4, 8, 14]
    assert [m["content"] for m in messages] == [m["content"] for m in rebuilt["messages"]]


async def test_a_reply_answered_before_they_were_left_out_still_rebuilds_to_its_receipt(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """Before this rule, a model was sent the offline replies too, and its replies' receipts say
    so: the rebuild shows that context when it is the one the receipt proves, and otherwise the
    context under the rule, which does not match."""
    space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    sid = session["id"]
    first = await send(client, sid, "We fly on Friday.")
    sent = await send(client, sid, "Summarise.", provider="openai")
    model = sent["user_turn"]["model"]
    # What the reply's receipt was under the old rule: the offline reply sent as the model's.
    old = [
        {"role": "user", "content": "We fly on Friday."},
        {"role": "assistant", "content": first["assistant_turn"]["content"]},
        {"role": "user", "content": "Summarise."},
    ]
    await db.execute(
        "UPDATE turns SET context_sha256 = $3 WHERE session_id = $1 AND sequence_number = $2",
        uuid.UUID(sid),
        4,
        _receipt("openai", model, None, old),
    )
    rebuilt = await _answered(client, sid, 4)
    assert rebuilt["matches"] is True
    assert [{"role": m["role"], "content": m["content"]} for m in rebuilt["messages"]] == old
    assert rebuilt["left_out"] is None

    # A receipt that neither context hashes to: the rule's context is shown, and does not match.
    await db.execute(
        "UPDATE turns SET context_sha256 = $3 WHERE session_id = $1 AND sequence_number = $2",
        uuid.UUID(sid),
        4,
        "0" * 64,
    )
    rebuilt = await _answered(client, sid, 4)
    assert rebuilt["matches"] is False
    assert _seqs(rebuilt) == [1, 3]
    assert rebuilt["left_out"]["sequence_numbers"] == [2]


async def test_an_offline_reply_is_no_cue_for_the_nudge(settings: Settings, db: asyncpg.Connection) -> None:
    """The offline reply quotes the mounted Checkpoint's message: the nudge reads what the
    person and a model said, not that quote."""
    async with make_client(settings, nudge_after_turns=100) as client:
        space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
        session = await create_session(client, space["id"])
        saved = await commit(client, space["id"], "We decided to take the train")
        mount = {"checkpoint_id": saved["id"], "history_base_seq": 0}
        sent = await send(client, session["id"], "What is the plan?", **mount)
        assert "We decided to take the train" in sent["assistant_turn"]["content"]
        assert sent["suggestion"] == {"checkpoint_recommended": False, "reason": None}
        # The person's own words still are one.
        cue = await send(client, session["id"], "We decided to go on Friday.", **mount)
        assert cue["suggestion"]["checkpoint_recommended"] is True


async def test_a_draft_by_a_model_is_not_sent_the_offline_replies(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    """Drafting reads the Turns in scope as a transcript: a model gets the person's messages and
    a model's replies, and no offline reply under an assistant's header."""
    space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    sid = session["id"]
    await send(client, sid, "We decided to use PostgreSQL.")  # offline: 1, 2
    fake_providers.state.reply = "MODEL-REPLY"
    await send(client, sid, "Why?", provider="openai")  # 3, 4
    fake_providers.state.reply = json.dumps({"message": "Storage", "decisions": ["Use PostgreSQL"]})
    response = await client.post("/v5/checkpoints/draft", json={"session_id": sid, "provider": "openai"})
    assert response.status_code == 200, response.text
    assert response.json()["source"] == {"session_id": sid, "from_seq": 1, "to_seq": 4}
    wire = json.dumps(fake_providers.state.bodies("/chat/completions")[-1], ensure_ascii=False)
    assert "[Turn 1 · user]" in wire
    assert "[Turn 4 · assistant]" in wire
    assert "MODEL-REPLY" in wire
    assert "[Turn 2 " not in wire
    assert MARK not in wire

    # Turns in scope that are only offline replies: nothing to draft from, said before any call.
    calls = len(fake_providers.state.requests)
    await send(client, sid, "And now?", provider="offline")  # 5, 6
    for provider in ("openai", "offline"):
        nothing = await client.post(
            "/v5/checkpoints/draft", json={"session_id": sid, "history_base_seq": 5, "provider": provider}
        )
        assert nothing.status_code == 400, nothing.text
        assert nothing.json()["errors"][0]["field"] == "history_base_seq"
        assert "offline provider" in nothing.json()["detail"]
    assert len(fake_providers.state.requests) == calls


async def test_an_offline_draft_keeps_what_the_person_said_that_looks_like_an_offline_reply(
    client: httpx.AsyncClient,
) -> None:
    """What is left out is known by who wrote it (the offline provider's reply), not by its words."""
    space = await create_space(client, f"offline-{uuid.uuid4().hex[:6]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], f"{MARK} quoting it] We decided to use PostgreSQL.")
    response = await client.post("/v5/checkpoints/draft", json={"session_id": session["id"]})
    assert response.status_code == 200, response.text
    assert response.json()["decisions"] == ["Use PostgreSQL"]
