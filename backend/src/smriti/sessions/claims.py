"""One provider call per `request_id`, however many retries of it arrive at once.

A client that retries a send it believes lost (a timeout, a dropped connection, a double click)
sends the same `request_id` again, possibly while the first is still waiting for the provider.
The stored pair was always unique (a unique index), but each retry used to call the provider,
and the user paid for every call. Now:

- within a process, a send whose key is already in flight waits for that one (`InFlight`);
- across processes, the database arbitrates: a send claims its key in `send_claims` before it
  calls the provider (`SendClaims.claim`), and one that finds a live claim polls until the pair
  is stored (then replays it), the claim is given up (then claims it itself), or the claim
  expires because its process died (then takes it over).

The claim is given up in the statement that stores the pair, or right after a failure. A claim
expires after the longest a provider call can take (every attempt at its timeout, plus the
SDKs' backoff between attempts, plus a margin): `GuardedProvider` stops every call by then, so a
live call is never taken over.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar
from uuid import UUID

import asyncpg

from smriti.core.errors import Conflict, ProviderFailure, SmritiError
from smriti.db.pool import Pool
from smriti.providers.base import call_deadline_s

T = TypeVar("T")

_CLAIM_SQL = """
INSERT INTO send_claims (session_id, request_id, content_sha256, expires_at)
SELECT s.id, $2::text, $3::bytea, clock_timestamp() + make_interval(secs => $4::float8)
FROM sessions s
WHERE s.id = $1
  AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = $1 AND t.request_id = $2::text AND t.role = 'user')
ON CONFLICT (session_id, request_id) DO UPDATE
   SET content_sha256 = EXCLUDED.content_sha256, expires_at = EXCLUDED.expires_at
   WHERE send_claims.expires_at < clock_timestamp()
RETURNING true
"""

_STATUS_SQL = """
SELECT EXISTS (SELECT 1 FROM sessions WHERE id = $1) AS session_exists,
       EXISTS (SELECT 1 FROM turns WHERE session_id = $1 AND request_id = $2 AND role = 'user') AS stored,
       (SELECT content_sha256 FROM send_claims WHERE session_id = $1 AND request_id = $2) AS claimed_sha256
"""

_RELEASE_SQL = "DELETE FROM send_claims WHERE session_id = $1 AND request_id = $2 AND content_sha256 = $3"

_MARGIN_S = 10.0
_FIRST_POLL_S = 0.05
_LONGEST_POLL_S = 0.5


class ClaimNotReleased(SmritiError):
    status_code = 503


class Outcome(Enum):
    CLAIMED = "claimed"
    """This send holds the claim: it calls the provider."""
    STORED = "stored"
    """The pair is stored already: replay it."""
    GONE = "gone"
    """The Session no longer exists."""


def content_digest(content: str) -> bytes:
    return hashlib.sha256(content.encode()).digest()


def claim_ttl_s(timeout_s: float, max_retries: int) -> float:
    """How long a claim lives: longer than a provider call can take (`GuardedProvider` stops
    one at `call_deadline_s`), so a live call is never taken over."""
    return call_deadline_s(timeout_s, max_retries) + _MARGIN_S


@dataclass(slots=True)
class SendClaims:
    pool: Pool
    ttl_s: float
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)

    async def claim(self, session_id: UUID, request_id: str, content: str) -> Outcome:
        """Claim the key, or wait until its pair is stored or its claim can be taken. 409 when the
        key is claimed for a different message (as replaying it would be)."""
        digest = content_digest(content)
        deadline = time.monotonic() + self.ttl_s + _MARGIN_S
        pause = _FIRST_POLL_S
        while True:
            try:
                if await self.pool.fetchval(_CLAIM_SQL, session_id, request_id, digest, self.ttl_s):
                    return Outcome.CLAIMED
            except asyncpg.ForeignKeyViolationError:
                return Outcome.GONE  # the Session was deleted between the statement's look and its insert
            status = await self.pool.fetchrow(_STATUS_SQL, session_id, request_id)
            if status is None or not status["session_exists"]:
                return Outcome.GONE
            if status["stored"]:
                return Outcome.STORED
            claimed = status["claimed_sha256"]
            if claimed is not None and bytes(claimed) != digest:
                raise Conflict(
                    f"request_id {request_id!r} is in use for a different message in this Session.",
                    field="request_id",
                )
            if time.monotonic() > deadline:  # cannot happen while claims expire; a bound all the same
                raise ClaimNotReleased(
                    f"Another send with request_id {request_id!r} neither finished nor gave up in time; "
                    "nothing was sent for this one: retry.",
                    field="request_id",
                )
            # Claimed by a send in another process: wait for it (it stores, gives up, or expires).
            await self.sleep(pause)
            pause = min(pause * 2, _LONGEST_POLL_S)

    async def release(self, session_id: UUID, request_id: str, content: str) -> None:
        await self.pool.fetchval(_RELEASE_SQL, session_id, request_id, content_digest(content))


@dataclass(slots=True)
class InFlight:
    """Sends with a `request_id` in flight in this process, by (Session, key)."""

    _running: dict[tuple[UUID, str], tuple[str, asyncio.Future[None]]] = field(default_factory=dict)

    async def one_at_a_time(self, key: tuple[UUID, str], content: str, send: Callable[[], Awaitable[T]]) -> T:
        """Run `send` once no other send with this key and this message is in flight here.

        A send that waited gets the same provider failure as the one it waited for (it would
        have made the same call); any other outcome (a success, a refusal of that send's own
        request) lets it run `send` itself, which finds the stored pair and replays it, or gives
        its own answer. A send with another message under the key does not wait: the claim on
        the key answers it (409)."""
        while (running := self._running.get(key)) is not None and running[0] == content:
            other = running[1]
            await asyncio.wait([other])
            if not other.cancelled() and isinstance(error := other.exception(), ProviderFailure):
                raise error
        if running is not None:
            return await send()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._running[key] = (content, done)
        try:
            result = await send()
        except Exception as exc:
            done.set_exception(exc)
            done.exception()  # retrieved: no "never retrieved" warning when nobody waited
            raise
        else:
            done.set_result(None)
            return result
        finally:
            if not done.done():  # cancelled, or stopped by a BaseException: the others try for themselves
                done.cancel()
            del self._running[key]
