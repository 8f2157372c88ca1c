"""A Session nobody titled takes its title from its first message's first words, on the server
(issue 44 item 18); a title a person gives, before or after, is never replaced."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest

from smriti.sessions.titles import PREFIX_CHARS, TITLE_CHARS, derived_title
from tests.support.api import create_session, create_space, send
from tests.support.fake_providers import FakeProviderServer


async def _title(client: httpx.AsyncClient, session_id: str) -> str:
    response = await client.get(f"/v4/sessions/{session_id}")
    assert response.status_code == 200, response.text
    title: str = response.json()["title"]
    return title


async def test_an_untitled_session_is_titled_by_its_first_message_once(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"t-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"])
    assert session["title"] == ""
    await send(client, session["id"], "Plan a three-day trip to Lisbon in May, with a day in Sintra")
    assert await _title(client, session["id"]) == "Plan a three-day trip to Lisbon…"
    listed = (await client.get(f"/v4/repos/{space['id']}/sessions")).json()["items"]
    assert [s["title"] for s in listed] == ["Plan a three-day trip to Lisbon…"]
    # Only the first exchange titles a Session: later messages and retries do not.
    await send(client, session["id"], "Now budget it")
    await send(client, session["id"], "Now budget it", retry_of=3)
    assert await _title(client, session["id"]) == "Plan a three-day trip to Lisbon…"


async def test_a_title_a_person_gave_is_kept(client: httpx.AsyncClient) -> None:
    space = await create_space(client, f"t-{uuid.uuid4().hex[:8]}")
    named = await create_session(client, space["id"], title="Lisbon")
    await send(client, named["id"], "Plan a three-day trip to Lisbon")
    assert await _title(client, named["id"]) == "Lisbon"

    derived = await create_session(client, space["id"])
    await send(client, derived["id"], "What should we eat in Porto?")
    assert await _title(client, derived["id"]) == "What should we eat in Porto?"
    for title in ("Porto food", ""):  # a rename after the derivation is kept, even to untitled
        renamed = await client.patch(f"/v4/sessions/{derived['id']}", json={"title": title})
        assert renamed.status_code == 200, renamed.text
        await send(client, derived["id"], "And in Lisbon?")
        assert await _title(client, derived["id"]) == title


async def test_a_rename_while_the_first_reply_is_on_its_way_wins(
    client: httpx.AsyncClient, fake_providers: FakeProviderServer
) -> None:
    space = await create_space(client, f"t-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"])
    fake_providers.state.delay_seconds = 0.5
    sending = asyncio.create_task(send(client, session["id"], "Plan a trip", provider="openai"))
    await asyncio.sleep(0.2)
    renamed = await client.patch(f"/v4/sessions/{session['id']}", json={"title": "Chosen while it answered"})
    assert renamed.status_code == 200, renamed.text
    await sending
    assert await _title(client, session["id"]) == "Chosen while it answered"


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("```\n```\n---\n# \n> ", ""),  # only markup: stays untitled
        ("\u200b\u2060 x", "x"),  # invisible characters are no words
        ("# Trip\n\n- **Lisbon** and [Sintra](https://example.com)\n- Porto", "Trip Lisbon and Sintra Porto"),
        ("```python\nprint('hello')\n```", "print('hello')"),  # only code: its first words
        ("مرحبا، أريد التخطيط لرحلة إلى لشبونة في مايو", "مرحبا، أريد التخطيط لرحلة إلى لشبونة…"),
        ("\u202eevil\u202c and more", "evil and more"),  # no direction override left open
        ("東京の今日の天気はどうですか？明日は雨が降りますか？傘を持って行くべきでしょうか？" * 2, None),
    ],
)
async def test_hostile_first_messages_get_a_bounded_one_line_title(
    client: httpx.AsyncClient, message: str, title: str | None
) -> None:
    space = await create_space(client, f"t-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], message)
    stored = await _title(client, session["id"])
    if title is None:  # a script written without spaces: cut at the limit
        assert stored == message[: TITLE_CHARS - 1] + "…"
    else:
        assert stored == title
    assert "\n" not in stored
    assert len(stored) <= TITLE_CHARS


async def test_a_megabyte_of_one_word_is_cut_and_costs_only_its_prefix(client: httpx.AsyncClient) -> None:
    word = "a" * 1_000_000
    space = await create_space(client, f"t-{uuid.uuid4().hex[:8]}")
    session = await create_session(client, space["id"])
    await send(client, session["id"], word)
    assert await _title(client, session["id"]) == "a" * (TITLE_CHARS - 1) + "…"
    # The title reads a bounded prefix: a message a thousand times longer costs no more to title.
    short, long = word[: 2 * PREFIX_CHARS], word
    started = time.perf_counter()
    for _ in range(100):
        derived_title(short)
    short_cost = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(100):
        derived_title(long)
    assert time.perf_counter() - started < 5 * short_cost + 0.01


@pytest.mark.parametrize(
    "hostile",
    ["[" * 500_000, "[a](" * 200_000, "\n" * 1_000_000, "-\n" * 500_000, "> # - 1. |" * 100_000, "*_" * 500_000],
)
def test_what_is_read_is_a_bounded_prefix(hostile: str) -> None:
    assert derived_title(hostile) == derived_title(hostile[:PREFIX_CHARS])
    started = time.perf_counter()
    derived_title(hostile)
    assert time.perf_counter() - started < 0.05
