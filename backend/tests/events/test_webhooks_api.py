"""Webhooks' API (SYSTEM.md §14): the person's only; every bad input a 400 naming its field; a URL
that reaches a non-public address refused at creation; the secret shown once."""

from __future__ import annotations

import asyncio
import base64
import time
import uuid
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.core.errors import BadRequest
from smriti.db.pool import create_pool
from smriti.webhooks.schemas import WebhookCreate
from smriti.webhooks.store import WebhookStore
from tests.access.agents import agent_headers
from tests.support.api import create_space


def _field(response: httpx.Response) -> str:
    errors: list[dict[str, Any]] = response.json()["errors"]
    return str(errors[0]["field"])


async def test_a_webhook_is_made_listed_and_deleted_and_its_secret_shown_once(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "hooked")
    made = await client.post(
        "/v5/webhooks",
        json={"url": "https://93.184.215.14/hook", "repo_id": space["id"], "types": ["line.created", "line.created"]},
    )
    assert made.status_code == 201, made.text
    body = made.json()
    assert made.headers["location"] == f"/v5/webhooks/{body['id']}"
    assert body["url"] == "https://93.184.215.14/hook"
    assert body["repo_id"] == space["id"]
    assert body["types"] == ["line.created"]
    assert body["active"] is True
    assert body["secret"].startswith("whsec_")
    assert len(base64.b64decode(body["secret"].removeprefix("whsec_"), validate=True)) == 32
    stored = await db.fetchval("SELECT secret FROM webhooks WHERE id = $1", uuid.UUID(body["id"]))
    assert base64.b64decode(body["secret"].removeprefix("whsec_")) == bytes(stored)

    everything = await client.post("/v5/webhooks", json={"url": "http://93.184.215.14:8080/all"})
    assert everything.status_code == 201, everything.text
    assert everything.json()["repo_id"] is None
    assert everything.json()["types"] is None

    listed = await client.get("/v5/webhooks")
    assert listed.status_code == 200
    items = listed.json()["items"]
    assert [item["id"] for item in items] == [everything.json()["id"], body["id"]]
    assert all("secret" not in item for item in items)
    assert items[1]["active"] is True
    assert items[1]["disabled_reason"] is None
    assert body["secret"] not in listed.text

    deliveries = await client.get(f"/v5/webhooks/{body['id']}/deliveries")
    assert deliveries.status_code == 200
    assert deliveries.json() == {"items": []}

    assert (await client.delete(f"/v5/webhooks/{body['id']}")).status_code == 204
    again = await client.delete(f"/v5/webhooks/{body['id']}")
    assert again.status_code == 404
    assert _field(again) == "webhook_id"
    gone = await client.get(f"/v5/webhooks/{body['id']}/deliveries")
    assert gone.status_code == 404
    assert _field(gone) == "webhook_id"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://93.184.215.14/hook"}, "url"),
        ({"url": "file:///etc/passwd"}, "url"),
        ({"url": "93.184.215.14/hook"}, "url"),
        ({"url": "https://user:pass@93.184.215.14/hook"}, "url"),
        ({"url": "https://token@93.184.215.14/hook"}, "url"),
        ({"url": "https://93.184.215.14:99999/hook"}, "url"),
        ({"url": "https:///hook"}, "url"),
        ({"url": "https://93.184.215.14/" + "a" * 2000}, "url"),
        ({"url": "https://93.184.215.14/\u0000"}, "url"),
        ({"url": ""}, "url"),
        ({"url": "https://93.184.215.14/", "types": ["line.created", "line.exploded"]}, "types[1]"),
        ({"url": "https://93.184.215.14/", "types": []}, "types"),
        ({"url": "https://93.184.215.14/", "types": ["\u0000"]}, "types"),
        ({"url": "https://93.184.215.14/", "repo_id": "not-a-uuid"}, "repo_id"),
        ({"url": "https://93.184.215.14/", "secret": "mine"}, "secret"),
    ],
)
async def test_bad_input_is_a_400_naming_the_field(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: dict[str, Any], field: str
) -> None:
    response = await client.post("/v5/webhooks", json=body)
    assert response.status_code == 400, response.text
    assert _field(response) == field or _field(response).startswith(f"{field}[")  # an item: with its index
    assert await db.fetchval("SELECT count(*) FROM webhooks") == 0


async def test_a_space_that_does_not_exist_is_a_404_naming_repo_id(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    response = await client.post("/v5/webhooks", json={"url": "https://93.184.215.14/", "repo_id": str(uuid.uuid4())})
    assert response.status_code == 404
    assert _field(response) == "repo_id"
    assert await db.fetchval("SELECT count(*) FROM webhooks") == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://255.255.255.255/",
        "http://[::1]/",
        "http://[::]/",
        "http://[fe80::1]/",
        "http://[fd00::1]/",
        "http://[ff02::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://[64:ff9b::a00:1]/",
        "http://[2002:7f00:1::]/",
        "http://2130706433/",  # 127.0.0.1 as one number, which resolvers accept
        "http://0x7f.1/",
    ],
)
async def test_a_url_that_reaches_a_private_address_is_refused(
    client: httpx.AsyncClient, db: asyncpg.Connection, url: str
) -> None:
    response = await client.post("/v5/webhooks", json={"url": url})
    assert response.status_code == 400, response.text
    assert _field(response) == "url"
    assert await db.fetchval("SELECT count(*) FROM webhooks") == 0


async def test_an_agent_key_is_refused_on_every_webhook_route(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    made = await client.post("/v5/webhooks", json={"url": "https://93.184.215.14/hook"})
    webhook_id = made.json()["id"]
    _, headers = await agent_headers(client)
    answers = [
        await client.post("/v5/webhooks", json={"url": "https://93.184.215.14/other"}, headers=headers),
        await client.get("/v5/webhooks", headers=headers),
        await client.delete(f"/v5/webhooks/{webhook_id}", headers=headers),
        await client.get(f"/v5/webhooks/{webhook_id}/deliveries", headers=headers),
    ]
    assert [a.status_code for a in answers] == [403, 403, 403, 403]
    assert made.json()["secret"] not in "".join(a.text for a in answers)
    assert await db.fetchval("SELECT count(*) FROM webhooks") == 1


async def test_a_host_that_takes_too_long_to_resolve_is_a_400_naming_url(
    database_url: str, db: asyncpg.Connection
) -> None:
    async def hanging(host: str, port: int) -> list[str]:
        await asyncio.sleep(60)
        return ["93.184.215.14"]

    pool = await create_pool(database_url, size=2)
    try:
        store = WebhookStore(pool, allow_private=False, resolve=hanging, resolve_timeout_s=0.2)
        started = time.monotonic()
        with pytest.raises(BadRequest, match=r"did not resolve within 0\.2 s") as refused:
            await store.create(WebhookCreate(url="https://slow.example/hook"))
        assert time.monotonic() - started < 5
        assert refused.value.errors[0].field == "url"
    finally:
        await pool.close()
    assert await db.fetchval("SELECT count(*) FROM webhooks") == 0


async def test_a_malformed_webhook_id_is_a_400_naming_it(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    for response in (
        await client.delete("/v5/webhooks/not-an-id"),
        await client.get("/v5/webhooks/not-an-id/deliveries"),
    ):
        assert response.status_code == 400, response.text
        assert _field(response) == "webhook_id"
