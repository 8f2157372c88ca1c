"""Spaces and Sessions write their events (SYSTEM.md §14): each change exactly one, in its own
transaction, naming who made it; a refused change none."""

from __future__ import annotations

import uuid

import asyncpg
import httpx

from tests.events.recorded import by_agent, by_person, recorded
from tests.proposals.helpers import bearer, make_agent
from tests.support.api import commit, create_session, create_space
from tests.support.imports import fixture, import_file


async def test_a_space_created_renamed_and_deleted_is_three_events_the_last_keeping_its_name(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Lisbon")
    assert (await client.patch(f"/v4/repos/{space['id']}", json={"name": "Porto"})).status_code == 200
    assert (await client.patch(f"/v4/repos/{space['id']}", json={"description": "a trip"})).status_code == 200
    assert (await client.delete(f"/v4/repos/{space['id']}")).status_code == 204

    assert await recorded(db) == [
        by_person("space.created", space["id"], name="Lisbon"),
        by_person("space.updated", space["id"], name="Porto"),
        by_person("space.updated", space["id"], name="Porto"),
        by_person("space.deleted", space["id"], name="Porto"),
    ]


async def test_an_agent_that_reaches_every_space_is_named_on_the_space_it_makes(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    agent = await make_agent(client, "gardener")
    made = await client.post("/v4/repos", json={"name": "Garden"}, headers=bearer(agent["token"]))
    assert made.status_code == 201, made.text
    renamed = await client.patch(
        f"/v4/repos/{made.json()['id']}", json={"name": "Orchard"}, headers=bearer(agent["token"])
    )
    assert renamed.status_code == 200, renamed.text

    assert await recorded(db) == [
        by_agent(agent, "space.created", made.json()["id"], name="Garden"),
        by_agent(agent, "space.updated", made.json()["id"], name="Orchard"),
    ]


async def test_refused_space_changes_write_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "Taken")
    other = await create_space(client, "Other")
    await db.execute("TRUNCATE events")
    agent = await make_agent(client, "bot")

    assert (await client.post("/v4/repos", json={"name": "Taken"})).status_code == 409
    assert (await client.post("/v4/repos", json={"name": ""})).status_code == 400
    assert (await client.patch(f"/v4/repos/{other['id']}", json={"name": "Taken"})).status_code == 409
    assert (await client.patch(f"/v4/repos/{uuid.uuid4()}", json={"name": "New"})).status_code == 404
    assert (await client.delete(f"/v4/repos/{uuid.uuid4()}")).status_code == 404
    assert (await client.delete(f"/v4/repos/{space['id']}", headers=bearer(agent["token"]))).status_code == 403
    read_only = await make_agent(client, "reader", write=False)
    refused = await client.patch(f"/v4/repos/{space['id']}", json={"name": "Mine"}, headers=bearer(read_only["token"]))
    assert refused.status_code == 403
    assert (await client.patch(f"/v4/repos/{space['id']}", json={"name": "Free"})).status_code == 200

    assert await recorded(db) == [by_person("space.updated", space["id"], name="Free")]  # the one that was made


async def test_sessions_created_forked_and_deleted_each_write_one_event_by_their_actor(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Sessions")
    base = await commit(client, space["id"], "base", decisions=["Stay in Baixa"])
    agent = await make_agent(client, "planner")
    await db.execute("TRUNCATE events")

    plain = await create_session(client, space["id"], title="Plan")
    response = await client.post(
        f"/v4/repos/{space['id']}/sessions",
        json={"title": "Based", "base_commit_id": base["id"]},
        headers=bearer(agent["token"]),
    )
    assert response.status_code == 201, response.text
    based = response.json()
    response = await client.post(
        f"/v5/sessions/{plain['id']}/fork", json={"checkpoint_id": base["id"]}, headers=bearer(agent["token"])
    )
    assert response.status_code == 201, response.text
    fork = response.json()
    assert (await client.delete(f"/v4/sessions/{plain['id']}", headers=bearer(agent["token"]))).status_code == 204
    assert (await client.delete(f"/v4/sessions/{based['id']}")).status_code == 204

    assert await recorded(db) == [
        by_person("session.created", space["id"], session_id=plain["id"], base_commit_id=None, forked_from=None),
        by_agent(
            agent, "session.created", space["id"], session_id=based["id"], base_commit_id=base["id"], forked_from=None
        ),
        by_agent(
            agent,
            "session.created",
            space["id"],
            session_id=fork["id"],
            base_commit_id=base["id"],
            forked_from=plain["id"],
        ),
        by_agent(agent, "session.deleted", space["id"], session_id=plain["id"]),
        by_person("session.deleted", space["id"], session_id=based["id"]),
    ]


async def test_refused_session_changes_write_no_event(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "Refusals")
    elsewhere = await create_space(client, "Elsewhere")
    foreign = await commit(client, elsewhere["id"], "not here", decisions=["x"])
    session = await create_session(client, space["id"])
    read_only = await make_agent(client, "reader", write=False)
    await db.execute("TRUNCATE events")

    missing = uuid.uuid4()
    assert (await client.post(f"/v4/repos/{missing}/sessions", json={})).status_code == 404
    assert (
        await client.post(f"/v4/repos/{space['id']}/sessions", json={"base_commit_id": foreign["id"]})
    ).status_code == 400
    assert (await client.post(f"/v5/sessions/{missing}/fork", json={"checkpoint_id": foreign["id"]})).status_code == 404
    assert (
        await client.post(f"/v5/sessions/{session['id']}/fork", json={"checkpoint_id": foreign["id"]})
    ).status_code == 400
    assert (await client.delete(f"/v4/sessions/{missing}")).status_code == 404
    assert (await client.delete(f"/v4/sessions/{session['id']}", headers=bearer(read_only["token"]))).status_code == 403
    assert (await client.delete(f"/v4/sessions/{session['id']}")).status_code == 204

    assert await recorded(db) == [by_person("session.deleted", space["id"], session_id=session["id"])]


async def test_an_import_writes_one_session_created_per_session_it_made_and_none_for_those_skipped(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Imports")
    agent = await make_agent(client, "importer")
    await db.execute("TRUNCATE events")

    first = await client.post(
        f"/v5/repos/{space['id']}/import/conversations",
        content=fixture("claude_export.json"),
        headers={"Content-Type": "application/json", **bearer(agent["token"])},
    )
    assert first.status_code == 201, first.text
    made = [s["session_id"] for s in first.json()["sessions"]]
    assert len(made) == 3
    again = await import_file(client, space["id"], fixture("claude_export.json"))  # every one is held: skipped
    assert again.status_code == 201, again.text
    assert (await import_file(client, space["id"], b"not an export")).status_code == 400
    assert (await import_file(client, str(uuid.uuid4()), fixture("claude_export.json"))).status_code == 404

    assert await recorded(db) == [
        by_agent(agent, "session.created", space["id"], session_id=made_id, base_commit_id=None, forked_from=None)
        for made_id in made
    ]


async def test_a_pasted_transcript_stored_as_a_session_is_one_session_created(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Pasted")
    await db.execute("TRUNCATE events")

    stored = await client.post(
        "/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello", "repo_id": space["id"]}
    )
    assert stored.status_code == 201, stored.text
    not_stored = await client.post("/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello"})
    assert not_stored.status_code == 201, not_stored.text
    missing = await client.post(
        "/v1/transcripts", json={"transcript": "User: hi\nAssistant: hello", "repo_id": str(uuid.uuid4())}
    )
    assert missing.status_code == 404, missing.text

    assert await recorded(db) == [
        by_person(
            "session.created",
            space["id"],
            session_id=stored.json()["session_id"],
            base_commit_id=None,
            forked_from=None,
        )
    ]
