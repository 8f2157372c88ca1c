"""Invariant 2, checked on the wire: what reaches OpenAI and Anthropic after a mount."""

from __future__ import annotations

import json

import asyncpg
import httpx

from tests.support.api import commit, create_session, create_space, send, turns
from tests.support.fake_providers import FakeProviderServer

LONG_ARTIFACT = "".join(f"line {i:04d} of the plan\n" for i in range(400))  # ~9,600 characters


async def test_mount_sends_checkpoint_state_and_only_turns_after_the_boundary(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Isolation")
    session = await create_session(client, space["id"], provider="openai")
    for index in range(3):
        fake_providers.state.reply = f"EARLY-REPLY-{index}"
        await send(client, session["id"], f"EARLY-QUESTION-{index}")
    checkpoint = await commit(
        client,
        space["id"],
        "Mounted state",
        decisions=["DECISION-USE-POSTGRES"],
        assumptions=["ASSUMPTION-ONE-REGION"],
        artifacts=[{"name": "plan.md", "content": LONG_ARTIFACT}],
    )
    base = max(t["sequence_number"] for t in await turns(client, session["id"]))
    assert base == 6
    mount = {"checkpoint_id": checkpoint["id"], "history_base_seq": base}

    fake_providers.state.requests.clear()
    fake_providers.state.reply = "AFTER-REPLY-OPENAI"
    preview = (await client.post("/v4/chat/context", json={"session_id": session["id"], **mount})).json()
    sent = await send(client, session["id"], "AFTER-QUESTION-OPENAI", **mount)
    assert sent["user_turn"]["sequence_number"] == 7
    assert sent["user_turn"]["checkpoint_id"] == checkpoint["id"]
    assert sent["user_turn"]["history_base_seq"] == base
    assert sent["assistant_turn"]["provider"] == "openai"

    (openai_body,) = fake_providers.state.bodies("/chat/completions")
    wire = json.dumps(openai_body)
    assert "EARLY-" not in wire
    system = openai_body["messages"][0]
    assert system["role"] == "system"
    assert "DECISION-USE-POSTGRES" in system["content"]
    assert "ASSUMPTION-ONE-REGION" in system["content"]
    assert LONG_ARTIFACT[:2000] in system["content"]
    assert LONG_ARTIFACT[:2001] not in system["content"]
    assert f"[artifact cut: showing 2,000 of {len(LONG_ARTIFACT):,} characters]" in system["content"]
    assert openai_body["messages"][1:] == [{"role": "user", "content": "AFTER-QUESTION-OPENAI"}]
    # The preview is exactly what was sent, minus the new message.
    assert preview["system"] == system["content"]
    assert preview["messages"] == []

    # Switch provider in the same Session: Anthropic gets the same state and the Turns after the boundary.
    fake_providers.state.requests.clear()
    fake_providers.state.reply = "AFTER-REPLY-ANTHROPIC"
    switched = await send(client, session["id"], "AFTER-QUESTION-ANTHROPIC", provider="anthropic", **mount)
    assert switched["user_turn"]["session_id"] == session["id"]
    assert switched["assistant_turn"]["provider"] == "anthropic"
    (anthropic_body,) = fake_providers.state.bodies("/v1/messages")
    assert "EARLY-" not in json.dumps(anthropic_body)
    assert anthropic_body["system"] == system["content"]
    assert anthropic_body["messages"] == [
        {"role": "user", "content": "AFTER-QUESTION-OPENAI"},
        {"role": "assistant", "content": "AFTER-REPLY-OPENAI"},
        {"role": "user", "content": "AFTER-QUESTION-ANTHROPIC"},
    ]

    # Unmounted again: the whole history, no Checkpoint state.
    fake_providers.state.requests.clear()
    await send(client, session["id"], "UNMOUNTED", provider="openai")
    (full_body,) = fake_providers.state.bodies("/chat/completions")
    assert full_body["messages"][0] == {"role": "user", "content": "EARLY-QUESTION-0"}
    assert all(m["role"] != "system" for m in full_body["messages"])
    assert len(full_body["messages"]) == 11
    stored = [t["sequence_number"] for t in await turns(client, session["id"])]
    assert stored == list(range(1, 13))


async def test_mount_at_zero_on_a_fresh_session(client: httpx.AsyncClient, fake_providers: FakeProviderServer) -> None:
    space = await create_space(client)
    checkpoint = await commit(client, space["id"], "Start here", decisions=["D1"])
    session = await create_session(client, space["id"])
    mount = {"checkpoint_id": checkpoint["id"], "history_base_seq": 0}
    sent = await send(client, session["id"], "hello", provider="anthropic", **mount)
    assert sent["user_turn"]["sequence_number"] == 1
    (body,) = fake_providers.state.bodies("/v1/messages")
    assert "D1" in body["system"]
    assert body["messages"] == [{"role": "user", "content": "hello"}]


async def test_offline_reply_says_what_it_received(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    await send(client, session["id"], "first")
    checkpoint = await commit(
        client, space["id"], "Trip plan", decisions=["Fly", "Stay central"], tasks=[{"text": "Book"}]
    )
    reply = await send(client, session["id"], "what now?", checkpoint_id=checkpoint["id"], history_base_seq=2)
    text = reply["assistant_turn"]["content"]
    assert checkpoint["commit_hash"][:7] in text
    assert "«Trip plan»" in text
    assert "2 decisions" in text
    assert "1 task," in text
    assert "History: 0 Turns" in text
    unmounted = await send(client, session["id"], "and now?")
    assert "Mounted Checkpoint: none" in unmounted["assistant_turn"]["content"]
    assert "History: 4 Turns" in unmounted["assistant_turn"]["content"]


async def test_context_preview_sections_and_tokens(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    await send(client, session["id"], "before the mount")
    checkpoint = await commit(
        client,
        space["id"],
        "State",
        summary="Short summary.",
        decisions=["A", "B"],
        artifacts=[{"name": "a.txt", "content": "x" * 100}, {"name": "b.txt", "content": "y" * 3000}],
    )
    await send(client, session["id"], "after the mount", checkpoint_id=checkpoint["id"], history_base_seq=2)
    preview = (
        await client.post(
            "/v4/chat/context",
            json={"session_id": session["id"], "checkpoint_id": checkpoint["id"], "history_base_seq": 2},
        )
    ).json()
    names = [(s["name"], s["part"], s["items"]) for s in preview["sections"]]
    assert names == [
        ("checkpoint", "system", 1),
        ("summary", "system", 1),
        ("decisions", "system", 2),
        ("artifacts", "system", 2),
        ("history", "history", 2),
    ]
    assert [m["sequence_number"] for m in preview["messages"]] == [3, 4]
    assert all(s["tokens"] > 0 for s in preview["sections"])
    assert preview["total_tokens"] == sum(s["tokens"] for s in preview["sections"])
    assert "before the mount" not in json.dumps(preview)
    assert preview["provider"] == "offline"


async def test_a_kept_rendering_is_still_checked_on_every_send(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    """A mounted Checkpoint is rendered once and kept; whether it exists, and in the Session's
    Space, is still read on every send."""
    home, other = await create_space(client, "Home"), await create_space(client, "Other")
    checkpoint = await commit(client, home["id"], "Kept", decisions=["D-KEPT"])
    here, there = await create_session(client, home["id"]), await create_session(client, other["id"])
    mount = {"checkpoint_id": checkpoint["id"], "history_base_seq": 0}
    for content in ("rendered now", "rendered before"):
        await send(client, here["id"], content, provider="openai", **mount)
    first, second = fake_providers.state.bodies("/chat/completions")
    assert "D-KEPT" in first["messages"][0]["content"]
    assert second["messages"][0] == first["messages"][0]

    async def refused() -> tuple[int, list[str]]:
        response = await client.post("/v4/chat/send", json={"session_id": there["id"], "content": "x", **mount})
        return response.status_code, [error["field"] for error in response.json()["errors"]]

    assert await refused() == (400, ["checkpoint_id"])  # another Space's Checkpoint
    assert (await client.delete(f"/v4/repos/{home['id']}")).status_code == 204
    assert await refused() == (404, ["checkpoint_id"])  # gone with its Space
    assert fake_providers.state.bodies("/chat/completions") == [first, second]
