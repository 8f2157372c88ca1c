"""A line's `protected` travels in a bundle; a bundle made before lines were protected loads its
lines unprotected."""

from __future__ import annotations

import httpx
import msgspec

from tests.bundles.space import rich_space
from tests.bundles.test_round_trip import NDJSON, export


async def _lines(client: httpx.AsyncClient, repo_id: str) -> dict[str, bool]:
    items = (await client.get(f"/v4/repos/{repo_id}/branches")).json()["items"]
    return {line["name"]: line["protected"] for line in items}


async def test_protected_survives_export_and_import(client: httpx.AsyncClient) -> None:
    repo_id = await rich_space(client)
    names = list(await _lines(client, repo_id))
    protect = await client.patch(f"/v4/repos/{repo_id}/branches/{names[1]}", json={"protected": True})
    assert protect.status_code == 200, protect.text
    before = await _lines(client, repo_id)
    assert sorted(before.values()) == [False, True]
    bundle = await export(client, repo_id)
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204
    imported = await client.post("/v5/repos/import", content=bundle, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    assert await _lines(client, repo_id) == before
    assert await export(client, repo_id) == bundle


async def test_a_bundle_without_protected_loads_unprotected(client: httpx.AsyncClient) -> None:
    repo_id = await rich_space(client)
    names = list(await _lines(client, repo_id))
    assert (await client.patch(f"/v4/repos/{repo_id}/branches/{names[0]}", json={"protected": True})).status_code == 200
    lines = [msgspec.json.decode(line) for line in (await export(client, repo_id)).splitlines()]
    for line in lines:
        if line.get("type") == "branch":
            del line["protected"]
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204
    old = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    imported = await client.post("/v5/repos/import", content=old, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    assert set((await _lines(client, repo_id)).values()) == {False}
