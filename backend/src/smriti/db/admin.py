"""Whole databases: made fresh for a test run, a benchmark or a reliability run, and dropped."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import asyncpg

from smriti.db.migrate import upgrade_async
from smriti.db.urls import asyncpg_url


def with_database(url: str, name: str) -> str:
    """The same server, another database (a Unix-socket `?host=` stays as it is)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def recreate_database(server_url: str, name: str, *, revision: str = "head") -> str:
    """Drop `name` if it exists, create it empty, migrate it to `revision`, and return its URL."""
    admin = await asyncpg.connect(asyncpg_url(server_url))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = with_database(server_url, name)
    await upgrade_async(url, revision)
    return url


async def drop_database(server_url: str, name: str) -> None:
    admin = await asyncpg.connect(asyncpg_url(server_url))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
