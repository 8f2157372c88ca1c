"""Subscribing to a Space's HEAD over `smriti mcp` (stdio, a real subprocess) against a real
server: `resources/subscribe` under the handshake revisions (the oldest one spoken line by line),
`subscriptions/listen` under 2026-07-28 (the `mcp` SDK's own client), each told when HEAD moves
and only then, and still told across a restart of the Smriti server."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote
from uuid import UUID, uuid4

import anyio
import httpx
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPDeprecationWarning

from smriti.client.api import SmritiClient
from smriti.client.mcp.heads import HeadWatch
from smriti.client.mcp.subscriptions import MAX_LISTENED_URIS
from tests.client.test_mcp_stdio import Host
from tests.support.live_server import LiveServer, free_port, live_server, tree_env

pytestmark = pytest.mark.slow

TOKEN = "mcp-subscribe-token-" + uuid4().hex
TOLD_WITHIN_S = 10.0
QUIET_FOR_S = 2.0
"""How long nothing must come when nothing moved: the server sends each event within a second."""


def _env(database_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": TOKEN}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(_env(database_url), tmp_path_factory.mktemp("mcp-subscribe-logs")) as running:
        yield running


@pytest.fixture
async def api(server: LiveServer) -> AsyncIterator[Api]:
    async with Api(server.url) as person:
        yield person


class Api:
    """The HTTP API, as the person (or as an agent, with its key)."""

    def __init__(self, url: str, token: str = TOKEN) -> None:
        self.http = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)

    async def __aenter__(self) -> Api:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    async def space(self) -> dict[str, Any]:
        made = await self.http.post("/v4/repos", json={"name": f"Subscribed {uuid4().hex[:8]}"})
        assert made.status_code == 201, made.text
        space: dict[str, Any] = made.json()
        return space

    async def commit(self, space: dict[str, Any], message: str, **fields: Any) -> dict[str, Any]:
        saved = await self.http.post("/v4/chat/commit", json={"repo_id": space["id"], "message": message, **fields})
        assert saved.status_code == 201, saved.text
        checkpoint: dict[str, Any] = saved.json()
        return checkpoint

    async def agent_key(self) -> str:
        made = await self.http.post("/v5/agents", json={"name": "subscriber-bot", "spaces": None})
        assert made.status_code == 201, made.text
        return str(made.json()["token"])


def head_uri(space: dict[str, Any]) -> str:
    return f"smriti://spaces/{space['id']}/head"


def _stdio_env(url: str) -> dict[str, str]:
    return {**tree_env(), "SMRITI_URL": url, "SMRITI_API_TOKEN": TOKEN}


class Told:
    """The `notifications/resources/updated` a legacy client was sent, as they come."""

    def __init__(self) -> None:
        self.uris: asyncio.Queue[str] = asyncio.Queue()

    async def __call__(self, message: Any) -> None:
        if getattr(message, "method", None) == "notifications/resources/updated":
            self.uris.put_nowait(str(message.params.uri))

    async def next(self, within: float = TOLD_WITHIN_S) -> str:
        return await asyncio.wait_for(self.uris.get(), within)

    async def nothing(self, seconds: float = QUIET_FOR_S) -> None:
        await asyncio.sleep(seconds)
        assert self.uris.empty(), f"told of {self.uris.get_nowait()} though no HEAD moved"


async def subscribe(client: Client, uri: str) -> None:
    """`resources/subscribe`, as a client of a handshake revision sends it (the SDK calls it
    deprecated: 2026-07-28 has `subscriptions/listen` instead)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.session.subscribe_resource(uri)


async def unsubscribe(client: Client, uri: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.session.unsubscribe_resource(uri)


@asynccontextmanager
async def legacy_client(url: str) -> AsyncIterator[tuple[Client, Told]]:
    told = Told()
    params = StdioServerParameters(command=sys.executable, args=["-m", "smriti", "mcp"], env=_stdio_env(url))
    async with Client(params, mode="legacy", message_handler=told, read_timeout_seconds=60) as client:
        assert client.protocol_version == "2025-11-25"
        yield client, told


@asynccontextmanager
async def modern_client(url: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "smriti", "mcp"], env=_stdio_env(url))
    async with Client(params, read_timeout_seconds=60) as client:
        assert client.protocol_version == "2026-07-28"
        yield client


async def test_a_legacy_subscription_is_told_each_move_of_head_and_nothing_else(server: LiveServer, api: Api) -> None:
    space = await api.space()
    await api.commit(space, "First")
    other = await api.space()
    line = await api.http.post(f"/v4/repos/{space['id']}/branches", json={"name": "side"})
    assert line.status_code == 201, line.text
    async with Api(server.url, await api.agent_key()) as agent, legacy_client(server.url) as (client, told):
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.resources.subscribe is True
        by_name = f"smriti://spaces/{quote(space['name'], safe='')}/head"
        await subscribe(client, head_uri(space))
        await subscribe(client, by_name)

        await api.commit(space, "Second, by the person")
        assert {await told.next(), await told.next()} == {head_uri(space), by_name}
        await told.nothing()

        await agent.commit(space, "Third, by an agent")
        assert {await told.next(), await told.next()} == {head_uri(space), by_name}

        # A commit to another line, and one to another Space: no HEAD of ours moved.
        await api.commit(space, "On the side", branch="side")
        await api.commit(other, "Elsewhere")
        await told.nothing()

        # Making the side line the default moves HEAD to its Checkpoint.
        made_default = await api.http.patch(f"/v4/repos/{space['id']}/branches/side", json={"is_default": True})
        assert made_default.status_code == 200, made_default.text
        assert {await told.next(), await told.next()} == {head_uri(space), by_name}

        await unsubscribe(client, by_name)
        await api.commit(space, "Fourth")
        assert await told.next() == head_uri(space)
        await told.nothing()

        await unsubscribe(client, head_uri(space))
        await api.commit(space, "Fifth")
        await told.nothing()
        # The server still serves: the stream's end ended nothing else.
        read = await client.read_resource(head_uri(space))
        assert json.loads(getattr(read.contents[0], "text", ""))["message"] == "Fifth"


async def test_a_subscription_to_what_is_no_space_head_is_refused(server: LiveServer, api: Api) -> None:
    space = await api.space()
    saved = await api.commit(space, "Fixed")
    async with legacy_client(server.url) as (client, _):
        for uri, code, words in (
            ("smriti://spaces/No%20such%20Space/head", -32002, "No Space named"),
            (f"smriti://spaces/{uuid4()}/head", -32002, "Not found"),
            ("smriti://elsewhere/x", -32002, "Unknown resource"),
            (f"smriti://checkpoints/{saved['id']}", -32602, "a Checkpoint never changes"),
        ):
            with pytest.raises(MCPError, match=words) as caught:
                await subscribe(client, uri)
            assert caught.value.error.code == code, uri
    async with modern_client(server.url) as modern:
        with pytest.raises(MCPError, match="No Space named") as refused:
            async with modern.listen(resource_subscriptions=[head_uri(space), "smriti://spaces/Nowhere/head"]):
                pass
        assert refused.value.error.code == -32602


async def test_a_listen_stream_under_2026_07_28_is_told_when_head_moves(server: LiveServer, api: Api) -> None:
    space = await api.space()
    quiet = await api.space()
    async with modern_client(server.url) as client:
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.resources.subscribe is True
        async with client.listen(resource_subscriptions=[head_uri(space), head_uri(quiet)]) as subscription:
            events = aiter(subscription)
            await api.commit(space, "The first Checkpoint moves an empty Space's HEAD")
            assert await asyncio.wait_for(anext(events), TOLD_WITHIN_S) == ResourceUpdated(head_uri(space))
            line = await api.http.post(f"/v4/repos/{space['id']}/branches", json={"name": "side"})
            assert line.status_code == 201, line.text
            await api.commit(space, "Not the default line", branch="side")
            await api.commit(space, "The default line again")
            # The next one told is the last commit: the side line's moved no HEAD.
            assert await asyncio.wait_for(anext(events), TOLD_WITHIN_S) == ResourceUpdated(head_uri(space))
            read = await client.read_resource(head_uri(space))
            assert json.loads(getattr(read.contents[0], "text", ""))["message"] == "The default line again"
        # The stream closed: the server still serves, and the API never saw it go wrong.
        assert (await client.list_resources()).resources


async def test_the_oldest_revision_subscribes_line_by_line(server: LiveServer, api: Api) -> None:
    space = await api.space()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "smriti",
        "mcp",
        env={**_stdio_env(server.url), "PATH": os.environ["PATH"]},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=2**22,
    )
    host = Host(process)
    try:
        await host.write(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2024-11-05",
                        "capabilities": {},
                        "clientInfo": {"name": "old-host", "version": "0"},
                    },
                }
            )
        )
        initialized = await host.read()
        assert initialized["result"]["protocolVersion"] == "2024-11-05"
        assert initialized["result"]["capabilities"]["resources"]["subscribe"] is True
        await host.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        uri = head_uri(space)
        await host.write(
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe", "params": {"uri": uri}})
        )
        assert await host.read() == {"jsonrpc": "2.0", "id": 1, "result": {}}
        await api.commit(space, "Moved")
        assert await host.read() == {
            "jsonrpc": "2.0",
            "method": "notifications/resources/updated",
            "params": {"uri": uri},
        }
        # stdin closed: the server stops its stream and exits at once, cleanly.
        assert process.stdin is not None
        process.stdin.close()
        started = time.monotonic()
        assert await asyncio.wait_for(process.wait(), 10) == 0
        assert time.monotonic() - started < 5
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def test_a_move_while_the_smriti_server_is_away_is_told_when_it_is_back(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = _env(database_url)
    with live_server(env, tmp_path, port=port) as first:
        async with Api(first.url) as api:
            space = await api.space()
            await api.commit(space, "Before")
        async with legacy_client(first.url) as (client, told), Api(first.url) as api:
            await subscribe(client, head_uri(space))
            await api.commit(space, "While up")
            assert await told.next() == head_uri(space)
            first.stop()
            # The MCP server keeps serving while the API is away; what it cannot reach is an error.
            with pytest.raises(MCPError, match="unreachable"):
                await client.read_resource(head_uri(space))
            # Written through another server process while none answers at the MCP server's address.
            with live_server(env, tmp_path) as elsewhere:
                async with Api(elsewhere.url) as writer:
                    await writer.commit(space, "While the MCP server's API was away")
            with live_server(env, tmp_path, port=port):
                assert await told.next(within=30) == head_uri(space)
                read = await client.read_resource(head_uri(space))
                assert json.loads(getattr(read.contents[0], "text", ""))["message"] == (
                    "While the MCP server's API was away"
                )
                await told.nothing()


def following(heads: HeadWatch) -> bool:
    """Whether its stream runs, read afresh each time (mypy would take an asserted property as fixed)."""
    return heads.following


async def test_one_stream_follows_every_watched_head_and_stops_with_the_last_subscription(
    server: LiveServer, api: Api
) -> None:
    space = await api.space()
    space_id = UUID(space["id"])
    told: asyncio.Queue[str] = asyncio.Queue()

    async def notify(uri: str) -> None:
        told.put_nowait(uri)

    async with SmritiClient(server.url, token=TOKEN) as client, anyio.create_task_group() as tasks:
        heads = HeadWatch(client, tasks, notify)
        assert not following(heads)
        for uri in ("by id", "by name", "by id"):
            heads.add(uri, space_id, None)
        assert following(heads)
        await api.commit(space, "First")
        assert {await asyncio.wait_for(told.get(), TOLD_WITHIN_S) for _ in range(2)} == {"by id", "by name"}

        heads.remove("by id", space_id)  # "by id" was subscribed twice: one is left
        await api.commit(space, "Second")
        assert {await asyncio.wait_for(told.get(), TOLD_WITHIN_S) for _ in range(2)} == {"by id", "by name"}

        heads.remove("by id", space_id)
        heads.remove("by name", space_id)
        heads.remove("by name", space_id)  # once too often: nothing
        assert not following(heads)
        await api.commit(space, "Third")
        await asyncio.sleep(QUIET_FOR_S)
        assert told.empty()
        tasks.cancel_scope.cancel()


async def test_a_listen_stream_naming_too_many_heads_is_refused(server: LiveServer, api: Api) -> None:
    space = await api.space()
    uris = [f"smriti://spaces/{quote(space['name'], safe='')}/head?{n}" for n in range(MAX_LISTENED_URIS + 1)]
    async with modern_client(server.url) as client:
        with pytest.raises(MCPError, match="resourceSubscriptions names 101 resources") as refused:
            async with client.listen(resource_subscriptions=uris):
                pass
        assert refused.value.error.code == -32602
