"""The lean asyncpg pool behind the hot paths (HEAD, a Checkpoint, the log, context, send, commit).

SQLAlchemy's async session costs three round trips per read (BEGIN, query, ROLLBACK) and several
hundred microseconds of CPU; the hottest paths use asyncpg directly instead.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from smriti.db.urls import asyncpg_url

_json_encode = msgspec.json.Encoder().encode
_json_decode = msgspec.json.Decoder().decode


def _encode_jsonb(value: Any) -> bytes:
    # Binary jsonb wire format: a version byte, then the JSON text.
    return b"\x01" + _json_encode(value)


def _decode_jsonb(data: bytes) -> Any:
    return _json_decode(data[1:])


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "jsonb", schema="pg_catalog", encoder=_encode_jsonb, decoder=_decode_jsonb, format="binary"
    )


async def _no_reset(conn: asyncpg.Connection) -> None:
    """Skip asyncpg's reset query on release.

    The default reset (advisory unlock, CLOSE ALL, UNLISTEN, RESET ALL) is a second round trip
    on every release. It is safe to skip because no Smriti query leaves session state behind:
    no SET, no advisory session locks, no LISTEN, no temporary tables. Transactions are always
    closed by asyncpg's context managers before release.
    """


async def create_pool(url: str, *, size: int) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        asyncpg_url(url),
        min_size=1,
        max_size=size,
        init=_init_connection,
        reset=_no_reset,
        command_timeout=30,
    )
    assert pool is not None
    return pool
