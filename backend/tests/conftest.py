"""Shared fixtures: a real PostgreSQL, the app with real SDKs, and fake provider servers."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast
from uuid import uuid4

import asyncpg
import httpx
import pytest
from litestar import Litestar

from smriti.core.config import ProviderSettings, Settings
from smriti.db.admin import drop_database, recreate_database
from smriti.db.embedded import start_embedded_postgres
from smriti.server.app import create_app
from tests.support.fake_providers import FakeProviderServer

OPENAI_TEST_KEY = "sk-test-openai-key-0123456789abcdef"
ANTHROPIC_TEST_KEY = "sk-ant-test-anthropic-key-0123456789"


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PostgreSQL server: $SMRITI_TEST_DATABASE_URL, else the embedded one in a temp folder."""
    url = os.environ.get("SMRITI_TEST_DATABASE_URL")
    if url:
        return url
    return start_embedded_postgres(tmp_path_factory.mktemp("embedded-pg"))


@pytest.fixture(scope="session")
async def database_url(postgres_url: str) -> AsyncIterator[str]:
    """A fresh database for this test run, migrated to head."""
    name = f"smriti_test_{uuid4().hex[:10]}"
    yield await recreate_database(postgres_url, name)
    await drop_database(postgres_url, name)


@pytest.fixture(scope="session")
def fake_providers() -> Iterator[FakeProviderServer]:
    server = FakeProviderServer().start()
    yield server
    server.stop()


@pytest.fixture
async def db(database_url: str, fake_providers: FakeProviderServer) -> AsyncIterator[asyncpg.Connection]:
    """A raw connection for assertions; every test starts from empty tables and a quiet fake."""
    fake_providers.state.reset()
    conn = await asyncpg.connect(database_url)
    await conn.execute("TRUNCATE repos, commits, sessions, turns, agents, events, webhooks CASCADE")
    await conn.execute("UPDATE events_pruned SET through = 0")
    try:
        yield conn
    finally:
        await conn.close()


@pytest.fixture
def settings(database_url: str, fake_providers: FakeProviderServer, tmp_path: Path) -> Settings:
    return Settings(
        database_url=database_url,
        data_dir=tmp_path / "data",
        openai=ProviderSettings(
            api_key=OPENAI_TEST_KEY,
            base_url=fake_providers.openai_base_url,
            default_model="gpt-test",
            models=("gpt-test",),
        ),
        anthropic=ProviderSettings(
            api_key=ANTHROPIC_TEST_KEY,
            base_url=fake_providers.anthropic_base_url,
            default_model="claude-test",
            models=("claude-test",),
        ),
        default_provider="offline",
        provider_timeout_s=1.0,
        provider_max_retries=0,
        migrate_on_start=False,
        db_pool_size=8,
    )


@asynccontextmanager
async def make_client(
    settings: Settings, *, base_url: str = "http://localhost", **changes: Any
) -> AsyncIterator[httpx.AsyncClient]:
    """The app in this event loop, behind httpx's ASGI transport.

    Unlike Litestar's test client (which runs the app through a blocking portal), requests made
    with asyncio.gather here really are concurrent, which the concurrency tests depend on.
    """
    app = create_app(dataclasses.replace(settings, **changes) if changes else settings)
    transport = httpx.ASGITransport(app=cast("Any", app))  # Litestar's ASGI types are narrower than httpx's
    # The ASGI scope's `server` is the URL's host: a loopback URL is a server reached on loopback.
    async with running(app), httpx.AsyncClient(transport=transport, base_url=base_url) as client:
        yield client


@asynccontextmanager
async def running(app: Litestar) -> AsyncIterator[None]:
    """Start-up and shutdown in one task of their own (the lifespan's task group requires it)."""
    started, stop = asyncio.Event(), asyncio.Event()

    async def lifespan() -> None:
        async with app.lifespan():
            started.set()
            await stop.wait()

    task = asyncio.create_task(lifespan())
    waiter = asyncio.create_task(started.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        waiter.cancel()
        await task  # start-up failed: raise its error here
    try:
        yield
    finally:
        stop.set()
        await task


@pytest.fixture
async def client(settings: Settings, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(settings) as test_client:
        yield test_client
