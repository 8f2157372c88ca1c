"""What long texts in scripts written without spaces cost search (migration 0018, search/sql.py).

Each character of a run of Chinese, Japanese, Thai, … is indexed twice (itself and its pair with
the next), so a long text parsed whole would cost ten times what English of its length does, on
the write that stores it and again in every excerpt read from it. Only a text's first 8,000 run
characters are taken apart (a vector's positions end there anyway), and a long text's excerpt is
read around the place the query's run stands, not along the whole text."""

from __future__ import annotations

import random

import asyncpg
import httpx

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.search.test_search import marked, search
from tests.support.api import create_session, create_space

# Varied text: 2,000 Han characters drawn at random, so that nearly every pair is new, as in the
# longest real texts (a novel's chapter, a transcript).
_HAN = [chr(code) for code in range(0x4E00, 0x4E00 + 2000)]


def _han(length: int, seed: int) -> str:
    draw = random.Random(seed)
    return "".join(draw.choice(_HAN) for _ in range(length))


async def _store_turns(client: httpx.AsyncClient, db: asyncpg.Connection, texts: list[str]) -> None:
    """`texts` as the Turns of a new Session, written straight in (the search trigger runs)."""
    space = await create_space(client, "Long texts")
    session = await create_session(client, space["id"])
    await db.executemany(
        "INSERT INTO turns (session_id, sequence_number, role, content) VALUES ($1, $2, 'user', $3)",
        [(session["id"], number, text) for number, text in enumerate(texts, 1)],
    )


async def test_a_long_text_keeps_its_vector_whole_and_an_english_word_at_its_end_is_found(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    # Taken apart whole, 150,000 characters' pairs passed PostgreSQL's 1 MB for a tsvector, so the
    # Turn was indexed by its first 20,000 characters only (migration 0012's cut) after seconds of
    # parsing: "kafka" at its end was not found.
    text = _han(150_000, seed=1) + " kafka"
    await _store_turns(client, db, [text])
    assert (await search(client, "kafka", kind="turn"))["total"] == 1
    near_start = text[1000:1003]
    hit = (await search(client, near_start, kind="turn"))["items"][0]
    assert marked(hit)[0] == near_start
    # Past the characters taken apart, a run is one word, as before migration 0018.
    assert (await search(client, text[100_000:100_003], kind="turn"))["total"] == 0


async def test_a_query_of_many_runs_reads_an_excerpt_of_each_long_text_not_the_whole(
    settings: Settings, db: asyncpg.Connection
) -> None:
    # Eight Turns of 200,000 characters that begin alike, and a query of the longest kind: 166
    # words of two characters each, all in every Turn. Reading each text whole for its excerpt
    # took seconds a Turn (ts_headline's work is the text's words times the query's).
    start = _han(500, seed=0)
    texts = [start + _han(199_500, seed=n) for n in range(1, 9)]
    query = " ".join(start[i : i + 2] for i in range(0, 500, 2))[:500]
    async with make_client(settings, db_statement_timeout_s=3.0) as client:
        await _store_turns(client, db, texts)
        found = await search(client, query, kind="turn")
    assert found["total"] == 8
    for hit in found["items"]:
        # The excerpt is 80 characters either side of where the first of the query's runs stands
        # (here the text's start), and each of the query's runs in it is highlighted.
        assert hit["snippet"] == start[:162]
        assert hit["highlights"] == [[0, 162]]
