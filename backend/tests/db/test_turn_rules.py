"""A Turn's rules hold in the database, whoever writes the row: the trigger of migration 0014
refuses what the CHECK constraints before it refused, under the same constraint names."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import asyncpg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.db.migrate import alembic_commands, upgrade
from tests.support.databases import database_at

_INSERT = (
    "INSERT INTO turns (session_id, sequence_number, role, content, stopped, retry_of, context_sha256, "
    "context_through_seq) VALUES ($1, $2, $3, 'x', $4, $5, $6, $7)"
)
_RECEIPT = "0123456789abcdef" * 4


async def _session(conn: asyncpg.Connection) -> UUID:
    space = await conn.fetchval(
        "INSERT INTO repos (id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'rules', now(), now()) "
        "RETURNING id"
    )
    session: UUID = await conn.fetchval(
        "INSERT INTO sessions (id, repo_id, title, last_seq, created_at, updated_at) "
        "VALUES (gen_random_uuid(), $1, 's', 0, now(), now()) RETURNING id",
        space,
    )
    return session


def _row(session: UUID, **given: Any) -> tuple[Any, ...]:
    """A Turn that breaks nothing (a message, number 3), but for what is `given`."""
    row = {"seq": 3, "role": "user", "stopped": False, "retry_of": None, "receipt": None, "through": None, **given}
    return (session, row["seq"], row["role"], row["stopped"], row["retry_of"], row["receipt"], row["through"])


BROKEN: list[tuple[str, dict[str, Any]]] = [
    ("ck_turns_role", {"role": "system"}),
    ("ck_turns_sequence_number_positive", {"seq": 0}),
    ("ck_turns_retry_of", {"role": "assistant", "retry_of": 1}),  # only a message asks again
    ("ck_turns_retry_of", {"retry_of": 3}),  # a Turn before it
    ("ck_turns_retry_of", {"retry_of": 0}),
    ("ck_turns_stopped", {"stopped": True}),  # only a reply is stopped
    ("ck_turns_context_sha256", {"receipt": _RECEIPT}),  # only a reply has a receipt
    ("ck_turns_context_sha256", {"role": "assistant", "receipt": _RECEIPT.upper()}),
    ("ck_turns_context_sha256", {"role": "assistant", "receipt": _RECEIPT[:63]}),
    ("ck_turns_context_sha256", {"role": "assistant", "receipt": _RECEIPT[:63] + "g"}),
    ("ck_turns_context_sha256", {"role": "assistant", "receipt": _RECEIPT[:63] + "é"}),
    ("ck_turns_context_sha256", {"role": "assistant", "receipt": " " + _RECEIPT[:63]}),
    ("ck_turns_context_through_seq", {"role": "assistant", "through": 0}),  # only a message's context
    ("ck_turns_context_through_seq", {"through": 3}),  # ends before the message
    ("ck_turns_context_through_seq", {"through": -1}),
]


@pytest.mark.parametrize(("constraint", "given"), BROKEN)
async def test_a_turn_that_breaks_a_rule_is_refused_under_the_rules_name(
    db: asyncpg.Connection, constraint: str, given: dict[str, Any]
) -> None:
    session = await _session(db)
    with pytest.raises(asyncpg.CheckViolationError) as refused:
        await db.execute(_INSERT, *_row(session, **given))
    assert refused.value.constraint_name == constraint
    assert refused.value.table_name == "turns"
    assert str(refused.value) == f'new row for relation "turns" violates check constraint "{constraint}"'
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


async def test_only_a_reply_ends_at_the_reply_limit(db: asyncpg.Connection) -> None:
    """Migration 0019's rule, in the same trigger."""
    session = await _session(db)
    insert = "INSERT INTO turns (session_id, sequence_number, role, content, at_limit) VALUES ($1, $2, $3, 'x', true)"
    with pytest.raises(asyncpg.CheckViolationError) as refused:
        await db.execute(insert, session, 1, "user")
    assert refused.value.constraint_name == "ck_turns_at_limit"
    await db.execute(insert, session, 2, "assistant")
    assert await db.fetchval("SELECT count(*) FROM turns WHERE at_limit") == 1


async def test_turns_that_keep_the_rules_are_stored(db: asyncpg.Connection) -> None:
    session = await _session(db)
    rows = [
        _row(session, seq=1, through=0),
        _row(session, seq=2, role="assistant", receipt=_RECEIPT),
        _row(session, seq=3, retry_of=1, through=2),
        _row(session, seq=4, role="assistant", stopped=True),  # a stopped reply, stored before receipts
    ]
    await db.executemany(_INSERT, rows)
    assert await db.fetchval("SELECT count(*) FROM turns") == 4


async def test_an_update_that_breaks_a_rule_is_refused(db: asyncpg.Connection) -> None:
    session = await _session(db)
    await db.execute(_INSERT, *_row(session, seq=1))
    with pytest.raises(asyncpg.CheckViolationError, match="ck_turns_stopped"):
        await db.execute("UPDATE turns SET stopped = true WHERE session_id = $1", session)
    assert await db.fetchval("SELECT stopped FROM turns WHERE session_id = $1", session) is False


async def test_a_copy_that_breaks_a_rule_writes_nothing(db: asyncpg.Connection) -> None:
    """Bundles are imported with COPY (bundles/write.py); the trigger holds it to the rules too."""
    session = await _session(db)
    records = [(*_row(session, seq=1), "x"), (*_row(session, seq=2, role="robot"), "x")]
    with pytest.raises(asyncpg.CheckViolationError, match="ck_turns_role"):
        await db.copy_records_to_table(
            "turns",
            records=records,
            columns=[
                "session_id",
                "sequence_number",
                "role",
                "stopped",
                "retry_of",
                "context_sha256",
                "context_through_seq",
                "content",
            ],
        )
    assert await db.fetchval("SELECT count(*) FROM turns") == 0


_HEXISH = st.text(alphabet="0123456789abcdefABCDEFgz \n\t-é", min_size=60, max_size=68)


@given(
    candidates=st.lists(
        st.one_of(_HEXISH, st.text(max_size=70), st.sampled_from([_RECEIPT, _RECEIPT + "\n", "\n" + _RECEIPT])),
        min_size=1,
        max_size=40,
    )
)
@settings(max_examples=60, deadline=None)
def test_the_receipts_form_is_the_regular_expression_it_replaced(database_url: str, candidates: list[str]) -> None:
    """`^[0-9a-f]{64}$` (the CHECK before 0014) and the trigger's test agree on every string."""

    async def disagreements() -> list[str]:
        conn = await asyncpg.connect(database_url)
        try:
            rows = await conn.fetch(
                "SELECT s FROM unnest($1::text[]) AS s "
                "WHERE (s ~ '^[0-9a-f]{64}$') IS DISTINCT FROM "
                "(length(s) = 64 AND ltrim(s, '0123456789abcdef') = '')",
                [c.replace("\x00", "") for c in candidates],
            )
        finally:
            await conn.close()
        return [r["s"] for r in rows]

    assert asyncio.run(disagreements()) == []


async def test_migration_0014_moves_the_rules_to_the_trigger_and_back(postgres_url: str) -> None:
    async with database_at(postgres_url, "0013") as url:
        conn = await asyncpg.connect(url)
        try:
            session = await _session(conn)
            await conn.execute(_INSERT, *_row(session, seq=1, through=0))
            checks = "SELECT count(*) FROM pg_constraint WHERE conrelid = 'turns'::regclass AND contype = 'c'"
            assert await conn.fetchval(checks) == 6

            await asyncio.to_thread(upgrade, url)
            assert await conn.fetchval(checks) == 0
            with pytest.raises(asyncpg.CheckViolationError, match="ck_turns_role"):
                await conn.execute(_INSERT, *_row(session, seq=2, role="robot"))

            await asyncio.to_thread(lambda: alembic_commands(url).downgrade("0013"))
            assert await conn.fetchval(checks) == 6
            assert await conn.fetchval("SELECT count(*) FROM pg_trigger WHERE tgname = 'smriti_turn_rules'") == 0
            with pytest.raises(asyncpg.CheckViolationError, match="ck_turns_role"):
                await conn.execute(_INSERT, *_row(session, seq=2, role="robot"))
            assert await conn.fetchval("SELECT count(*) FROM turns") == 1
        finally:
            await conn.close()
