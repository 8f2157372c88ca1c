"""Names of lines: names that look alike are one line, and no new name can be taken for a Checkpoint."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest

from smriti.core.text import line_key
from tests.support.api import commit, create_space

COMPOSED, DECOMPOSED = "caf\u00e9", "cafe\u0301"


async def _line(client: httpx.AsyncClient, space: str, name: str, **fields: Any) -> httpx.Response:
    return await client.post(f"/v4/repos/{space}/branches", json={"name": name, **fields})


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (COMPOSED, DECOMPOSED),
        ("release notes", "release\u00a0notes"),  # a no-break space
        ("release notes", "release\u3000notes"),  # an ideographic space
        ("release notes", "release   notes"),  # a run of spaces
        ("Straße", "STRASSE"),  # case folded, not only lowered
        ("\u00c9t\u00e9", "\u00e9t\u00e9"),  # non-ASCII letters fold however the database's locale lowers them
    ],
)
async def test_names_that_look_alike_are_one_line(client: httpx.AsyncClient, first: str, second: str) -> None:
    space = await create_space(client)
    sid = space["id"]
    await commit(client, sid, "base")
    made = await _line(client, sid, first)
    assert made.status_code == 201, made.text
    assert made.json()["name"] == first  # stored as it was given
    again = await _line(client, sid, second)
    assert (again.status_code, again.json()["errors"][0]["field"]) == (409, "name"), again.text
    await _line(client, sid, "other")
    renamed = await client.patch(f"/v4/repos/{sid}/branches/other", json={"name": second})
    assert (renamed.status_code, renamed.json()["errors"][0]["field"]) == (409, "name"), renamed.text
    names = [line["name"] for line in (await client.get(f"/v4/repos/{sid}/branches")).json()["items"]]
    assert sorted(names) == sorted(["main", first, "other"])


async def test_a_line_is_found_by_any_spelling_of_its_name(client: httpx.AsyncClient) -> None:
    # Made with the decomposed é, reached with the composed one (and a no-break space) everywhere
    # a line is named: a query, a path, a commit, an apply and a merge.
    space = await create_space(client)
    sid = space["id"]
    base = await commit(client, sid, "base")
    stored = f"{DECOMPOSED} au\u00a0lait"
    asked = "CAF\u00c9  AU LAIT"
    assert (await _line(client, sid, stored)).status_code == 201
    on_line = await commit(client, sid, "on the line", branch=asked)
    applied = await client.post(
        "/v5/checkpoints/apply",
        json={"repo_id": sid, "message": "applied", "branch": asked, "add": {"decisions": ["x"]}},
    )
    assert applied.status_code == 201, applied.text
    assert applied.json()["parent_commit_id"] == on_line["id"]
    head = await client.get(f"/v4/repos/{sid}/head", params={"branch": asked})
    assert head.json()["id"] == applied.json()["id"]
    log = (await client.get(f"/v4/repos/{sid}/commits", params={"branch": asked})).json()
    assert [c["message"] for c in log["items"]] == ["applied", "on the line", "base"]
    merge = await client.get(f"/v5/repos/{sid}/merge", params={"ours": "main", "theirs": asked})
    assert merge.status_code == 200, merge.text
    assert merge.json()["base_commit_id"] == base["id"]
    path = f"/v4/repos/{sid}/branches/{asked}"
    got = await client.get(path)
    assert got.json()["name"] == stored  # the name as it was given
    made_default = await client.patch(path, json={"is_default": True})
    assert made_default.status_code == 200, made_default.text
    assert (await client.patch(f"/v4/repos/{sid}/branches/main", json={"is_default": True})).status_code == 200
    assert (await client.delete(path)).status_code == 204
    assert (await client.get(f"/v4/repos/{sid}/verify")).json()["ok"] is True


async def test_a_line_can_be_renamed_to_another_spelling_of_its_own_name(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    sid = space["id"]
    assert (await _line(client, sid, DECOMPOSED)).status_code == 201
    renamed = await client.patch(f"/v4/repos/{sid}/branches/{DECOMPOSED}", json={"name": COMPOSED.upper()})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == COMPOSED.upper()


REF_SHAPED = [
    "deadbee",  # seven hex digits: a hash prefix
    "DEADBEEF1",  # either case
    "0123456789" * 6 + "abcd",  # a whole hash
    str(uuid.uuid4()),
    str(uuid.uuid4()).upper(),
    "{" + str(uuid.uuid4()) + "}",  # the other spellings an id is read in
    "urn:uuid:" + str(uuid.uuid4()),
    uuid.uuid4().hex[:16] + "-" + uuid.uuid4().hex[:16],  # dashes anywhere: still an id
]


@pytest.mark.parametrize("name", REF_SHAPED)
async def test_a_new_name_that_could_be_a_checkpoint_is_refused(client: httpx.AsyncClient, name: str) -> None:
    space = await create_space(client)
    sid = space["id"]
    await commit(client, sid, "base")
    made = await _line(client, sid, name)
    assert (made.status_code, made.json()["errors"][0]["field"]) == (400, "name"), made.text
    assert "Checkpoint" in made.json()["detail"]
    renamed = await client.patch(f"/v4/repos/{sid}/branches/main", json={"name": name})
    assert (renamed.status_code, renamed.json()["errors"][0]["field"]) == (400, "name"), renamed.text


@pytest.mark.parametrize("name", ["cafe", "deadbeefs", "face-off", "release-2026", "0123456-x", "g123456"])
async def test_names_that_only_resemble_hex_are_fine(client: httpx.AsyncClient, name: str) -> None:
    space = await create_space(client)
    assert (await _line(client, space["id"], name)).status_code == 201


@pytest.mark.parametrize("filler", ["\u3164", "\u115f", "\u034f", "\uffa0"])
async def test_a_new_name_cannot_hold_a_character_that_shows_nothing(client: httpx.AsyncClient, filler: str) -> None:
    space = await create_space(client)
    made = await _line(client, space["id"], f"ma{filler}in")
    assert (made.status_code, made.json()["errors"][0]["field"]) == (400, "name"), made.text


async def test_a_line_named_like_a_checkpoint_before_the_rule_wins_in_a_merge(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    # Lines named before names were checked (or imported from such a Space) keep their names.
    # Where a ref may be a line or a Checkpoint (a merge's ours and theirs), a line's name comes
    # first, in every route and client (docs/merge.md); a longer prefix, the full hash or the id
    # still names the Checkpoint.
    space = await create_space(client)
    sid = space["id"]
    base = await commit(client, sid, "base")
    side = await commit(client, sid, "side")
    assert (await _line(client, sid, "legacy", from_ref=base["id"])).status_code == 201
    shadowed = side["commit_hash"][:7]
    await db.execute(
        "UPDATE branches SET name = $2, name_key = $3 WHERE repo_id = $1 AND name = 'legacy'",
        uuid.UUID(sid),
        shadowed,
        line_key(shadowed),
    )
    await commit(client, sid, "on legacy", branch=shadowed)
    by_name = (await client.get(f"/v5/repos/{sid}/merge", params={"ours": "main", "theirs": shadowed})).json()
    legacy_head = (await client.get(f"/v4/repos/{sid}/branches/{shadowed}")).json()["head_commit_id"]
    assert by_name["theirs_commit_id"] == legacy_head != side["id"]
    by_longer = (
        await client.get(f"/v5/repos/{sid}/merge", params={"ours": shadowed, "theirs": side["commit_hash"][:8]})
    ).json()
    assert by_longer["theirs_commit_id"] == side["id"]


async def _bundle_lines(client: httpx.AsyncClient, sid: str) -> list[dict[str, Any]]:
    bundle = (await client.get(f"/v5/repos/{sid}/export")).content
    assert (await client.delete(f"/v4/repos/{sid}")).status_code == 204
    return [msgspec.json.decode(line) for line in bundle.splitlines()]


async def _import(client: httpx.AsyncClient, lines: list[dict[str, Any]]) -> httpx.Response:
    body = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    return await client.post("/v5/repos/import", content=body, headers={"Content-Type": "application/x-ndjson"})


async def test_a_bundle_whose_line_names_look_alike_is_refused(client: httpx.AsyncClient) -> None:
    space = await create_space(client)
    await commit(client, space["id"], "base")
    assert (await _line(client, space["id"], "other")).status_code == 201
    lines = await _bundle_lines(client, space["id"])
    branches = [i for i, line in enumerate(lines) if line.get("type") == "branch"]
    lines[branches[0]]["name"], lines[branches[1]]["name"] = COMPOSED, DECOMPOSED
    refused = await _import(client, lines)
    assert refused.status_code == 400, refused.text
    assert refused.json()["detail"].startswith(f"Line {branches[1] + 1}:"), refused.text


async def test_a_line_named_before_the_rules_is_imported_as_it_is(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client)
    sid = space["id"]
    await commit(client, sid, "base")
    assert (await _line(client, sid, "legacy")).status_code == 201
    await db.execute(
        "UPDATE branches SET name = 'deadbeef1', name_key = 'deadbeef1' WHERE repo_id = $1 AND name = 'legacy'",
        uuid.UUID(sid),
    )
    imported = await _import(client, await _bundle_lines(client, sid))
    assert imported.status_code == 201, imported.text
    names = [line["name"] for line in (await client.get(f"/v4/repos/{sid}/branches")).json()["items"]]
    assert names == ["main", "deadbeef1"]
    assert (await client.get(f"/v4/repos/{sid}/branches/DEADBEEF1")).status_code == 200
