"""The checkpoint nudge (invariant 7): a hint in every send response, never a Checkpoint."""

from __future__ import annotations

import asyncpg
import httpx

from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send


async def test_nudge_after_turns_and_on_decision_language(settings: Settings, db: asyncpg.Connection) -> None:
    async with make_client(settings, nudge_after_turns=6) as client:
        space = await create_space(client)
        session = await create_session(client, space["id"])
        first = await send(client, session["id"], "Tell me about Lisbon")
        assert first["suggestion"] == {"checkpoint_recommended": False, "reason": None}
        await send(client, session["id"], "And Porto?")
        third = await send(client, session["id"], "What about Faro")
        assert third["suggestion"]["checkpoint_recommended"] is True
        assert third["suggestion"]["reason"] == "6 Turns since this Session started."

        # A Checkpoint resets the count for the Space.
        saved = await commit(client, space["id"], "Portugal trip")
        after = await send(client, session["id"], "Next: food")
        assert after["suggestion"]["checkpoint_recommended"] is False
        await send(client, session["id"], "Any bakeries?")
        later = await send(client, session["id"], "And cafés?")
        assert later["suggestion"]["reason"] == "6 Turns since the last Checkpoint of this Space."

        # Mounted: counted from the mount boundary.
        base = later["assistant_turn"]["sequence_number"]
        mount = {"checkpoint_id": saved["id"], "history_base_seq": base}
        mounted = await send(client, session["id"], "Back to planning", **mount)
        assert mounted["suggestion"]["checkpoint_recommended"] is False
        await send(client, session["id"], "Day one?", **mount)
        day_two = await send(client, session["id"], "Day two?", **mount)
        assert day_two["suggestion"]["reason"] == "6 Turns since the mounted Checkpoint."

        cue = await send(client, session["id"], "OK, let's go with the coastal route.", **mount)
        assert cue["suggestion"]["checkpoint_recommended"] is True
        assert "let's go with" in cue["suggestion"]["reason"]
        assert await db.fetchval("SELECT count(*) FROM commits") == 1


async def test_nudge_never_creates_a_checkpoint(client: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    space = await create_space(client)
    session = await create_session(client, space["id"])
    for index in range(10):
        reply = await send(client, session["id"], f"We decided to do thing {index}. Final answer.")
        assert reply["suggestion"]["checkpoint_recommended"] is True
    assert await db.fetchval("SELECT count(*) FROM commits") == 0
    assert (await client.get(f"/v4/repos/{space['id']}/head")).status_code == 404
