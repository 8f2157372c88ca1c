"""`smriti mcp`: the MCP server on stdin/stdout, for desktop agent hosts."""

from __future__ import annotations

import os

import anyio
from mcp.server.stdio import stdio_server

from smriti.client.api import DEFAULT_TIMEOUT, MCP_LIST_SPACES, SmritiClient
from smriti.client.mcp.server import build_server


def run_stdio(url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Serve MCP on stdin/stdout until the host closes the stream (`smriti mcp`)."""
    client = SmritiClient(
        url, token=token, timeout=timeout, list_spaces_hint=MCP_LIST_SPACES
    )  # a bad URL fails here, before serving

    async def serve() -> None:
        async with client:
            author = os.environ.get("SMRITI_AGENT_NAME", "").strip() or None
            server = build_server(lambda: client, default_author=author)
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)
