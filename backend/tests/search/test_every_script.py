"""GET /v5/search finds a word inside a sentence in every script (issue 43, section 3): Chinese,
Japanese and Thai put no space between words, and Korean sticks its particles to the noun, so
PostgreSQL's parser read each of their runs as one word (migration 0018)."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from tests.search.test_search import marked, search
from tests.support.api import commit, create_session, create_space, send

SENTENCES = {
    "japanese": "東京の今日の天気は？",  # "Tokyo's weather today?"
    "chinese": "我们明天去北京看长城。",  # "Tomorrow we go to Beijing to see the Great Wall."
    "thai": "วันนี้อากาศที่กรุงเทพดีมาก",  # "Today the weather in Bangkok is very good."
    "korean": "서울의 날씨는 맑음",  # "Seoul's weather: clear"
}


async def _said(client: httpx.AsyncClient, text: str) -> str:
    space = await create_space(client, "Scripts")
    session = await create_session(client, space["id"])
    await send(client, session["id"], text)
    return str(session["id"])


def _first_turn(found: dict[str, Any]) -> dict[str, Any]:
    """The hit on the message sent (the offline model's reply quotes it, so it matches too)."""
    return next(hit for hit in found["items"] if hit["sequence_number"] == 1)


@pytest.mark.parametrize(
    ("script", "words"),
    [
        ("japanese", ["東京", "天気", "今日の天気"]),
        ("chinese", ["北京", "长城", "明天", "去"]),
        ("thai", ["กรุงเทพ", "อากาศ", "ดีมาก"]),
        ("korean", ["서울", "날씨", "서울의"]),
    ],
)
async def test_a_word_is_found_inside_a_sentence_and_marked_alone(
    client: httpx.AsyncClient, db: asyncpg.Connection, script: str, words: list[str]
) -> None:
    session = await _said(client, SENTENCES[script])
    for word in words:
        found = await search(client, word, kind="turn")
        assert found["total"] == 2, word  # the message and the reply that quotes it
        hit = _first_turn(found)
        assert hit["session_id"] == session
        assert hit["snippet"] == SENTENCES[script], word
        assert marked(hit) == [word], word
    # A one-character word is marked wherever it stands.
    if script == "japanese":
        assert marked(_first_turn(await search(client, "の", kind="turn"))) == ["の", "の"]


async def test_what_is_not_in_the_text_as_written_is_not_found(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    await _said(client, SENTENCES["japanese"])
    for word in ("京東", "東京天気", "大阪", '"天気 東京"'):
        assert (await search(client, word, kind="turn"))["total"] == 0, word
    # Words apart in the query are each found, wherever they stand, as in English.
    assert (await search(client, "天気 東京", kind="turn"))["total"] == 2
    assert (await search(client, "東京 -天気", kind="turn"))["total"] == 0
    assert (await search(client, "大阪 or 天気", kind="turn"))["total"] == 2


async def test_a_one_character_word_is_found_at_the_end_of_a_run_and_marked_alone(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    await _said(client, "今天下雨。雨很大")  # "It rains today. The rain is heavy."
    found = await search(client, "雨", kind="turn")
    assert found["total"] == 2
    hit = _first_turn(found)
    assert marked(hit) == ["雨", "雨"]
    assert hit["highlights"] == [[3, 4], [5, 6]]
    # The characters of a longer word are marked only where the word stands.
    found = await search(client, "下雨", kind="turn")
    assert marked(_first_turn(found)) == ["下雨"]


async def test_scripts_mix_in_one_text_and_one_query(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "Mixed")
    await commit(client, space["id"], "Python使い方", summary="Deploying 東京 servers on 2025年")
    for query, field, words in [
        ("使い方", "message", ["使い方"]),
        ("python", "message", ["Python"]),
        ("Python使い", "message", ["Python使い"]),
        ("deploy 東京", "summary", ["Deploying", "東京"]),
        ('"deploying 東京 servers"', "summary", ["Deploying", "東京", "servers"]),
        ("年", "summary", ["年"]),
    ]:
        found = await search(client, query, kind="checkpoint")
        assert [hit["field"] for hit in found["items"]] == [field], query
        assert marked(found["items"][0]) == words, query


async def test_every_part_of_a_checkpoint_is_found_in_its_script(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "旅行")
    await commit(
        client,
        space["id"],
        "予約した",
        decisions=["新幹線で京都へ行く"],
        tasks=[{"text": "ホテルを予約する"}],
        entities=[{"name": "กรุงเทพมหานคร", "kind": "เมือง"}],
        artifacts=[{"name": "計画.md", "content": "第一天：参观故宫，第二天：爬长城"}],
    )
    for words, field in [
        ("京都", "decisions[0]"),
        ("ホテル", "tasks[0].text"),
        ("กรุงเทพ", "entities[0].name"),
        ("故宫", "artifacts[0].content"),
        ("計画", "artifacts[0].name"),
    ]:
        found = await search(client, words, kind="checkpoint")
        assert [hit["field"] for hit in found["items"]] == [field], words
        assert marked(found["items"][0]) == [words], words


async def test_a_better_match_ranks_first_in_every_script(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client, "Ranks")
    await commit(client, space["id"], "メモ", artifacts=[{"name": "a", "content": "ついでにカフカの話"}])
    await commit(client, space["id"], "カフカのクラスタ設計", summary="カフカ、カフカ")
    await commit(client, space["id"], "Kafka cluster sizing", summary="kafka kafka")
    found = await search(client, "カフカ")
    assert [(hit["field"], marked(hit)) for hit in found["items"]] == [
        ("message", ["カフカ"]),
        ("artifacts[0].content", ["カフカ"]),
    ]
    assert found["items"][0]["rank"] > found["items"][1]["rank"]
    # A word in the message ranks alike in either script.
    both = await search(client, "カフカ or kafka")
    assert [hit["field"] for hit in both["items"]] == ["message", "message", "artifacts[0].content"]


async def test_a_long_text_is_cut_around_the_word_and_put_back_as_written(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    filler = "これは長い文章の一部です。" * 40
    text = filler + "大切なのは富士山の写真です。" + filler
    await _said(client, text)
    hit = _first_turn(await search(client, "富士山", kind="turn"))
    assert marked(hit) == ["富士山"]
    assert "大切なのは富士山の写真です" in hit["snippet"]
    # Each excerpt is a piece of the text as written, not of its parsed form.
    for excerpt in hit["snippet"].split(" … "):
        assert excerpt.strip("…").strip() in text
    assert 20 < len(hit["snippet"]) < 200


async def test_control_characters_in_the_text_keep_the_snippet_right(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(client, "Control")
    await commit(client, space["id"], "x", summary="東\x01京\x04の\x06天気\x05です")
    hit = (await search(client, "天気", kind="checkpoint"))["items"][0]
    assert hit["snippet"] == "東 京 の 天気 です"
    assert marked(hit) == ["天気"]


async def test_the_rewriting_leaves_text_without_runs_as_it_is(db: asyncpg.Connection) -> None:
    for text in ("plain ASCII words", "café, naïve — “quoted”", "Привет мир", ""):
        assert await db.fetchval("SELECT smriti_search_words($1)", text) == text
    assert await db.fetchval("SELECT smriti_search_words('Python使い方, 東')") == (
        "Python\x04使\x01使い\x01い\x01い方\x01方\x06, \x04東\x06"
    )
