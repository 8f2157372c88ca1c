"""One attempt to deliver one event: resolve and check the receiver's address, POST the signed
body to exactly that address, and say how it went. Nothing here touches the database.

- The connection goes to the address `addresses.checked_address` approved (the URL's host
  swapped for it), with the URL's own host in `Host` and in TLS's SNI, so the certificate is
  checked against the name: a name that resolves elsewhere a moment later changes nothing.
- Redirects are not followed (a 3xx is a failed attempt): a redirect could lead anywhere,
  a private address included.
- No proxy from the environment (it would make the connection, unchecked), no keep-alive
  (a pooled connection to one address could carry another name's request), and at most
  `ANSWER_BYTES` of the answer is read, uncompressed: a receiver cannot make the server hold more.
- The whole attempt, resolution included, ends after `timeout_s`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

import httpx2

from smriti.webhooks.addresses import Resolver, UnsafeAddress, checked_address
from smriti.webhooks.signing import signed_headers
from smriti.webhooks.store import url_port

ANSWER_BYTES: Final = 4096
"""The most of a receiver's answer read: enough for the start of an error message."""
_SHOWN_CHARS: Final = 300


@dataclass(frozen=True, slots=True)
class Outcome:
    status_code: int | None
    error: str | None

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def gone(self) -> bool:
        """410: the receiver asks never to be sent anything again."""
        return self.status_code == 410


def http_client(timeout_s: float) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        follow_redirects=False,
        trust_env=False,
        timeout=httpx2.Timeout(timeout_s),
        limits=httpx2.Limits(max_keepalive_connections=0),
    )


@dataclass(frozen=True, slots=True)
class Sender:
    client: httpx2.AsyncClient
    allow_private: bool
    resolve: Resolver
    timeout_s: float

    async def send(self, url: str, secret: bytes, event_id: int, body: bytes) -> Outcome:
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._send(url, secret, event_id, body)
        except TimeoutError:
            return Outcome(None, f"no answer within {self.timeout_s:g} s")
        except UnsafeAddress as unsafe:
            return Outcome(None, f"not sent: {unsafe}")
        except httpx2.HTTPError as error:
            return Outcome(None, f"{type(error).__name__}: {error}"[:_SHOWN_CHARS])

    async def _send(self, url: str, secret: bytes, event_id: int, body: bytes) -> Outcome:
        parts = urlsplit(url)
        host = parts.hostname or ""
        address = await checked_address(
            host, url_port(parts.scheme, parts.port), allow_private=self.allow_private, resolve=self.resolve
        )
        target = httpx2.URL(url)
        headers = {
            "Host": target.netloc.decode("ascii"),
            "Content-Type": "application/json",
            "Accept-Encoding": "identity",
            "User-Agent": "Smriti-Webhooks",
            **signed_headers(secret, str(event_id), int(time.time()), body),
        }
        pinned = target.copy_with(host=str(address))
        extensions = {"sni_hostname": target.raw_host.decode("ascii")} if target.scheme == "https" else {}
        request = self.client.build_request("POST", pinned, content=body, headers=headers, extensions=extensions)
        response = await self.client.send(request, stream=True)
        try:
            answer = await _first_bytes(response)
        finally:
            await response.aclose()
        status = response.status_code
        if 200 <= status < 300:
            return Outcome(status, None)
        if 300 <= status < 400:
            location = response.headers.get("location", "")[:_SHOWN_CHARS]
            return Outcome(status, f"HTTP {status}: a redirect (to {location or 'nowhere'}), which is not followed")
        text = answer.decode("utf-8", "replace").strip()[:_SHOWN_CHARS]
        return Outcome(status, f"HTTP {status}" + (f": {text}" if text else ""))


async def _first_bytes(response: httpx2.Response) -> bytes:
    """Up to ANSWER_BYTES of the body as sent (never decompressed); the rest is never read."""
    kept = b""
    async for chunk in response.aiter_raw():
        kept += chunk[: ANSWER_BYTES - len(kept)]
        if len(kept) >= ANSWER_BYTES:
            break
    return kept
