"""Export → import gives back the same Space: ids, HEAD, log, hashes, lines, Sessions, Turns."""

from __future__ import annotations

import httpx
import msgspec

from tests.bundles.space import observed, rich_space

NDJSON = {"Content-Type": "application/x-ndjson"}


async def export(client: httpx.AsyncClient, repo_id: str) -> bytes:
    response = await client.get(f"/v5/repos/{repo_id}/export")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    assert response.headers["content-disposition"].startswith("attachment; filename=")
    return response.content


async def test_a_space_exported_deleted_and_imported_is_the_same_space(client: httpx.AsyncClient) -> None:
    repo_id = await rich_space(client)
    before = await observed(client, repo_id)
    assert before["verify"]["ok"], before["verify"]
    bundle = await export(client, repo_id)
    lines = [msgspec.json.decode(line) for line in bundle.splitlines()]
    assert lines[0]["format"] == "smriti-space"
    assert lines[0]["version"] == 1
    kinds = [line.get("type") for line in lines[1:]]
    assert kinds[-1] == "end"
    assert lines[-1] == {
        "type": "end",
        "checkpoints": 4,
        "branches": 2,
        "sessions": 4,
        "turns": 8,
    }
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204

    imported = await client.post("/v5/repos/import", content=bundle, headers=NDJSON)

    assert imported.status_code == 201, imported.text
    assert imported.headers["location"] == f"/v4/repos/{repo_id}"
    after = await observed(client, repo_id)
    assert after == before
    assert after["verify"]["ok"]
    assert after["verify"]["checked"] == 4
    # And the import exports byte for byte as the source did.
    assert await export(client, repo_id) == bundle


async def test_an_existing_space_is_a_409_and_nothing_changes(client: httpx.AsyncClient) -> None:
    repo_id = await rich_space(client)
    bundle = await export(client, repo_id)
    before = await observed(client, repo_id)

    again = await client.post("/v5/repos/import", content=bundle, headers=NDJSON)

    assert again.status_code == 409, again.text
    assert again.json()["errors"][0]["field"] == "space.id"
    assert await observed(client, repo_id) == before


async def test_a_bundle_must_say_it_is_ndjson(client: httpx.AsyncClient) -> None:
    repo_id = await rich_space(client)
    bundle = await export(client, repo_id)
    for content_type in ("application/json", "text/plain"):
        response = await client.post("/v5/repos/import", content=bundle, headers={"Content-Type": content_type})
        assert response.status_code == 415, (content_type, response.text)


async def test_an_unknown_space_exports_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/v5/repos/0193a0a0-0000-7000-8000-000000000000/export")
    assert response.status_code == 404
