"""The MCP resources: each Space's HEAD and any Checkpoint, by URI, and the MCP error for a URI
that names nothing (read in `server`, subscribed to in `subscriptions`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from smriti.client.errors import ClientError, MissingError, Unreachable
from smriti.client.mcp.base import MAX_NAME, MAX_REF, error_label, shown

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from smriti.checkpoints.schemas import Checkpoint
    from smriti.client.api import SmritiClient
    from smriti.spaces.schemas import Space

HEAD_URI = "smriti://spaces/{space}/head"
CHECKPOINT_URI = "smriti://checkpoints/{ref}"

RESOURCE_NOT_FOUND_LEGACY = -32002
""""Resource not found" in every handshake revision (2024-11-05 to 2025-11-25); 2026-07-28 retired
the code and answers -32602 (invalid params) instead."""


def head_uri(space: Space) -> str:
    return HEAD_URI.format(space=space.id)


def not_found_code(ctx: ServerRequestContext[Any, Any]) -> int:
    try:
        version = str(ctx.session.protocol_version)
    except (AttributeError, RuntimeError):
        version = ""
    return types.INVALID_PARAMS if version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND_LEGACY


def resource_error(ctx: ServerRequestContext[Any, Any], exc: ClientError) -> MCPError:
    """The MCP error for a resource the API could not give: not found in the negotiated revision's
    code, an unreachable server an internal error, anything else invalid params."""
    code = types.INVALID_PARAMS
    if isinstance(exc, Unreachable):
        code = types.INTERNAL_ERROR
    elif isinstance(exc, MissingError):
        code = not_found_code(ctx)
    return MCPError(code=code, message=f"{error_label(exc)}: {exc.one_line()}")


def resource_named(ctx: ServerRequestContext[Any, Any], uri: str) -> tuple[str, str]:
    """`named_by_uri`, or the MCP error for an unknown resource or an over-long {ref} or {space}."""
    named = named_by_uri(uri)
    if named is None:
        raise MCPError(
            code=not_found_code(ctx),
            message=f"Unknown resource {shown(uri)}; expected {HEAD_URI} or {CHECKPOINT_URI}.",
        )
    kind, value = named
    variable, longest = ("{ref}", MAX_REF) if kind == "checkpoint" else ("{space}", MAX_NAME)
    if len(value) > longest:
        raise MCPError(
            code=types.INVALID_PARAMS,
            message=f"Invalid resource {shown(uri)}: {variable} is {len(value):,} characters long; it is at most "
            f"{longest}.",
        )
    return named


async def read_named(client: SmritiClient, kind: str, ref: str) -> Checkpoint:
    if kind == "checkpoint":
        return await client.get_checkpoint(ref)
    return await client.head((await client.resolve_space(ref)).id)


async def space_of_head(ctx: ServerRequestContext[Any, Any], client: SmritiClient, uri: str) -> Space:
    """The Space whose HEAD `uri` names, for a subscription; the MCP error `resources/read` gives for
    a URI that names no Space. A Checkpoint's URI is refused: a Checkpoint never changes, so a
    subscription to it would never be told anything. A Space with no Checkpoint yet is taken: its
    first one moves its HEAD."""
    kind, ref = resource_named(ctx, uri)
    if kind == "checkpoint":
        raise MCPError(
            code=types.INVALID_PARAMS,
            message=f"Cannot subscribe to {shown(uri)}: a Checkpoint never changes. Subscribe to a Space's HEAD, "
            f"{HEAD_URI}, to hear when it moves.",
        )
    try:
        return await client.resolve_space(ref)
    except ClientError as exc:
        raise resource_error(ctx, exc) from None


def named_by_uri(uri: str) -> tuple[str, str] | None:
    """("head", the Space's id or name) or ("checkpoint", its ref), from a resource URI."""
    parts = urlsplit(uri)
    segments = parts.path.strip("/").split("/")
    if parts.scheme != "smriti" or not segments[0]:
        return None
    if parts.netloc == "spaces" and len(segments) == 2 and segments[1] == "head":
        return "head", unquote(segments[0])
    if parts.netloc == "checkpoints" and len(segments) == 1:
        return "checkpoint", unquote(segments[0])
    return None
