"""Webhooks as the person manages them: made (checked whole before anything is written), listed,
deleted, and their latest delivery attempts."""

from __future__ import annotations

import asyncio
from typing import Final
from urllib.parse import urlsplit
from uuid import UUID

import asyncpg

from smriti.core.errors import BadRequest, NotFound
from smriti.core.ids import uuid7
from smriti.db.pool import Pool
from smriti.events.record import EVENT_TYPES
from smriti.events.sequencer import number_events
from smriti.webhooks.addresses import Resolver, UnsafeAddress, checked_address
from smriti.webhooks.schemas import Deliveries, Delivery, NewWebhook, Webhook, WebhookCreate
from smriti.webhooks.signing import new_secret, shown_secret

_COLUMNS: Final = "id, url, repo_id, types, active, disabled_reason, created_at"
# A new webhook starts after the newest event: it is sent what happens from now on.
_INSERT: Final = f"""
INSERT INTO webhooks (id, url, repo_id, types, secret, delivered_through)
VALUES ($1, $2, $3, $4, $5, greatest(
    (SELECT max(id) FROM events WHERE id IS NOT NULL), (SELECT through FROM events_pruned), 0
))
RETURNING {_COLUMNS}
"""
_LIST: Final = (
    f"SELECT {_COLUMNS}, count(*) OVER () AS total FROM webhooks ORDER BY created_at DESC, id LIMIT $1 OFFSET $2"
)
_COUNT: Final = "SELECT count(*) FROM webhooks"
_DELETE: Final = "DELETE FROM webhooks WHERE id = $1 RETURNING id"
_SPACE_EXISTS: Final = "SELECT EXISTS (SELECT 1 FROM repos WHERE id = $1)"
KEPT_DELIVERIES: Final = 100
RESOLVE_TIMEOUT_S: Final = 10.0
_DELIVERIES: Final = f"""
SELECT w.id AS webhook, d.event_id, d.attempt, d.status_code, d.error, d.at
FROM webhooks w LEFT JOIN LATERAL (
    SELECT * FROM webhook_deliveries WHERE webhook_id = w.id ORDER BY id DESC LIMIT {KEPT_DELIVERIES}
) d ON true
WHERE w.id = $1
ORDER BY d.id DESC
"""


def _webhook(row: asyncpg.Record) -> Webhook:
    return Webhook(
        id=row["id"],
        url=row["url"],
        repo_id=row["repo_id"],
        types=None if row["types"] is None else list(row["types"]),
        active=row["active"],
        disabled_reason=row["disabled_reason"],
        created_at=row["created_at"],
    )


def not_found(webhook_id: UUID) -> NotFound:
    return NotFound(f"No webhook with id {webhook_id}.", field="webhook_id", source="path")


def url_port(scheme: str, port: int | None) -> int:
    return port if port is not None else (443 if scheme == "https" else 80)


async def check_url(
    url: str, *, allow_private: bool, resolve: Resolver, resolve_timeout_s: float = RESOLVE_TIMEOUT_S
) -> None:
    """400 naming `url` unless it is an http(s) URL without credentials whose host resolves only
    to addresses a webhook may reach (`addresses.py`)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise BadRequest("url must be an http or https URL.", field="url")
    if "@" in parts.netloc:
        raise BadRequest("url must not carry a user name or password; the secret signs each delivery.", field="url")
    try:
        port = parts.port
    except ValueError:
        raise BadRequest("url has a port that is not a number from 0 to 65535.", field="url") from None
    if not parts.hostname:
        raise BadRequest("url has no host.", field="url")
    try:
        # The system resolver runs in a thread and may wait on a slow DNS server: bounded here.
        async with asyncio.timeout(resolve_timeout_s):
            await checked_address(
                parts.hostname, url_port(parts.scheme, port), allow_private=allow_private, resolve=resolve
            )
    except UnsafeAddress as unsafe:
        raise BadRequest(f"url cannot be used: {unsafe}", field="url") from None
    except TimeoutError:
        raise BadRequest(
            f"url cannot be used: its host {parts.hostname} did not resolve within {resolve_timeout_s:g} s.",
            field="url",
        ) from None


class WebhookStore:
    def __init__(
        self, pool: Pool, *, allow_private: bool, resolve: Resolver, resolve_timeout_s: float = RESOLVE_TIMEOUT_S
    ) -> None:
        self._pool = pool
        self._allow_private = allow_private
        self._resolve = resolve
        self._resolve_timeout_s = resolve_timeout_s

    async def create(self, data: WebhookCreate) -> NewWebhook:
        types = None if data.types is None else list(dict.fromkeys(data.types))
        for index, kind in enumerate(data.types or ()):
            if kind not in EVENT_TYPES:
                raise BadRequest(
                    f"types[{index}]: {kind[:100]!r} is not an event type ({', '.join(EVENT_TYPES)}).",
                    field=f"types[{index}]",
                )
        await check_url(
            data.url,
            allow_private=self._allow_private,
            resolve=self._resolve,
            resolve_timeout_s=self._resolve_timeout_s,
        )
        if data.repo_id is not None and not await self._pool.fetchval(_SPACE_EXISTS, data.repo_id):
            raise NotFound(f"No Space with id {data.repo_id}.", field="repo_id")
        # Events already committed get their ids first, so "from now on" excludes them.
        await number_events(self._pool)
        secret = new_secret()
        row = await self._pool.fetchrow(_INSERT, uuid7(), data.url, data.repo_id, types, secret)
        assert row is not None
        made = _webhook(row)
        return NewWebhook(
            id=made.id,
            url=made.url,
            repo_id=made.repo_id,
            types=made.types,
            secret=shown_secret(secret),
            active=made.active,
        )

    async def page(self, *, limit: int, offset: int) -> tuple[list[Webhook], int]:
        rows = await self._pool.fetch(_LIST, limit, offset)
        total = rows[0]["total"] if rows else await self._pool.fetchval(_COUNT)
        return [_webhook(row) for row in rows], total

    async def delete(self, webhook_id: UUID) -> None:
        if await self._pool.fetchval(_DELETE, webhook_id) is None:
            raise not_found(webhook_id)

    async def deliveries(self, webhook_id: UUID) -> Deliveries:
        rows = await self._pool.fetch(_DELIVERIES, webhook_id)
        if not rows:
            raise not_found(webhook_id)
        return Deliveries(
            items=[
                Delivery(
                    event_id=row["event_id"],
                    attempt=row["attempt"],
                    status_code=row["status_code"],
                    error=row["error"],
                    at=row["at"],
                )
                for row in rows
                if row["event_id"] is not None
            ]
        )
