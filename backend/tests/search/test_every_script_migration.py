"""Migration 0018 on a database that already holds Chinese, Japanese and Thai: its Turns and
Checkpoints become findable by the words inside their sentences, every vector is what the new
functions give, and the downgrade puts back what the old ones gave."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
import httpx

from smriti.core.config import Settings
from smriti.db.migrate import MIGRATIONS_DIR, alembic_commands, upgrade
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space
from tests.support.databases import database_at


def _revision_before() -> str:
    """The revision 0018 follows (its `down_revision`, which a merge may change)."""
    path = Path(MIGRATIONS_DIR) / "versions" / "0018_search_every_script.py"
    spec = importlib.util.spec_from_file_location("migration_0018", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before: str = module.down_revision
    return before


STATE: dict[str, Any] = {
    "summary": "東京の今日の天気は？",
    "decisions": ["新幹線で京都へ行く"],
    "artifacts": [{"name": "แผน.md", "content": "วันนี้อากาศที่กรุงเทพดีมาก"}],
}

# Each vector as the functions in place give it from the row's own fields.
_STALE_CHECKPOINTS = """
SELECT count(*) FROM commits c
WHERE c.search_vector IS DISTINCT FROM smriti_checkpoint_vector(c.message, c.summary, c.decisions, c.assumptions,
        c.tasks, c.open_questions, c.entities, c.artifacts)
   OR c.items_vector IS DISTINCT FROM smriti_items_vector(c.decisions, c.assumptions, c.tasks, c.open_questions,
        c.entities)
   OR c.artifacts_vector IS DISTINCT FROM smriti_artifacts_vector(c.artifacts)
"""
# A parent and its child written straight in, the child's id sorting first (an import keeps a
# bundle's ids), and the parent's row then moved past the child's in the table (an update writes
# a new version of it at the end): the backfill meets the child before the parent whose part
# vectors it reused, whether it goes by the key or along the table.
_INSERT_CHECKPOINT = """
INSERT INTO commits (id, repo_id, parent_commit_id, depth, jump_commit_id, jump_depth, first_parent_merges,
                     commit_hash, message, summary, decisions, assumptions, tasks, open_questions, entities,
                     artifacts, metadata, created_at)
VALUES ($1::uuid, $2, $3::uuid, 0, $1::uuid, 0, 0, md5($1::text) || md5($1::text), $4, $5, $6::jsonb, '[]',
        '[]', '[]', '[]', $7::jsonb, '{}', now())
"""
_MESSAGE = "我们明天去北京看长城。"
_PARENT, _CHILD = "ffffffff-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000000"

_STALE_TURNS = "SELECT count(*) FROM turns t WHERE t.search_vector IS DISTINCT FROM smriti_turn_vector(t.content)"


async def _stale(conn: asyncpg.Connection) -> tuple[int, int]:
    return await conn.fetchval(_STALE_CHECKPOINTS), await conn.fetchval(_STALE_TURNS)


async def _total(client: httpx.AsyncClient, words: str, kind: str) -> int:
    response = await client.get("/v5/search", params={"q": words, "kind": kind})
    assert response.status_code == 200, response.text
    total: int = response.json()["total"]
    return total


async def test_stored_text_in_every_script_becomes_findable_and_the_downgrade_undoes_it(
    postgres_url: str, settings: Settings
) -> None:
    before = _revision_before()
    # Written by today's code on today's schema, then taken back to before 0018 (whose downgrade
    # parses the text the old way again): today's code cannot write to an old schema.
    async with database_at(postgres_url, "head") as url:
        async with make_client(settings, database_url=url) as client:
            space = await create_space(client, "Before 0018")
            await commit(client, space["id"], "計画", **STATE)
            # Carries the parent's items and artifacts unchanged: their vectors are reused.
            await commit(client, space["id"], "Booked the train", **STATE)
            await commit(client, space["id"], "English only", summary="ferries every hour")
            session = await create_session(client, space["id"])
        await asyncio.to_thread(lambda: alembic_commands(url).downgrade(before))
        conn = await asyncpg.connect(url)
        try:
            # A message and a reply quoting it, written in as a send stored them before 0018 (a send
            # through today's code writes columns later migrations added).
            for seq, role, content in ((1, "user", _MESSAGE), (2, "assistant", f"You said: {_MESSAGE}")):
                await conn.execute(
                    "INSERT INTO turns (session_id, sequence_number, role, content) VALUES ($1, $2, $3, $4)",
                    UUID(session["id"]),
                    seq,
                    role,
                    content,
                )
            await conn.execute("UPDATE sessions SET last_seq = 2 WHERE id = $1", UUID(session["id"]))
            decisions, artifacts = json.dumps(STATE["decisions"]), json.dumps(STATE["artifacts"])
            for checkpoint, parent in ((_PARENT, None), (_CHILD, _PARENT)):
                await conn.execute(
                    _INSERT_CHECKPOINT, checkpoint, space["id"], parent, "imported", "", decisions, artifacts
                )
            await conn.execute("UPDATE commits SET metadata = metadata WHERE id = $1", _PARENT)
            # The old parse: a run is one word, so a word inside it is not in any vector.
            assert not await conn.fetchval(
                "SELECT bool_or(search_vector @@ to_tsquery('english', '東京')) FROM commits"
            )
            await asyncio.to_thread(upgrade, url)
            assert await _stale(conn) == (0, 0)
            async with make_client(settings, database_url=url) as client:
                assert await _total(client, "東京", "checkpoint") == 2
                assert await _total(client, "京都", "checkpoint") == 4
                assert await _total(client, "กรุงเทพ", "checkpoint") == 4
                assert await _total(client, "北京", "turn") == 2  # the message and the reply quoting it
                assert await _total(client, "ferry", "checkpoint") == 1

            await asyncio.to_thread(lambda: alembic_commands(url).downgrade(before))
            assert await conn.fetchval("SELECT to_regproc('smriti_search_words') IS NULL")
            assert await _stale(conn) == (0, 0)  # as the old functions give them, again
            assert await conn.fetchval(
                "SELECT bool_and(search_vector @@ to_tsquery('english', '東京の今日の天気は')) FROM commits "
                "WHERE summary LIKE '東京%'"
            )
        finally:
            await conn.close()


async def test_the_backfill_waits_for_a_write_that_began_before_it_and_holds_up_none(
    postgres_url: str, settings: Settings
) -> None:
    """A Turn whose transaction was open while the functions changed was parsed the old way; the
    upgrade waits for it to end, then parses it again. Other writes go on meanwhile."""
    before = _revision_before()
    async with database_at(postgres_url, "head") as url:
        async with make_client(settings, database_url=url) as client:
            space = await create_space(client, "Open write")
            session = (await create_session(client, space["id"]))["id"]
        await asyncio.to_thread(lambda: alembic_commands(url).downgrade(before))
        writer, other = await asyncpg.connect(url), await asyncpg.connect(url)
        try:
            insert = "INSERT INTO turns (session_id, sequence_number, role, content) VALUES ($1, $2, 'user', $3)"
            transaction = writer.transaction()
            await transaction.start()
            await writer.execute(insert, session, 1, "东京的天气很好")
            upgrading = asyncio.create_task(asyncio.to_thread(upgrade, url))
            await asyncio.sleep(3)
            assert not upgrading.done()  # waiting for the open write
            await other.execute(insert, session, 2, "北京的天气也很好")  # not held up
            await transaction.commit()
            await asyncio.wait_for(upgrading, 60)
            assert await _stale(other) == (0, 0)
            found = await other.fetchval(
                "SELECT count(*) FROM turns WHERE search_vector @@ websearch_to_tsquery('english', "
                "smriti_search_words('天气'))"
            )
            assert found == 2
        finally:
            await writer.close()
            await other.close()
