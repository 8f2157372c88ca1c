"""An agent key reaches only its Spaces, everywhere; a read-only key never writes (SYSTEM.md §13).

For every route of the built app, every way of naming another agent's Space B (its id in the
path or a body, a Session of B, a Checkpoint of B by id, full hash or unique prefix, a line of B)
answers exactly what a random id answers: the same status, detail and field, so the key learns
nothing of B, not even that it exists. The same request naming the key's own Space A works.
"""

from __future__ import annotations

import json
import re
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
from litestar.routes import HTTPRoute

from smriti.access.caller import READ_ONLY
from smriti.access.scope import ONLY_ALL_SPACES, declared_access
from smriti.core.config import Settings
from smriti.core.routes import ACCESS, CREATES_SPACES, READS, WRITES
from smriti.server.app import create_app
from tests.access.test_agent_keys import bearer, make_agent
from tests.support.api import commit, create_session, create_space, send

X = "@named@"
"""Where a case names the thing under test: A's, B's, or a random one's."""
_PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")


@dataclass
class Side:
    repo: str
    session: str
    commit_id: str  # an older Checkpoint, not HEAD
    commit_hash: str
    head: str
    prefix: str = ""


@dataclass(frozen=True)
class Case:
    """One request; `X` in its path, query or body is what is named (of kind `kind`); `A.…` stand
    for the key's own Space. `ok`: the status naming A gives (None: not tried, it destroys A)."""

    method: str
    route: str
    kind: str  # repo | session | ref (id, hash, prefix) | commit (an id)
    path: str
    body: Any = None
    query: dict[str, str] = field(default_factory=dict)
    ok: int | None = 200


def cases() -> list[Case]:
    merged = {"summary": "", "decisions": [], "assumptions": [], "open_questions": []}
    merged |= {"tasks": [], "entities": [], "artifacts": []}
    return [
        Case(
            "POST",
            "/v1/transcripts",
            "repo",
            "/v1/transcripts",
            {"transcript": "User: hi\nAssistant: hello", "repo_id": X},
            ok=201,
        ),
        Case("GET", "/v4/repos/{repo_id}", "repo", f"/v4/repos/{X}"),
        Case("PATCH", "/v4/repos/{repo_id}", "repo", f"/v4/repos/{X}", {"description": "changed"}),
        Case("DELETE", "/v4/repos/{repo_id}", "repo", f"/v4/repos/{X}", ok=None),
        Case("POST", "/v4/chat/commit", "repo", "/v4/chat/commit", {"repo_id": X, "message": "m"}, ok=201),
        Case(
            "POST",
            "/v4/chat/commit",
            "commit",
            "/v4/chat/commit",
            {"repo_id": "A.repo", "message": "m", "parent_commit_id": X},
            ok=201,
        ),
        Case(
            "POST",
            "/v4/chat/commit",
            "commit",
            "/v4/chat/commit",
            {"repo_id": "A.repo", "message": "m", "merge_parent_id": X},
            ok=201,
        ),
        Case("GET", "/v4/commits/{ref}", "ref", f"/v4/commits/{X}"),
        Case("GET", "/v4/repos/{repo_id}/head", "repo", f"/v4/repos/{X}/head"),
        Case("GET", "/v4/repos/{repo_id}/commits", "repo", f"/v4/repos/{X}/commits"),
        Case("GET", "/v4/repos/{repo_id}/verify", "repo", f"/v4/repos/{X}/verify"),
        Case("GET", "/v4/repos/{repo_id}/branches", "repo", f"/v4/repos/{X}/branches"),
        Case("POST", "/v4/repos/{repo_id}/branches", "repo", f"/v4/repos/{X}/branches", {"name": "n1"}, ok=201),
        Case(
            "POST",
            "/v4/repos/{repo_id}/branches",
            "ref",
            "/v4/repos/A.repo/branches",
            {"name": "n2", "from_ref": X},
            ok=201,
        ),
        Case("GET", "/v4/repos/{repo_id}/branches/{name}", "repo", f"/v4/repos/{X}/branches/feature"),
        Case(
            "PATCH",
            "/v4/repos/{repo_id}/branches/{name}",
            "repo",
            f"/v4/repos/{X}/branches/feature",
            {"name": "feature"},
        ),
        Case("DELETE", "/v4/repos/{repo_id}/branches/{name}", "repo", f"/v4/repos/{X}/branches/feature", ok=None),
        Case("GET", "/v4/repos/{repo_id}/sessions", "repo", f"/v4/repos/{X}/sessions"),
        Case("POST", "/v4/repos/{repo_id}/sessions", "repo", f"/v4/repos/{X}/sessions", {}, ok=201),
        Case(
            "POST", "/v4/repos/{repo_id}/sessions", "commit", "/v4/repos/A.repo/sessions", {"base_commit_id": X}, ok=201
        ),
        Case("GET", "/v4/sessions/{session_id}", "session", f"/v4/sessions/{X}"),
        Case("PATCH", "/v4/sessions/{session_id}", "session", f"/v4/sessions/{X}", {"title": "t"}),
        Case("DELETE", "/v4/sessions/{session_id}", "session", f"/v4/sessions/{X}", ok=None),
        Case("GET", "/v4/sessions/{session_id}/turns", "session", f"/v4/sessions/{X}/turns"),
        Case("POST", "/v4/chat/context", "session", "/v4/chat/context", {"session_id": X}),
        Case(
            "POST",
            "/v4/chat/context",
            "commit",
            "/v4/chat/context",
            {"session_id": "A.session", "checkpoint_id": X, "history_base_seq": 0},
        ),
        Case(
            "POST",
            "/v4/chat/send",
            "session",
            "/v4/chat/send",
            {"session_id": X, "content": "hi", "request_id": "r1"},
            ok=201,
        ),
        Case(
            "POST",
            "/v4/chat/send",
            "commit",
            "/v4/chat/send",
            {"session_id": "A.session", "content": "hi", "checkpoint_id": X, "history_base_seq": 0},
            ok=201,
        ),
        Case(
            "GET",
            "/v4/sessions/{session_id}/turns/{sequence_number}/context",
            "session",
            f"/v4/sessions/{X}/turns/2/context",
        ),
        Case("GET", "/v5/repos/{repo_id}/export", "repo", f"/v5/repos/{X}/export"),
        Case("GET", "/v5/repos/{repo_id}/events", "repo", f"/v5/repos/{X}/events"),
        Case("POST", "/v5/checkpoints/draft", "session", "/v5/checkpoints/draft", {"session_id": X}),
        Case("POST", "/v5/commits/{commit_id}/review", "commit", f"/v5/commits/{X}/review", {}),
        Case("GET", "/v5/commits/{from_ref}/diff/{to_ref}", "ref", f"/v5/commits/{X}/diff/A.head"),
        Case("GET", "/v5/commits/{from_ref}/diff/{to_ref}", "ref", f"/v5/commits/A.head/diff/{X}"),
        Case("POST", "/v5/checkpoints/apply", "repo", "/v5/checkpoints/apply", {"repo_id": X, "message": "m"}, ok=201),
        Case(
            "POST",
            "/v5/checkpoints/apply",
            "commit",
            "/v5/checkpoints/apply",
            {"repo_id": "A.repo", "message": "m", "parent_commit_id": X},
            ok=409,  # found: an older parent than the line's HEAD is a moved HEAD here
        ),
        Case("POST", "/v5/commits/{ref}/restore", "ref", f"/v5/commits/{X}/restore", {}, ok=201),
        Case(
            "GET",
            "/v5/repos/{repo_id}/merge",
            "repo",
            f"/v5/repos/{X}/merge",
            query={"ours": "main", "theirs": "feature"},
        ),
        Case("GET", "/v5/repos/{repo_id}/merge", "ref", "/v5/repos/A.repo/merge", query={"ours": "main", "theirs": X}),
        Case(
            "POST",
            "/v5/repos/{repo_id}/merge/review",
            "repo",
            f"/v5/repos/{X}/merge/review",
            {"ours": "main", "theirs": "feature", "merged": merged},
        ),
        Case(
            "POST",
            "/v5/repos/{repo_id}/merge/review",
            "ref",
            "/v5/repos/A.repo/merge/review",
            {"ours": "main", "theirs": X, "merged": merged},
        ),
        Case(
            "POST",
            "/v5/sessions/{session_id}/fork",
            "session",
            f"/v5/sessions/{X}/fork",
            {"checkpoint_id": "A.commit_id"},
            ok=201,
        ),
        Case(
            "POST",
            "/v5/sessions/{session_id}/fork",
            "commit",
            "/v5/sessions/A.session/fork",
            {"checkpoint_id": X},
            ok=201,
        ),
        Case(
            "POST",
            "/v5/repos/{repo_id}/import/conversations",
            "repo",
            f"/v5/repos/{X}/import/conversations",
            [
                {
                    "uuid": "c1",
                    "name": "t",
                    "chat_messages": [{"sender": "human", "text": "hi"}, {"sender": "assistant", "text": "hello"}],
                }
            ],
            ok=201,
        ),
        Case("GET", "/v5/search", "repo", "/v5/search", query={"q": "alpha", "repo_id": X}),
        # In this order: A's key opens A's proposal #1, reads it, may not merge it, closes it.
        Case(
            "POST",
            "/v5/repos/{repo_id}/proposals",
            "repo",
            f"/v5/repos/{X}/proposals",
            {"from": "feature", "title": "t"},
            ok=201,
        ),
        Case("GET", "/v5/repos/{repo_id}/proposals", "repo", f"/v5/repos/{X}/proposals"),
        Case("GET", "/v5/repos/{repo_id}/proposals/{number}", "repo", f"/v5/repos/{X}/proposals/1"),
        Case(
            "POST",
            "/v5/repos/{repo_id}/proposals/{number}/merge",
            "repo",
            f"/v5/repos/{X}/proposals/1/merge",
            {},
            ok=403,
        ),
        Case("POST", "/v5/repos/{repo_id}/proposals/{number}/close", "repo", f"/v5/repos/{X}/proposals/1/close", {}),
    ]


# Routes tested on their own below: the Space list and creation, agent keys (the person's only).
ELSEWHERE = {
    ("GET", "/v4/repos"),
    ("POST", "/v4/repos"),
    ("POST", "/v5/repos/import"),
    ("GET", "/v4/providers"),
    ("GET", "/v5/me"),  # names no Space: the caller itself (tests/access/test_agent_keys.py)
    ("GET", "/v5/events"),  # over the key's Spaces only: tests/events/
}


def _app_routes(settings: Settings) -> Iterator[tuple[str, str, Any]]:
    app = create_app(settings)
    for route in app.routes:
        if isinstance(route, HTTPRoute) and route.path.split("/")[1] in {"v1", "v4", "v5"}:
            for handler in route.route_handlers:
                for method in handler.http_methods - {"OPTIONS", "HEAD"}:
                    yield method, _PARAM.sub(r"{\1}", route.path), handler


def test_every_route_says_what_it_does_and_is_walked_here(settings: Settings) -> None:
    """A route added without saying whether it writes fails here, as does one this file does not
    walk: every way in must be shown to keep other Spaces out."""
    walked = {(case.method, case.route) for case in cases()}
    for method, path, handler in _app_routes(settings):
        if path.startswith(("/v5/agents", "/v5/webhooks")):
            continue  # the person's only (tests/access/test_agent_keys.py, tests/events/test_webhooks_api.py)
        if method != "GET":
            assert handler.opt.get(ACCESS) in {READS, WRITES, CREATES_SPACES}, (method, path, "declare access(...)")
        else:
            assert declared_access(handler, method) == READS, (method, path)
        assert (method, path) in walked | ELSEWHERE, (method, path, "add a Case for it")


async def _side(client: httpx.AsyncClient, name: str, word: str) -> Side:
    space = await create_space(client, name)
    first = await commit(client, space["id"], "first", summary=f"{word} first")
    head = await commit(client, space["id"], "second", summary=f"{word} second")
    assert (await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "feature"})).status_code == 201
    await commit(client, space["id"], "on feature", branch="feature", summary=f"{word} feature")
    session = await create_session(client, space["id"])
    await send(client, session["id"], f"hello {word}")
    return Side(space["id"], session["id"], first["id"], first["commit_hash"], head["id"])


async def _world(client: httpx.AsyncClient, db: asyncpg.Connection) -> tuple[Side, Side]:
    a = await _side(client, "A", "alpha")
    b = await _side(client, "B", "zebrabeta")
    # B's first Checkpoint shares its first 7 hex digits with A's: for A's key that prefix is A's
    # Checkpoint alone (never "ambiguous", which would tell B is there); B's own longer prefix is
    # as unknown as a random one.
    collided = a.commit_hash[:7] + b.commit_hash[7:]
    await db.execute("UPDATE commits SET commit_hash = $1 WHERE id = $2::uuid", collided, b.commit_id)
    b.commit_hash = collided
    length = next(i for i in range(7, 64) if a.commit_hash[i] != collided[i]) + 1
    a.prefix, b.prefix = a.commit_hash[:7], collided[:length]
    return a, b


def _namings(kind: str, side: Side) -> list[tuple[str, str]]:
    """(what, value) for each way a case of `kind` names `side`."""
    if kind == "repo":
        return [("id", side.repo)]
    if kind == "session":
        return [("id", side.session)]
    if kind == "commit":
        return [("id", side.commit_id)]
    return [("id", side.commit_id), ("hash", side.commit_hash), ("prefix", side.prefix)]


def _random(what: str, prefix_length: int) -> str:
    """A random thing named as `what` names: nothing in the database has it."""
    if what == "id":
        return str(uuid.uuid4())
    return secrets.token_hex(32) if what == "hash" else secrets.token_hex(32)[:prefix_length]


def _fill(case: Case, value: str, a: Side) -> tuple[str, Any, dict[str, str]]:
    def sub(text: str) -> str:
        text = text.replace(X, value)
        for name in ("repo", "session", "commit_id", "head"):
            text = text.replace(f"A.{name}", getattr(a, name))
        return text

    body = None if case.body is None else json.loads(sub(json.dumps(case.body)))
    return sub(case.path), body, {k: sub(v) for k, v in case.query.items()}


def _answer(response: httpx.Response, value: str) -> tuple[int, str]:
    """The status and the problem's text, with the named value itself taken out."""
    text = response.text if response.status_code >= 400 else "(success)"
    return response.status_code, text.replace(value, "⟨value⟩")


_SNAPSHOT = """
SELECT r.name, r.description, r.updated_at, r.head_commit_id,
       (SELECT count(*) FROM commits WHERE repo_id = r.id) AS commits,
       (SELECT array_agg((b.name, b.head_commit_id) ORDER BY b.id) FROM branches b WHERE b.repo_id = r.id) AS lines,
       (SELECT array_agg((s.id, s.title, s.last_seq) ORDER BY s.id) FROM sessions s WHERE s.repo_id = r.id) AS sessions,
       (SELECT count(*) FROM turns t JOIN sessions s ON s.id = t.session_id WHERE s.repo_id = r.id) AS turns
FROM repos r WHERE r.id = $1::uuid
"""


async def _snapshot(db: asyncpg.Connection, repo: str) -> tuple[Any, ...]:
    """What a Space holds: any write to it changes this."""
    row = await db.fetchrow(_SNAPSHOT, repo)
    assert row is not None
    return tuple(row)


async def test_a_key_never_sees_another_space_in_any_route(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    a, b = await _world(client, db)
    key = bearer((await make_agent(client, name="a-only", spaces=[a.repo]))["token"])
    # The person sees the collision for what it is; A's key sees A's Checkpoint alone.
    assert (await client.get(f"/v4/commits/{a.prefix}")).status_code == 400
    mine = await client.get(f"/v4/commits/{a.prefix}", headers=key)
    assert mine.status_code == 200, mine.text
    assert mine.json()["id"] == a.commit_id
    before = await _snapshot(db, b.repo)
    failures: list[str] = []
    for case in cases():
        for what, value in _namings(case.kind, b):
            random_value = _random(what, len(b.prefix))
            answers = []
            for named in (value, random_value):
                path, body, query = _fill(case, named, a)
                response = await client.request(case.method, path, json=body, params=query, headers=key)
                answers.append(_answer(response, named))
            options = []
            for named in (value, random_value):  # `Allow`, as the person gets it for any id
                response = await client.options(_fill(case, named, a)[0], headers=key)
                options.append((response.status_code, response.headers.get("allow")))
            if answers[0] != answers[1] or answers[0][0] < 400 or options[0] != options[1] or options[0][0] != 204:
                failures.append(
                    f"{case.method} {case.path} {case.body} {what}: B {answers[0]} {options[0]}"
                    f" ≠ random {answers[1]} {options[1]}"
                )
    assert not failures, "\n".join(failures)
    assert await _snapshot(db, b.repo) == before
    # The same requests naming A work (the destructive ones are not tried on A).
    for case in cases():
        if case.ok is None:
            continue
        for what, value in _namings(case.kind, a):
            path, body, query = _fill(case, value, a)
            if case.method == "POST" and case.route == "/v4/repos/{repo_id}/branches":
                body["name"] = f"{body['name']}-{what}"
            response = await client.request(case.method, path, json=body, params=query, headers=key)
            assert response.status_code == case.ok, (case.method, path, body, what, response.text)


async def test_search_listing_export_and_creation_keep_to_the_key(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    a, b = await _world(client, db)
    limited = bearer((await make_agent(client, name="a-only", spaces=[a.repo]))["token"])
    everywhere = bearer((await make_agent(client, name="all", spaces=None))["token"])
    # A word only B holds: the person finds it, A's key does not.
    assert (await client.get("/v5/search", params={"q": "zebrabeta"})).json()["total"] > 0
    found = (await client.get("/v5/search", params={"q": "zebrabeta"}, headers=limited)).json()
    assert found["total"] == 0
    assert found["items"] == []
    assert (await client.get("/v5/search", params={"q": "alpha"}, headers=limited)).json()["total"] > 0
    # Listing: A alone, and the total says so.
    listed = (await client.get("/v4/repos", headers=limited)).json()
    assert [s["id"] for s in listed["items"]] == [a.repo]
    assert listed["total"] == 1
    assert (await client.get("/v4/repos")).json()["total"] == 2
    # Export of B is as absent as a random Space's.
    export_b = await client.get(f"/v5/repos/{b.repo}/export", headers=limited)
    assert export_b.status_code == 404
    # Only a key for every Space (or the person) makes Spaces.
    refused = await client.post("/v4/repos", json={"name": "C"}, headers=limited)
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"] == ONLY_ALL_SPACES
    bundle = (await client.get(f"/v5/repos/{a.repo}/export")).content
    imported = await client.post(
        "/v5/repos/import", content=bundle, headers={**limited, "content-type": "application/x-ndjson"}
    )
    assert imported.status_code == 403, imported.text
    assert await db.fetchval("SELECT count(*) FROM repos") == 2
    made = await client.post("/v4/repos", json={"name": "C"}, headers=everywhere)
    assert made.status_code == 201, made.text
    assert (await client.get("/v4/repos", headers=everywhere)).json()["total"] == 3


async def test_a_read_only_key_reads_and_never_writes(
    client: httpx.AsyncClient, db: asyncpg.Connection, settings: Settings
) -> None:
    a, _ = await _world(client, db)
    handlers = {(m, p): h for m, p, h in _app_routes(settings)}
    reader = bearer((await make_agent(client, name="reader", spaces=[a.repo], write=False))["token"])
    everywhere_reader = bearer((await make_agent(client, name="all-reader", spaces=None, write=False))["token"])
    # The person's proposal #1, for the reader to read.
    opened = await client.post(f"/v5/repos/{a.repo}/proposals", json={"from": "feature", "title": "t"})
    assert opened.status_code == 201, opened.text
    before = await _snapshot(db, a.repo)
    writes = 0
    for case in cases():
        path, body, query = _fill(
            case, a.repo if case.kind == "repo" else a.session if case.kind == "session" else a.commit_id, a
        )
        response = await client.request(case.method, path, json=body, params=query, headers=reader)
        declared = declared_access(handlers[case.method, case.route], case.method)
        if declared == READS:
            assert response.status_code == (case.ok or 200), (case.method, path, response.text)
        else:
            writes += 1
            assert response.status_code == 403, (case.method, path, response.text)
            assert response.json()["detail"] == READ_ONLY
    assert writes >= 15
    assert await _snapshot(db, a.repo) == before
    for headers in (reader, everywhere_reader):
        assert (await client.post("/v4/repos", json={"name": "R"}, headers=headers)).status_code == 403
    assert await db.fetchval("SELECT count(*) FROM repos") == 2  # A and B, nothing new
