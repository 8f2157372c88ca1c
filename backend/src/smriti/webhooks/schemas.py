"""The shapes of webhooks on the wire (SYSTEM.md §14)."""

from __future__ import annotations

import datetime
from typing import Annotated
from uuid import UUID

import msgspec

from smriti.core.schemas import Request

MAX_URL_CHARS = 2000

WebhookUrl = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_URL_CHARS, pattern="^[^\\x00]*$")]
EventTypeName = Annotated[str, msgspec.Meta(max_length=100, pattern="^[^\\x00]*$")]


class WebhookCreate(Request):
    url: WebhookUrl
    """http or https, with no user name or password in it."""
    repo_id: UUID | None = None
    """Only this Space's events; null: every Space's."""
    types: Annotated[list[EventTypeName], msgspec.Meta(min_length=1, max_length=50)] | None = None
    """Only these event types; null: every type."""


class Webhook(msgspec.Struct):
    """A webhook as listed: never its secret."""

    id: UUID
    url: str
    repo_id: UUID | None
    types: list[str] | None
    active: bool
    disabled_reason: str | None
    created_at: datetime.datetime


class NewWebhook(msgspec.Struct):
    """The answer to making a webhook: the only time `secret` is shown."""

    id: UUID
    url: str
    repo_id: UUID | None
    types: list[str] | None
    secret: str
    active: bool


class Delivery(msgspec.Struct):
    """One attempt to deliver one event: `status_code` the receiver's answer (null when there was
    none: `error` says why: a timeout, a refused connection, a private address)."""

    event_id: int
    attempt: int
    status_code: int | None
    error: str | None
    at: datetime.datetime


class Deliveries(msgspec.Struct):
    items: list[Delivery]
