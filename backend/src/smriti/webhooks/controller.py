"""Webhooks' handlers: the person's only."""

from __future__ import annotations

from uuid import UUID

from litestar import Controller, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged
from smriti.core.routes import WRITES, access
from smriti.core.schemas import Page
from smriti.webhooks.schemas import Deliveries, NewWebhook, Webhook, WebhookCreate
from smriti.webhooks.store import WebhookStore

_MANAGES = "manages webhooks"


class WebhookController(Controller):
    """Webhooks (SYSTEM.md §14): only the person makes, lists and deletes them."""

    path = "/webhooks"
    tags = ["Webhooks"]

    @post(
        "/",
        operation_id="createWebhook",
        summary="Send every matching event to a URL",
        description=(
            "`repo_id`: only that Space's events (null: every Space's); `types`: only those event types (null: "
            "all). Each event from now on is POSTed as JSON, signed as Standard Webhooks says, at least once and "
            "in order. `url` is http(s), without credentials, and must not resolve to a loopback, private, "
            "link-local or reserved address (unless the server allows it). `secret` is in this answer only."
        ),
        responses=error_responses(403, 404),
        opt=access(WRITES),
    )
    async def create_webhook(
        self, data: JSONBody[WebhookCreate], webhooks: NamedDependency[WebhookStore], caller: NamedDependency[Caller]
    ) -> Response[NewWebhook]:
        caller.require_person(_MANAGES)
        made = await webhooks.create(data)
        return Response(made, headers={"Location": f"/v5/webhooks/{made.id}"})

    @get(
        "/",
        operation_id="listWebhooks",
        summary="The webhooks, newest first (never their secrets)",
        description=(
            "`active` false: disabled, and `disabled_reason` says why (retries ran out, or the receiver answered 410)."
        ),
        responses=error_responses(403),
        response_headers=[PAGE_LINKS],
    )
    async def list_webhooks(
        self,
        webhooks: NamedDependency[WebhookStore],
        caller: NamedDependency[Caller],
        page: NamedDependency[PageParams],
        scope: Scope,
    ) -> Response[Page[Webhook]]:
        caller.require_person(_MANAGES)
        items, total = await webhooks.page(limit=page.limit, offset=page.offset)
        return paged(Page(items=items, total=total, limit=page.limit, offset=page.offset), scope)

    @delete(
        "/{webhook_id:str}",
        operation_id="deleteWebhook",
        summary="Delete a webhook",
        description="Nothing more is sent to it (an attempt already under way may still arrive).",
        responses=error_responses(403, 404),
        opt=access(WRITES),
    )
    async def delete_webhook(
        self, webhook_id: FromPath[UUID], webhooks: NamedDependency[WebhookStore], caller: NamedDependency[Caller]
    ) -> None:
        caller.require_person(_MANAGES)
        await webhooks.delete(webhook_id)

    @get(
        "/{webhook_id:str}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="A webhook's latest 100 delivery attempts, newest first",
        responses=error_responses(403, 404),
    )
    async def list_deliveries(
        self, webhook_id: FromPath[UUID], webhooks: NamedDependency[WebhookStore], caller: NamedDependency[Caller]
    ) -> Deliveries:
        caller.require_person(_MANAGES)
        return await webhooks.deliveries(webhook_id)
