"""`smriti mcp`: the MCP server on stdin/stdout, for desktop agent hosts."""

from __future__ import annotations

import contextvars
import os
from types import TracebackType
from typing import Any

import anyio
import mcp_types as types
import pydantic
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from smriti.client.api import DEFAULT_TIMEOUT, SmritiClient
from smriti.client.hints import MCP_HINTS
from smriti.client.mcp.server import build_server
from smriti.client.mcp.subscriptions import HeadSubscriptions


def run_stdio(url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Serve MCP on stdin/stdout until the host closes the stream (`smriti mcp`)."""
    client = SmritiClient(url, token=token, timeout=timeout, hints=MCP_HINTS)  # a bad URL fails here, before serving

    async def serve() -> None:
        async with client, HeadSubscriptions.serving(client) as subscriptions:
            author = os.environ.get("SMRITI_AGENT_NAME", "").strip() or None
            server = build_server(lambda: client, configured_author=author, subscriptions=subscriptions)
            async with stdio_server() as (read_stream, write_stream):
                lines = AnsweringUnreadable(read_stream, write_stream)
                await server.run(lines, write_stream, server.create_initialization_options())

    anyio.run(serve)


def unreadable_line_error(exc: Exception) -> types.JSONRPCError | None:
    """The JSON-RPC answer to a line the transport could not read: -32700 (Parse error) when it
    is not JSON, -32600 (Invalid Request) when it is JSON but no JSON-RPC message. Its id cannot
    be trusted from such a line, so it is null, as JSON-RPC 2.0 says (and the MCP SDK's HTTP
    transport answers the same two cases alike). None for a blank line: no message at all, only
    one newline too many, which some hosts send."""
    not_json = (
        [e for e in exc.errors() if e["type"] == "json_invalid"] if isinstance(exc, pydantic.ValidationError) else []
    )
    if not_json:
        if isinstance(not_json[0]["input"], str) and not not_json[0]["input"].strip():
            return None
        reason = str(not_json[0]["msg"]).removeprefix("Invalid JSON: ")
        error = types.ErrorData(code=types.PARSE_ERROR, message=f"Parse error: the line is not JSON ({reason}).")
    else:
        error = types.ErrorData(
            code=types.INVALID_REQUEST,
            message="Invalid Request: the line is JSON, but not a JSON-RPC 2.0 request, notification or response.",
        )
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)


class AnsweringUnreadable:
    """The read side of the stdio transport, answering every line it could not read.

    The SDK's stdio transport passes such a line on as an exception, which the server only logs at
    debug level: the host got no answer at all, and one waiting on a request it sent garbled waited
    for ever. Here each one is answered with a JSON-RPC error (`unreadable_line_error`) on the
    write side, and the next line is read as usual.
    """

    def __init__(self, inner: Any, answers: Any) -> None:
        self._inner = inner
        self._answers = answers

    @property
    def last_context(self) -> contextvars.Context | None:
        """The sender's context of the last message (the server restores it around each handler)."""
        context: contextvars.Context | None = getattr(self._inner, "last_context", None)
        return context

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            answer = unreadable_line_error(item)
            if answer is not None:
                await self._answers.send(SessionMessage(answer))

    def __aiter__(self) -> AnsweringUnreadable:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> AnsweringUnreadable:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
