"""Every kind of damage to a bundle is refused with a 400 naming its first bad line, and nothing
of it is written."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest

from smriti.checkpoints.hashing import chain_hash, content_sha256
from tests.bundles.space import rich_space
from tests.conftest import make_client

NDJSON = {"Content-Type": "application/x-ndjson"}
Lines = list[dict[str, Any]]


def _index(lines: Lines, kind: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if line.get("type") == kind][nth]


def _set(kind: str, nth: int, **changes: Any) -> Callable[[Lines], int]:
    def damage(lines: Lines) -> int:
        at = _index(lines, kind, nth)
        lines[at].update(changes)
        return at + 1

    return damage


def _drop(kind: str, nth: int, reported_at: int = 0) -> Callable[[Lines], int]:
    """Leave a line out; the problem shows `reported_at` lines later."""

    def damage(lines: Lines) -> int:
        at = _index(lines, kind, nth)
        del lines[at]
        return at + 1 + reported_at

    return damage


def _swap_first_checkpoints(lines: Lines) -> int:
    at = _index(lines, "checkpoint")
    lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return at + 1


def _second_default(lines: Lines) -> int:
    lines[_index(lines, "branch", 1)]["is_default"] = True
    return len(lines)  # found at the end line


def _swap_turns(lines: Lines) -> int:
    at = _index(lines, "turn")
    lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return at + 1


def _after_end(lines: Lines) -> int:
    lines.append(dict(lines[-1]))
    return len(lines)


def _header(**changes: Any) -> Callable[[Lines], int]:
    def damage(lines: Lines) -> int:
        lines[0].update(changes)
        return 1

    return damage


def _space_id(lines: Lines) -> int:
    lines[0]["space"]["id"] = str(uuid.uuid4())
    return 2  # the first Checkpoint's hash names the Space


def _space_name(name: str) -> Callable[[Lines], int]:
    def damage(lines: Lines) -> int:
        lines[0]["space"]["name"] = name
        return 1

    return damage


def _twice(kind: str) -> Callable[[Lines], int]:
    """The first line of a kind again, right after it: the copy is the line refused."""

    def damage(lines: Lines) -> int:
        at = _index(lines, kind)
        lines.insert(at + 1, dict(lines[at]))
        return at + 2

    return damage


def _same_id(kind: str) -> Callable[[Lines], int]:
    """The second line of a kind takes the first one's id."""

    def damage(lines: Lines) -> int:
        first, second = _index(lines, kind), _index(lines, kind, 1)
        lines[second]["id"] = lines[first]["id"]
        return second + 1

    return damage


DAMAGE: dict[str, Callable[[Lines], int]] = {
    "a Checkpoint's message": _set("checkpoint", 0, message="Edited"),
    "a Checkpoint's artifact": _set("checkpoint", 0, artifacts=[{"name": "x", "content": "y", "media_type": "t/p"}]),
    "a Checkpoint's time": _set("checkpoint", 1, created_at="2020-01-01T00:00:00.000000Z"),
    "a Checkpoint's hash": _set("checkpoint", 2, commit_hash="0" * 64),
    "a merge's second parent dropped": _set("checkpoint", 3, merge_parent_id=None),
    "a Checkpoint left out": _drop("checkpoint", 0),
    "a child before its parent": _swap_first_checkpoints,
    "the Space's id": _space_id,
    "a line's HEAD hash": _set("branch", 0, head_commit_hash="a" * 64),
    "a line's count": lambda lines: _set("branch", 1, commit_count=7)(lines) and len(lines),
    "two default lines": _second_default,
    "a Session's base": _set("session", 1, base_commit_id=str(uuid.uuid4())),
    "a Session's length": _set("session", 0, last_seq=3),
    "Turns out of order": _swap_turns,
    "a Turn's Checkpoint": _set("turn", 0, checkpoint_id=str(uuid.uuid4())),
    "a Turn with NUL": _set("turn", 0, content="a\u0000b"),
    "a Turn with a lone surrogate": _set("turn", 1, content="a<SURROGATE>b"),
    "a reused request id": _set("turn", 2, request_id="req-1"),
    "a stopped message": _set("turn", 0, stopped=True),
    "a message at the reply limit": _set("turn", 0, at_limit=True),
    "an unknown field": _set("turn", 0, colour="red"),
    "a name twice in one object": _set("turn", 0, content="<TWICE>"),
    "a wrong type": _set("turn", 0, sequence_number="1"),
    "a line after the end": _after_end,
    "the end line's counts": _set("end", 0, turns=99),
    "the end line left out (cut short)": _drop("end", 0),
    "another format": _header(format="other"),
    "another version": _header(version=2),
    # Bytes that are not UTF-8 (a 500 from the check for repeated names, which read them first).
    "the Space's name not UTF-8": _space_name("<NOT-UTF8>"),
    "a Turn's text not UTF-8": _set("turn", 1, content="<NOT-UTF8>"),
    "a name not UTF-8": _set("session", 0, **{"<NOT-UTF8-NAME>": 1}),
    "the end line's count not UTF-8": _set("end", 0, turns="<NOT-UTF8>"),
    # Two lines with one id: each is refused at the second (a line's id was a 409 at the write,
    # blaming another Space).
    "a line's id twice": _same_id("branch"),
    "a Checkpoint twice": _twice("checkpoint"),
    "a Session's id twice": _same_id("session"),
    "a Turn twice": _twice("turn"),
}


def _encode(lines: Lines) -> bytes:
    # A lone surrogate cannot be encoded by msgspec: it is spelled as a JSON escape by hand.
    encoded = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    # Nor a name twice: the first Turn's content ("hello") is written twice by hand, the same
    # both times, so that only the check for repeated names can see it.
    encoded = encoded.replace(b"<SURROGATE>", b"\\ud800").replace(b'"<TWICE>"', b'"hello","content":"hello"')
    # Nor bytes that are not UTF-8.
    return encoded.replace(b"<NOT-UTF8>", b"a\xffb").replace(b"<NOT-UTF8-NAME>", b"\xc3(")


async def _counts(db: asyncpg.Connection) -> tuple[int, ...]:
    row = await db.fetchrow(
        "SELECT (SELECT count(*) FROM repos), (SELECT count(*) FROM commits), (SELECT count(*) FROM branches), "
        "(SELECT count(*) FROM sessions), (SELECT count(*) FROM turns)"
    )
    assert row is not None
    return tuple(row)


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
async def test_a_damaged_bundle_is_refused_naming_its_line_and_nothing_is_written(
    client: httpx.AsyncClient, db: asyncpg.Connection, damage: Callable[[Lines], int]
) -> None:
    repo_id = await rich_space(client)
    bundle = (await client.get(f"/v5/repos/{repo_id}/export")).content
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204
    lines = [msgspec.json.decode(line) for line in bundle.splitlines()]
    bad_line = damage(lines)
    before = await _counts(db)

    response = await client.post("/v5/repos/import", content=_encode(lines), headers=NDJSON)

    assert response.status_code == 400, response.text
    assert response.json()["detail"].startswith(f"Line {bad_line}:"), response.json()["detail"]
    assert response.json()["errors"][0]["field"] == f"line {bad_line}"
    assert await _counts(db) == before


async def test_an_empty_or_garbled_bundle_is_refused(client: httpx.AsyncClient) -> None:
    for body, line in ((b"", 1), (b"not json\n", 1), (b"\n", 1)):
        response = await client.post("/v5/repos/import", content=body, headers=NDJSON)
        assert response.status_code == 400, response.text
        assert response.json()["detail"].startswith(f"Line {line}:"), response.json()["detail"]


def _rehashed(lines: Lines, repo_id: uuid.UUID, name: str) -> Lines:
    """The same bundle made consistent under another Space id: its hashes recomputed."""
    lines[0]["space"].update(id=str(repo_id), name=name)
    hashes: dict[str, str] = {}
    for line in lines:
        if line.get("type") == "checkpoint":
            parent, merged = line["parent_commit_id"], line["merge_parent_id"]
            line["commit_hash"] = hashes[line["id"]] = chain_hash(
                commit_id=uuid.UUID(line["id"]),
                repo_id=repo_id,
                parent_hash=hashes[parent] if parent else None,
                created_at=datetime.datetime.fromisoformat(line["created_at"]),
                content_digest=content_sha256(line),
                merge_parent_hash=hashes[merged] if merged else None,
            )
        elif line.get("type") == "branch" and line["head_commit_id"]:
            line["head_commit_hash"] = hashes[line["head_commit_id"]]
    return lines


async def test_ids_taken_by_another_space_are_a_409_and_nothing_is_written(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    repo_id = await rich_space(client)
    lines = [
        msgspec.json.decode(line) for line in (await client.get(f"/v5/repos/{repo_id}/export")).content.splitlines()
    ]
    before = await _counts(db)

    response = await client.post(
        "/v5/repos/import", content=_encode(_rehashed(lines, uuid.uuid4(), "Copy")), headers=NDJSON
    )

    assert response.status_code == 409, response.text
    assert "already in this database" in response.json()["detail"]
    assert await _counts(db) == before


async def test_a_bundle_over_the_limit_is_a_413(settings: Any, db: asyncpg.Connection) -> None:
    async with make_client(settings, max_import_bytes=4096) as small:
        repo_id = await rich_space(small)
        bundle = (await small.get(f"/v5/repos/{repo_id}/export")).content
        assert len(bundle) > 4096
        await small.delete(f"/v4/repos/{repo_id}")
        before = await _counts(db)
        response = await small.post("/v5/repos/import", content=bundle, headers=NDJSON)
        assert response.status_code == 413, response.text
        assert response.json()["limit_bytes"] == 4096
        assert await _counts(db) == before
