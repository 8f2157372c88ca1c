"""A bundle's lines are held to SMRITI_MAX_BUNDLE_LINE_BYTES, and an import holds about one line and
one batch at a time, whatever the bundle's size (issue 42, item 3)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.bundles.service import LineLimit
from smriti.core.config import Settings
from smriti.core.errors import TooLarge
from tests.bundles.space import rich_space
from tests.conftest import make_client
from tests.support.memory import peak_allocated

NDJSON = {"Content-Type": "application/x-ndjson"}
LINE_LIMIT = 64 * 1024
Lines = list[dict[str, Any]]


async def _exported(client: httpx.AsyncClient) -> Lines:
    """A rich Space's bundle, decoded line by line; the Space is deleted, so it can come back."""
    repo_id = await rich_space(client)
    bundle = (await client.get(f"/v5/repos/{repo_id}/export")).content
    assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204
    return [msgspec.json.decode(line) for line in bundle.splitlines()]


def _with_session(lines: Lines, turns: int, chars: int) -> Lines:
    """One more Session before the end line, with `turns` Turns of `chars` characters each (a
    Turn's text is not hashed, so the bundle stays valid)."""
    session_id = str(uuid.uuid4())
    when = lines[0]["space"]["created_at"]
    added: Lines = [
        {"type": "session", "id": session_id, "last_seq": turns, "created_at": when, "updated_at": when},
        *(
            {
                "type": "turn",
                "session_id": session_id,
                "sequence_number": seq,
                "role": "user" if seq % 2 else "assistant",
                "content": f"{seq} " + "x" * chars,
                "created_at": when,
            }
            for seq in range(1, turns + 1)
        ),
    ]
    end = {**lines[-1], "sessions": lines[-1]["sessions"] + 1, "turns": lines[-1]["turns"] + turns}
    return [*lines[:-1], *added, end]


def _encode(lines: Lines) -> bytes:
    return b"".join(msgspec.json.encode(line) + b"\n" for line in lines)


async def _counts(db: asyncpg.Connection) -> tuple[int, ...]:
    row = await db.fetchrow(
        "SELECT (SELECT count(*) FROM repos), (SELECT count(*) FROM commits), (SELECT count(*) FROM branches), "
        "(SELECT count(*) FROM sessions), (SELECT count(*) FROM turns)"
    )
    assert row is not None
    return tuple(row)


async def test_a_line_longer_than_the_limit_is_a_413_naming_it(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, max_bundle_line_bytes=LINE_LIMIT) as client:
        lines = await _exported(client)
        turn = next(i for i, line in enumerate(lines) if line.get("type") == "turn")
        lines[turn]["content"] = "x" * LINE_LIMIT
        before = await _counts(db)

        response = await client.post("/v5/repos/import", content=_encode(lines), headers=NDJSON)

    assert response.status_code == 413, response.text
    problem = response.json()
    assert problem["detail"].startswith(f"Line {turn + 1}: longer than SMRITI_MAX_BUNDLE_LINE_BYTES (65536 bytes)")
    assert problem["errors"][0]["field"] == f"line {turn + 1}"
    assert problem["limit_bytes"] == LINE_LIMIT
    assert await _counts(db) == before


async def test_a_long_line_is_refused_as_it_arrives_never_held_whole(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """A 64 MB line against a 64 KB limit: refused without the line in memory (the check read
    each line whole: `for line in spool`)."""
    async with make_client(settings, max_bundle_line_bytes=LINE_LIMIT) as client:
        header = _encode((await _exported(client))[:1])

        async def body() -> AsyncIterator[bytes]:
            yield header + b'{"type": "turn", "content": "'
            for _ in range(64):
                yield b"x" * 2**20

        with peak_allocated() as peak:
            response = await client.post("/v5/repos/import", content=body(), headers=NDJSON)

    assert response.status_code == 413, response.text
    assert response.json()["errors"][0]["field"] == "line 2"
    assert peak.bytes < 8 * 2**20, peak.bytes


async def test_an_import_holds_a_batch_not_the_bundle(settings: Settings, db: asyncpg.Connection) -> None:
    """100 Turns of 250 KB: the write pass decoded 2,000 lines at a time, so all of them at once
    (25 MB of lines: 27 MB at the peak); now at most 2,000 lines or 1 MiB of them."""
    async with make_client(settings) as client:
        bundle = _encode(_with_session(await _exported(client), turns=100, chars=250_000))
        assert len(bundle) > 25_000_000

        with peak_allocated() as peak:
            response = await client.post("/v5/repos/import", content=bundle, headers=NDJSON)

    assert response.status_code == 201, response.text
    assert await db.fetchval("SELECT count(*) FROM turns WHERE length(content) > 250000") == 100
    # A piece of the file (1 MiB, twice while it is carried over), a batch (1 MiB of it) as
    # decoded and as sent, a line: a few MB, against 27 MB before (tracemalloc's count).
    assert peak.bytes < 8 * 2**20, (peak.bytes, len(bundle))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=1, max_size=8),
    st.lists(st.integers(1, 30), min_size=1, max_size=10),
    st.integers(1, 25),
)
def test_the_line_limit_names_the_first_long_line_however_the_body_is_cut(
    lengths: list[int], cuts: list[int], limit: int
) -> None:
    body = b"\n".join(b"x" * length for length in lengths) + b"\n"
    chunks, at = [], 0
    for cut in cuts * (len(body) // sum(cuts) + 1):
        chunks.append(body[at : at + cut])
        at += cut
    first_long = next((number for number, length in enumerate(lengths, start=1) if length > limit), None)
    check = LineLimit(limit)
    if first_long is None:
        _feed(check, chunks)
    else:
        with pytest.raises(TooLarge) as refused:
            _feed(check, chunks)
        assert refused.value.errors[0].field == f"line {first_long}"


def _feed(check: LineLimit, chunks: list[bytes]) -> None:
    for chunk in chunks:
        check.check(chunk)


@pytest.mark.parametrize("over", [0, 1])
def test_a_line_of_exactly_the_limit_is_read(over: int) -> None:
    check = LineLimit(1024)
    line = b"x" * (1024 + over) + b"\n"
    if over:
        with pytest.raises(TooLarge):
            check.check(line)
    else:
        check.check(line + line)
