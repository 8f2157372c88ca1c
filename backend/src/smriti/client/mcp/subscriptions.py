"""Subscriptions to a Space's HEAD resource, in the negotiated revision's way (SYSTEM.md §14).

- Handshake revisions (2024-11-05 to 2025-11-25): `resources/subscribe {uri}` and
  `resources/unsubscribe {uri}`; each move of that HEAD is a `notifications/resources/updated
  {uri}` on the connection.
- 2026-07-28: `subscriptions/listen` with `notifications.resourceSubscriptions: [uri, …]`; the
  request's response is the stream (the SDK's `ListenHandler`: an acknowledgment first, then each
  `notifications/resources/updated`, stamped with the subscription's id) for as long as the
  client keeps the request open.

A URI is checked when it is subscribed to, as `resources/read` checks it (the same MCP error for
one that names no Space); a Checkpoint's URI is refused (`space_of_head`). The HEADs themselves are
followed by `HeadWatch`. Only over stdio: the HTTP endpoint is stateless, with no connection to
tell later.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

import anyio
import mcp_types as types
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError

from smriti.client.mcp.heads import HeadWatch
from smriti.client.mcp.resources import space_of_head

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.session import ServerSession

    from smriti.client.api import SmritiClient

MAX_LISTENED_URIS: Final = 100
"""The most HEADs one `subscriptions/listen` names: each is a request to the API when it starts."""


class HeadSubscriptions:
    """The subscriptions of one MCP connection (stdio), and the `HeadWatch` they share."""

    def __init__(self, client: SmritiClient, tasks: anyio.abc.TaskGroup) -> None:
        self._client = client
        self._bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self._bus, max_subscriptions=16)
        self._subscribed: dict[str, tuple[UUID, ServerSession]] = {}
        """`resources/subscribe`'s: each URI, its Space and the session to tell."""
        self.heads = HeadWatch(client, tasks, self._notify)

    @classmethod
    @contextlib.asynccontextmanager
    async def serving(cls, client: SmritiClient) -> AsyncIterator[HeadSubscriptions]:
        """Subscriptions for as long as the block runs; leaving it (the host closed stdin) ends
        the event stream at once."""
        async with anyio.create_task_group() as tasks:
            subscriptions = cls(client, tasks)
            try:
                yield subscriptions
            finally:
                subscriptions._listen.close()
                tasks.cancel_scope.cancel()

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        uri = str(params.uri)
        space = await space_of_head(ctx, self._client, uri)
        if uri not in self._subscribed:  # subscribing twice is one subscription, as unsubscribing says
            self._subscribed[uri] = (space.id, ctx.session)
            self.heads.add(uri, space.id, space.head_commit_id)
        return types.EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        uri = str(params.uri)
        subscribed = self._subscribed.pop(uri, None)
        if subscribed is not None:
            self.heads.remove(uri, subscribed[0])
        return types.EmptyResult()

    async def listen(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        uris = list(dict.fromkeys(params.notifications.resource_subscriptions or ()))
        if len(uris) > MAX_LISTENED_URIS:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"notifications.resourceSubscriptions names {len(uris):,} resources; at most "
                f"{MAX_LISTENED_URIS} in one subscriptions/listen.",
            )
        spaces = [await space_of_head(ctx, self._client, uri) for uri in uris]
        for uri, space in zip(uris, spaces, strict=True):
            self.heads.add(uri, space.id, space.head_commit_id)
        try:
            return await self._listen(ctx, params)
        finally:
            for uri, space in zip(uris, spaces, strict=True):
                self.heads.remove(uri, space.id)

    async def _notify(self, uri: str) -> None:
        await self._bus.publish(ResourceUpdated(uri))  # to the listen streams that asked for `uri`
        subscribed = self._subscribed.get(uri)
        if subscribed is not None:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                await subscribed[1].send_resource_updated(uri)
