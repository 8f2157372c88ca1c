"""V1 transcript ingestion: the shapes people paste, backfill, and the error on junk."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.api import create_space, turns

PREFIXED = """User: We need a name for the project. Should we call it Atlas or Beacon?
Assistant: Both work. Atlas suggests mapping; Beacon suggests guidance.

Which matters more to you?
User: Let's go with Beacon. I'll register the domain tomorrow.
Assistant: Great — Beacon it is."""

HUMAN_AI = "Human: hi there\nAI: hello!\nMe: one more thing\n**Assistant:** sure"

CHATGPT_EXPORT = {
    "title": "Naming",
    "current_node": "c",
    "mapping": {
        "root": {"id": "root", "message": None, "parent": None, "children": ["s"]},
        "s": {
            "id": "s",
            "message": {"author": {"role": "system"}, "content": {"content_type": "text", "parts": ["be nice"]}},
            "parent": "root",
            "children": ["a"],
        },
        "a": {
            "id": "a",
            "message": {"author": {"role": "user"}, "content": {"content_type": "text", "parts": ["Name ideas?"]}},
            "parent": "s",
            "children": ["b", "x"],
        },
        "x": {
            "id": "x",
            "message": {"author": {"role": "assistant"}, "content": {"content_type": "text", "parts": ["abandoned"]}},
            "parent": "a",
            "children": [],
        },
        "b": {
            "id": "b",
            "message": {"author": {"role": "assistant"}, "content": {"content_type": "text", "parts": ["Beacon."]}},
            "parent": "a",
            "children": ["c"],
        },
        "c": {
            "id": "c",
            "message": {
                "author": {"role": "user"},
                "content": {"content_type": "text", "parts": ["We decided: Beacon."]},
            },
            "parent": "b",
            "children": [],
        },
    },
}

CLAUDE_EXPORT = [
    {
        "uuid": "1",
        "name": "Naming",
        "chat_messages": [
            {"sender": "human", "text": "Name ideas?", "content": [{"type": "text", "text": "Name ideas?"}]},
            {"sender": "assistant", "text": "", "content": [{"type": "text", "text": "Beacon."}]},
        ],
    }
]


async def _ingest(client: httpx.AsyncClient, transcript: str, **fields: Any) -> httpx.Response:
    return await client.post("/v1/transcripts", json={"transcript": transcript, **fields})


@pytest.mark.parametrize(
    ("transcript", "expected"),
    [
        (
            PREFIXED,
            [
                ("user", "We need a name for the project. Should we call it Atlas or Beacon?"),
                (
                    "assistant",
                    "Both work. Atlas suggests mapping; Beacon suggests guidance.\n\nWhich matters more to you?",
                ),
                ("user", "Let's go with Beacon. I'll register the domain tomorrow."),
                ("assistant", "Great — Beacon it is."),
            ],
        ),
        (HUMAN_AI, [("user", "hi there"), ("assistant", "hello!"), ("user", "one more thing"), ("assistant", "sure")]),
        (
            json.dumps(CHATGPT_EXPORT),
            [("user", "Name ideas?"), ("assistant", "Beacon."), ("user", "We decided: Beacon.")],
        ),
        (
            json.dumps([CHATGPT_EXPORT]),
            [("user", "Name ideas?"), ("assistant", "Beacon."), ("user", "We decided: Beacon.")],
        ),
        (json.dumps(CLAUDE_EXPORT), [("user", "Name ideas?"), ("assistant", "Beacon.")]),
        (
            json.dumps(
                [
                    {"role": "system", "content": "x"},
                    {"role": "user", "content": "a"},
                    {"role": "assistant", "content": "b"},
                ]
            ),
            [("user", "a"), ("assistant", "b")],
        ),
    ],
)
async def test_supported_shapes(client: httpx.AsyncClient, transcript: str, expected: list[tuple[str, str]]) -> None:
    response = await _ingest(client, transcript)
    assert response.status_code == 201, response.text
    body = response.json()
    assert [(t["role"], t["content"]) for t in body["turns"]] == expected
    assert body["session_id"] is None
    assert body["context_pack"].startswith("# Context pack")


async def test_context_pack_lists_what_was_found(client: httpx.AsyncClient) -> None:
    pack = (await _ingest(client, PREFIXED)).json()["context_pack"]
    assert "## Decisions\n- Go with Beacon" in pack
    assert "## Tasks\n- [ ] Register the domain tomorrow" in pack
    assert "Beacon" in pack.split("## Entities")[1]
    assert "User: Let's go with Beacon." in pack


async def test_backfill_into_a_new_session(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    body = (await _ingest(client, PREFIXED, repo_id=space["id"], title="Naming chat")).json()
    session = (await client.get(f"/v4/sessions/{body['session_id']}")).json()
    assert session["title"] == "Naming chat"
    assert session["turn_count"] == 4
    stored = await turns(client, body["session_id"])
    assert [(t["sequence_number"], t["role"]) for t in stored] == [
        (1, "user"),
        (2, "assistant"),
        (3, "user"),
        (4, "assistant"),
    ]
    assert stored[2]["content"] == "Let's go with Beacon. I'll register the domain tomorrow."
    assert all(t["provider"] == "import" for t in stored)
    # The backfilled Session continues like any other.
    sent = await client.post("/v4/chat/send", json={"session_id": body["session_id"], "content": "next"})
    assert sent.json()["user_turn"]["sequence_number"] == 5


async def test_junk_and_bad_input(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    for junk in ("just some notes with no speakers", '{"not": "a conversation"}', "[1, 2, 3]"):
        response = await _ingest(client, junk)
        assert response.status_code == 400, junk
        assert response.json()["errors"][0]["field"] == "transcript"
        assert "User:" in response.json()["detail"]
    two = json.dumps([CHATGPT_EXPORT, CHATGPT_EXPORT])
    response = await _ingest(client, two)
    assert response.status_code == 400
    assert "2 conversations" in response.json()["detail"]
    assert (await _ingest(client, "")).status_code == 400
    missing = await _ingest(client, PREFIXED, repo_id=str(uuid.uuid4()))
    assert missing.status_code == 404
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0
    big = await client.post(
        "/v1/transcripts",
        content=json.dumps({"transcript": "User: " + "x" * 1_100_000}),
        headers={"content-type": "application/json"},
    )
    assert big.status_code == 413


def _node(node_id: str, role: str | None, text: str, parent: str | None, children: list[str]) -> dict[str, Any]:
    message = None if role is None else {"author": {"role": role}, "content": {"content_type": "text", "parts": [text]}}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


async def test_a_cycle_in_a_chatgpt_export_ends_the_walk_not_the_server(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    # No usable current_node, and the children point back up: the walk from the root used to
    # follow children[-1] for ever on the event loop, and /health never answered again.
    cyclic = {
        "mapping": {
            "root": _node("root", None, "", None, ["a"]),
            "a": _node("a", "user", "Where to?", "root", ["b"]),
            "b": _node("b", "assistant", "Lisbon.", "a", ["a"]),
        },
        "current_node": None,
    }
    response, health = await asyncio.wait_for(
        asyncio.gather(_ingest(client, json.dumps(cyclic)), client.get("/health")), timeout=10
    )
    assert health.status_code == 200
    assert response.status_code == 201, response.text
    assert [t["content"] for t in response.json()["turns"]] == ["Where to?", "Lisbon."]
    # A cycle through parents, with current_node on it: each node once.
    parents = {
        "mapping": {"a": _node("a", "user", "one", "b", []), "b": _node("b", "assistant", "two", "a", [])},
        "current_node": "a",
    }
    response = await asyncio.wait_for(_ingest(client, json.dumps(parents)), timeout=10)
    assert response.status_code == 201, response.text
    assert [t["content"] for t in response.json()["turns"]] == ["two", "one"]


@pytest.mark.parametrize(
    ("document", "named"),
    [
        ({"mapping": {"a": 1}}, "mapping['a']"),
        ({"mapping": []}, "mapping"),
        ({"mapping": {"a": _node("a", "user", "x", None, ["zz"])}}, "zz"),
        ({"mapping": {"a": _node("a", "user", "x", None, [])}, "current_node": []}, "current_node"),
        (
            {"mapping": {"a": {"message": {"author": "user", "content": "hi"}, "parent": None, "children": []}}},
            "author",
        ),
        ({"mapping": {"a": {"message": [], "parent": None, "children": []}}, "current_node": "a"}, "message"),
        ({"mapping": {"a": {"message": None, "parent": ["x"], "children": []}}}, "parent"),
        ({"mapping": {"a": {"message": None, "parent": None, "children": "b"}}}, "children"),
        (
            {
                "mapping": {"a": _node("a", "user", "x", None, [])}
                | {
                    "b": {
                        "message": {"author": {"role": "user"}, "content": {"parts": 5}},
                        "parent": "a",
                        "children": [],
                    }
                },
                "current_node": "b",
            },
            "parts",
        ),
        ({"chat_messages": [1, 2]}, "chat_messages[0]"),
        ({"chat_messages": {"a": 1}}, "chat_messages"),
        ({"chat_messages": [{"sender": "human", "text": 5}]}, "text"),
        ([{"role": "user", "content": 5}], "content"),
        ([{"role": "user", "content": "ok"}, 3], "the list[1]"),
    ],
)
async def test_malformed_exports_are_a_400_that_says_where(
    client: httpx.AsyncClient, db: asyncpg.Connection, document: Any, named: str
) -> None:
    for repo in (None, (await create_space(client, f"s-{uuid.uuid4().hex[:6]}"))["id"]):
        response = await _ingest(client, json.dumps(document), **({"repo_id": repo} if repo else {}))
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["errors"][0]["field"] == "transcript"
        assert named in body["detail"], body["detail"]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800", "\\udfff"])
async def test_nul_and_lone_surrogates_inside_the_json_are_a_400(
    client: httpx.AsyncClient, db: asyncpg.Connection, escape: str
) -> None:
    space = await create_space(client)
    inner = f'[{{"role": "user", "content": "a{escape}b"}}, {{"role": "assistant", "content": "ok"}}]'
    for extra in ({}, {"repo_id": space["id"]}):
        response = await _ingest(client, inner, **extra)
        assert response.status_code == 400, response.text
        assert "Message 1" in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_deeply_nested_inner_json_is_a_400(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    for depth in (1000, 5000, 200_000):
        response = await _ingest(client, "[" * depth + "]" * depth)
        assert response.status_code == 400, (depth, response.text[:200])
    nested = '{"mapping": {"a": ' + '{"x":' * 5000 + "1" + "}" * 5000 + "}}"
    assert (await _ingest(client, nested)).status_code == 400


async def test_a_large_transcript_does_not_stop_the_server(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    # ~900 KB of text: parsing and extraction take a second or more, off the event loop.
    line = "User: We decided to use the Baixa hotel because it is cheap, and I'll book the trains. " * 20
    big = "\n".join([line, "Assistant: " + "ok " * 100] * 250)[:900_000]
    task = asyncio.create_task(_ingest(client, big))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    health = await client.get("/health")
    waited = time.monotonic() - started
    response = await task
    assert response.status_code == 201, response.text[:300]
    assert health.status_code == 200
    assert waited < 0.5, f"/health waited {waited:.2f} s behind a transcript"
