"""How the typed client reaches the server: one httpx client, the API's answers decoded into
msgspec Structs, its errors into the typed exceptions of `smriti.client.errors` (carrying the
server's `detail`), and failures to reach it as `Unreachable` saying where and why.

`smriti.client.api.SmritiClient` adds one method per operation on top of this.
"""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import IO, Any, Self, TypeVar, overload

import httpx
import msgspec

from smriti import __version__
from smriti.client.errors import InvalidInput, ServerError, Unreachable, error_for_status
from smriti.client.hints import CLI_HINTS, Hints
from smriti.client.paths import check_base_url, display_url
from smriti.core.errors import NO_LINE

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT = 120.0
"""Seconds for a whole request. Generous because a review may wait on a model provider."""
_UPLOAD_CHUNK = 256 * 1024


@contextmanager
def _buildable() -> Iterator[None]:
    """A request that cannot be built from what the caller gave, as `InvalidInput`: nothing was
    sent. httpx refuses an address over 64 KB (`InvalidURL`), and no text with a lone surrogate
    (`\\ud800`, which JSON may carry and Python keeps) can be encoded as UTF-8 for the address or
    the body; either reached the caller as an unexpected exception (MCP: "internal error")."""
    try:
        yield
    except httpx.InvalidURL as exc:
        raise InvalidInput(f"The request was not sent: its address is too long or malformed ({exc}).") from None
    except UnicodeEncodeError as exc:
        bad = ascii(exc.object[exc.start : exc.end]) if isinstance(exc.object, str) else "a lone surrogate"
        raise InvalidInput(
            f"The request was not sent: it holds text that is not valid Unicode ({bad}), which cannot be sent as UTF-8."
        ) from None


class _ErrorBody(msgspec.Struct):
    """The API's error shape (RFC 9457 problem details), decoded leniently: a proxy or an old
    server may send less. The HTTP status is the response's own."""

    detail: str = ""
    errors: list[dict[str, Any]] = []
    provider: str | None = None


class ApiTransport:
    """The HTTP side of `SmritiClient`: requests sent, answers decoded, errors typed.

    `token` is sent as `Authorization: Bearer <token>` and never appears in an error or `repr`;
    `auth`, in its place, decides each request's credential (the MCP endpoint's: its caller's).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        hints: Hints = CLI_HINTS,
        auth: httpx.Auth | None = None,
    ) -> None:
        self.base_url = check_base_url(base_url)
        # How to list the Spaces or lines, said where one is not found: the CLI's command or MCP's tool.
        self.hints = hints
        self.timeout = timeout
        headers = {"Accept": "application/json, application/problem+json", "User-Agent": f"smriti-agent/{__version__}"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            transport=transport,
            follow_redirects=False,
            auth=auth,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({display_url(self.base_url)!r})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _get(self, path: str, kind: type[T], *, params: Mapping[str, Any] | None = None) -> T:
        return await self._request("GET", path, kind, params=params)

    async def _send(self, method: str, path: str, body: msgspec.Struct, kind: type[T]) -> T:
        with _buildable():
            content = msgspec.json.encode(body)
        return await self._request(method, path, kind, content=content)

    @overload
    async def _request(
        self,
        method: str,
        path: str,
        kind: type[T],
        *,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
    ) -> T: ...

    @overload
    async def _request(
        self,
        method: str,
        path: str,
        kind: None,
        *,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
    ) -> None: ...

    async def _request(
        self,
        method: str,
        path: str,
        kind: type[T] | None,
        *,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
    ) -> T | None:
        headers = {"Content-Type": "application/json"} if content is not None else None
        with self._reaching():
            response = await self._http.request(method, path, params=params, content=content, headers=headers)
        return self._decoded(method, response, kind)

    def _decoded(self, method: str, response: httpx.Response, kind: type[T] | None) -> T | None:
        if response.status_code >= 400:
            raise self._error(response)
        if kind is None:  # 204 No Content: nothing to decode
            return None
        try:
            return msgspec.json.decode(response.content, type=kind)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ServerError(
                f"{method} {display_url(response.url)} answered {response.status_code} with something that is not "
                f"a Smriti response ({exc}). Is --url / SMRITI_URL pointing at a Smriti server?",
                status_code=response.status_code,
            ) from None

    @contextmanager
    def _reaching(self) -> Iterator[None]:
        """httpx's failures to reach the server, as `Unreachable` saying where and why (and a request
        that could not be built, as `InvalidInput`: `_buildable`)."""
        try:
            with _buildable():
                yield
        except httpx.TimeoutException:
            raise Unreachable(
                f"The Smriti server at {display_url(self.base_url)} did not answer within {self.timeout:g} s.",
                url=display_url(self.base_url),
            ) from None
        except httpx.TransportError as exc:
            reason = str(exc) or type(exc).__name__
            raise Unreachable(
                f"Cannot reach the Smriti server at {display_url(self.base_url)} ({reason}). "
                "Is it running? (The URL comes from --url or SMRITI_URL.)",
                url=display_url(self.base_url),
            ) from None

    def _error(self, response: httpx.Response) -> Exception:
        status = response.status_code
        try:
            body = msgspec.json.decode(response.content, type=_ErrorBody)
        except (msgspec.DecodeError, msgspec.ValidationError):
            body = _ErrorBody()
        detail = body.detail.strip() or (
            f"{response.request.method} {display_url(response.url)} answered HTTP {status} {response.reason_phrase}."
        )
        if status == 401:
            detail += " Set SMRITI_API_TOKEN (or --token) to the server's API token."
        elif status == 404 and detail.startswith(NO_LINE):
            detail += f" {self.hints.lines}"
        return error_for_status(status, detail, errors=body.errors, provider=body.provider)


async def chunks(source: IO[bytes]) -> AsyncIterator[bytes]:
    while chunk := source.read(_UPLOAD_CHUNK):
        yield chunk


def upload_headers(source: IO[bytes], content_type: str) -> dict[str, str]:
    """An upload's headers. A regular file's length is known, so it is sent as Content-Length
    (httpx then sends the body unchunked): a server refuses one past its limit at once, instead
    of after reading up to the limit. A pipe (stdin) goes chunked."""
    headers = {"Content-Type": content_type}
    try:
        status = os.fstat(source.fileno())
        if stat.S_ISREG(status.st_mode):
            headers["Content-Length"] = str(status.st_size - source.tell())
    except (OSError, ValueError):  # no file descriptor (io.UnsupportedOperation is both)
        pass
    return headers
