"""`smriti mcp` over stdio, line by line as a host writes them: what it answers to a line it
cannot read (a real subprocess; no API is needed for `tools/list`)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.support.live_server import free_port, tree_env

pytestmark = pytest.mark.slow

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


class Host:
    """A host's side of the pipe: it writes lines and reads the server's, one message a line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def write(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout=30)
        assert line, "the server closed its output"
        message: dict[str, Any] = json.loads(line)
        return message


@asynccontextmanager
async def stdio_host() -> AsyncIterator[Host]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "smriti",
        "mcp",
        env={**tree_env(), "PATH": os.environ["PATH"], "SMRITI_URL": f"http://127.0.0.1:{free_port()}"},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=2**22,  # a line is a whole message: the tool list is ~100 KB
    )
    host = Host(process)
    try:
        await host.write(json.dumps(INITIALIZE))
        assert (await host.read())["id"] == 0
        await host.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        yield host
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("garbage", -32700),
        ('{"jsonrpc": "2.0", "id": 3, "method": "tools/list"', -32700),  # cut short
        # JSON-RPC allows the escape, but it is no text (a lone surrogate): the SDK's reader refuses it.
        ('{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "x\\ud800"}}', -32700),
        ("[1, 2]", -32600),
        ('{"jsonrpc": "2.0", "id": 5}', -32600),
        ('{"jsonrpc": "1.0", "id": 6, "method": "tools/list"}', -32600),
        ('"tools/list"', -32600),
    ],
)
async def test_a_line_that_is_not_a_message_is_answered_with_an_error_and_the_next_is_served(
    line: str, code: int
) -> None:
    async with stdio_host() as host:
        for attempt in range(2):
            await host.write(line)
            await host.write(json.dumps({"jsonrpc": "2.0", "id": 10 + attempt, "method": "tools/list"}))
            error = await host.read()
            assert error["id"] is None, error
            assert error["error"]["code"] == code, error
            assert ("Parse error" if code == -32700 else "Invalid Request") in error["error"]["message"]
            served = await host.read()
            assert served["id"] == 10 + attempt
            assert any(tool["name"] == "get_head" for tool in served["result"]["tools"])


async def test_a_blank_line_is_no_message_and_gets_no_answer() -> None:
    async with stdio_host() as host:
        await host.write("")
        await host.write("   ")
        await host.write(json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}))
        assert (await host.read())["id"] == 7
