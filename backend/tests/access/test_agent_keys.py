"""Agent keys (SYSTEM.md §13): made, listed and revoked by the person only; stored as a hash; a
revoked key refused everywhere within a second; the key never accepted or echoed anywhere else."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import create_space
from tests.support.live_server import live_server

PERSON = "person-token-" + "x" * 20


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def make_agent(client: httpx.AsyncClient, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    response = await client.post("/v5/agents", json={"name": "bot", "spaces": None, **body}, headers=headers)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


async def test_a_key_is_shown_once_stored_as_a_hash_and_listed_without_it(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "keys")
    made = await make_agent(client, name="  writer  ", spaces=[space["id"], space["id"]])
    token = made["token"]
    assert token.startswith("smr_")
    assert len(token) == 4 + 43
    assert made["name"] == "writer"
    assert made["spaces"] == [space["id"]]
    assert made["write"] is True
    assert made["last_used_at"] is None
    assert made["revoked_at"] is None
    stored = await db.fetchrow("SELECT * FROM agents WHERE id = $1::uuid", made["id"])
    assert stored is not None
    assert token.encode() not in b"".join(str(v).encode() for v in stored.values())
    assert bytes(stored["token_hash"]) == hashlib.sha256(token.encode()).digest()
    listed = (await client.get("/v5/agents")).json()
    assert [a["id"] for a in listed["items"]] == [made["id"]]
    assert "token" not in listed["items"][0]
    # Using it stamps last_used_at.
    assert (await client.get(f"/v4/repos/{space['id']}", headers=bearer(token))).status_code == 200
    listed = (await client.get("/v5/agents")).json()
    assert listed["items"][0]["last_used_at"] is not None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "   "}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "bot\u0000"}, "name"),  # PostgreSQL text cannot hold NUL (schemathesis found the 500)
        ({"spaces": ["not-a-uuid"]}, "spaces"),
        ({"spaces": "all"}, "spaces"),
        ({"write": "yes"}, "write"),
        ({"token": "smr_mine"}, "token"),
    ],
)
async def test_a_bad_key_request_names_its_field_and_makes_nothing(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: dict[str, Any], field: str
) -> None:
    response = await client.post("/v5/agents", json={"name": "bot", "spaces": None, **body})
    assert response.status_code == 400, response.text
    assert field in response.text
    assert await db.fetchval("SELECT count(*) FROM agents") == 0


async def test_a_key_for_a_space_that_does_not_exist_is_refused(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    response = await client.post("/v5/agents", json={"name": "bot", "spaces": ["01890000-0000-7000-8000-000000000000"]})
    assert response.status_code == 404
    assert response.json()["errors"][0]["field"] == "spaces"
    assert await db.fetchval("SELECT count(*) FROM agents") == 0


async def test_agents_never_manage_agents(client: httpx.AsyncClient) -> None:
    agent = await make_agent(client)
    other = await make_agent(client, name="other")
    for method, path, body in (
        ("POST", "/v5/agents", {"name": "mine", "spaces": None}),
        ("GET", "/v5/agents", None),
        ("DELETE", f"/v5/agents/{other['id']}", None),
        ("DELETE", f"/v5/agents/{agent['id']}", None),
    ):
        response = await client.request(method, path, json=body, headers=bearer(agent["token"]))
        assert response.status_code == 403, (method, path, response.text)
        assert "person" in response.json()["detail"]
    listed = (await client.get("/v5/agents")).json()["items"]
    assert all(a["revoked_at"] is None for a in listed)
    assert len(listed) == 2


async def test_unknown_revoked_and_misplaced_keys_are_refused(client: httpx.AsyncClient, settings: Settings) -> None:
    agent = await make_agent(client)
    token = agent["token"]
    assert (await client.get("/v4/repos", headers=bearer(token))).status_code == 200
    assert (await client.delete(f"/v5/agents/{agent['id']}")).status_code == 204
    assert (await client.delete(f"/v5/agents/{agent['id']}")).status_code == 204  # again: nothing changes
    missing = await client.delete("/v5/agents/01890000-0000-7000-8000-000000000000")
    assert missing.status_code == 404
    for headers in (bearer(token), bearer(token[:-1] + ("A" if token[-1] != "A" else "B")), bearer("smr_")):
        refused = await client.get("/v4/repos", headers=headers)
        assert refused.status_code == 401, headers
        assert token not in refused.text
    # A key is a header's, never a query string's or a cookie's: without the header, the caller is
    # whoever the header says (here the person, in local mode), never the agent.
    live = await make_agent(client, name="live", spaces=[])
    as_query = await client.get("/v4/repos", params={"token": live["token"], "access_token": live["token"]})
    assert as_query.status_code == 200
    assert as_query.json()["total"] >= 0
    with_person = dataclasses.replace(settings, api_token=PERSON)
    async with make_client(with_person) as guarded:
        for params in ({"token": live["token"]}, {"access_token": live["token"]}):
            assert (await guarded.get("/v4/repos", params=params)).status_code == 401
        assert (await guarded.get("/v4/repos", headers=bearer(live["token"]))).json()["items"] == []


async def test_revocation_reaches_another_server_process_within_a_second(database_url: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL": database_url, "SMRITI_DATA_DIR": str(tmp_path / "unused"), "SMRITI_API_TOKEN": PERSON}
    with live_server(env, tmp_path) as first, live_server(env, tmp_path) as second:
        async with httpx.AsyncClient(timeout=30) as http:
            made = (
                await http.post(f"{first.url}/v5/agents", json={"name": "bot", "spaces": None}, headers=bearer(PERSON))
            ).json()
            key = bearer(made["token"])
            # The second process has looked the key up (and keeps it for a while).
            assert (await http.get(f"{second.url}/v4/repos", headers=key)).status_code == 200
            revoked = await http.delete(f"{first.url}/v5/agents/{made['id']}", headers=bearer(PERSON))
            assert revoked.status_code == 204
            at = time.monotonic()
            while (await http.get(f"{second.url}/v4/repos", headers=key)).status_code == 200:
                assert time.monotonic() - at < 1.0, "a revoked key still worked on another process after a second"
                await asyncio.sleep(0.02)
            assert (await http.get(f"{first.url}/v4/repos", headers=key)).status_code == 401


async def test_a_key_never_reaches_the_log(client: httpx.AsyncClient, capfd: pytest.CaptureFixture[str]) -> None:
    agent = await make_agent(client)
    token = agent["token"]
    await client.get("/v4/repos/not-a-uuid", headers=bearer(token))
    await client.post("/v4/repos", content=b"{", headers={**bearer(token), "content-type": "application/json"})
    await client.get("/v4/repos", headers=bearer(token + "x"))
    out, err = capfd.readouterr()
    assert token not in out + err


async def test_only_the_person_deletes_a_space(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    # Deleting a Space drops every line the person protected: no agent key may, even one that
    # reaches every Space and made this one.
    key = bearer((await make_agent(client, name="everywhere", spaces=None))["token"])
    made = await client.post("/v4/repos", json={"name": "Agent's own"}, headers=key)
    assert made.status_code == 201, made.text
    refused = await client.delete(f"/v4/repos/{made.json()['id']}", headers=key)
    assert refused.status_code == 403
    assert "person" in refused.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM repos") == 1
    assert (await client.delete(f"/v4/repos/{made.json()['id']}")).status_code == 204


async def test_me_says_who_the_server_takes_the_caller_to_be(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "Mine")
    assert (await client.get("/v5/me")).json() == {"kind": "person", "write": True}
    reader = await make_agent(client, name="reader", spaces=[space["id"]], write=False)
    answer = (await client.get("/v5/me", headers=bearer(reader["token"]))).json()
    assert answer == {"kind": "agent", "write": False, "id": reader["id"], "name": "reader", "spaces": [space["id"]]}
    everywhere = await make_agent(client, name="roamer", write=True)
    answer = (await client.get("/v5/me", headers=bearer(everywhere["token"]))).json()
    assert answer == {"kind": "agent", "write": True, "id": everywhere["id"], "name": "roamer"}
    assert "token" not in answer
