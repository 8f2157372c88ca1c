"""Two rules every request follows before any handler runs (SYSTEM.md §11).

- **Host.** With `SMRITI_ALLOWED_HOSTS`, only those host names are answered (matched without
  the port; `*.example.com` matches its subdomains, `*` anything). Without it, a request that
  reached the server on a loopback address must name a loopback host (`localhost`, a name under
  `.localhost`, `127.x.y.z`, `[::1]`): a web page whose own name was re-pointed at 127.0.0.1 (DNS
  rebinding) then reaches nothing. A server reached on another address answers any name.
- **Body type.** A POST, PUT or PATCH must say its body is JSON (`application/json` or a
  `+json` type). The media types a browser may send across sites without asking first
  (`text/plain`, forms) are refused with 415, so no web page the user opens can make a write.
  `/mcp` checks its own (the MCP SDK answers in JSON-RPC's shape).

Refusals use the API's error shape.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable, Iterable
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope

from smriti.errors import ErrorResponse, FieldError

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
_OWN_CONTENT_RULES = "/mcp"


def host_name(header: str) -> str:
    """The Host header's name, lower-cased, without port or trailing dot (`[::1]` keeps its brackets)."""
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end != -1 else value
    return value.rsplit(":", 1)[0].rstrip(".") if ":" in value else value.rstrip(".")


@functools.lru_cache(maxsize=256)
def is_loopback_name(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@functools.lru_cache(maxsize=256)
def _is_loopback_address(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def host_matcher(allowed: Iterable[str]) -> Callable[[str], bool]:
    """Whether a host name (as `host_name` gives it) is one of `allowed`."""
    names = {host_name(entry) for entry in allowed if entry.strip()}
    if "*" in names:
        return lambda name: True
    exact = {name for name in names if not name.startswith("*.")}
    suffixes = tuple(name[1:] for name in names if name.startswith("*."))  # ".example.com"
    return lambda name: name in exact or (bool(suffixes) and name.endswith(suffixes))


def _refusal(status: int, detail: str, field: str) -> list[dict[str, Any]]:
    body = msgspec.json.encode(
        ErrorResponse(status_code=status, detail=detail, errors=[FieldError(field, detail, "header")])
    )
    return [
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        },
        {"type": "http.response.body", "body": body},
    ]


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope["headers"]:
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


def is_json_media_type(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def request_rules(allowed_hosts: Iterable[str]) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware factory for Litestar's `middleware=[…]`: the Host rule, then the body's type."""
    configured = [entry for entry in allowed_hosts if entry.strip()]
    allowed = host_matcher(configured) if configured else None

    def wrap(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Any) -> None:
            kind = scope["type"]
            refusal = None
            if kind in (ScopeType.HTTP, ScopeType.WEBSOCKET):
                refusal = _host_refusal(scope, allowed) or _media_type_refusal(scope)
            if refusal is None:
                await app(scope, receive, send)
            elif kind == ScopeType.WEBSOCKET:
                await send({"type": "websocket.close", "code": 1008})
            else:
                for message in refusal:
                    await send(message)

        return middleware

    return wrap


def _host_refusal(scope: Scope, allowed: Callable[[str], bool] | None) -> list[dict[str, Any]] | None:
    if allowed is None:
        server = scope.get("server")
        if server is None or not _is_loopback_address(str(server[0])):
            return None  # reached on another address: any name
    header = _header(scope, b"host")
    if header is None:  # HTTP/1.0 without Host: no browser sends that
        return None
    if allowed is None:
        if _names_loopback(header):
            return None
        name = host_name(header)
        return _refusal(
            400,
            f"Host {name!r} is not a loopback name, and this server listens on loopback: it answers "
            "localhost, 127.0.0.1 and [::1] only (this stops DNS rebinding). Set SMRITI_ALLOWED_HOSTS to "
            "allow other names.",
            "Host",
        )
    name = host_name(header)
    if allowed(name):
        return None
    return _refusal(400, f"Host {name!r} is not one of SMRITI_ALLOWED_HOSTS.", "Host")


@functools.lru_cache(maxsize=256)
def _names_loopback(header: str) -> bool:
    """Whether a Host header (as sent, port and all) names a loopback host; one lookup per request."""
    return is_loopback_name(host_name(header))


def _media_type_refusal(scope: Scope) -> list[dict[str, Any]] | None:
    if scope["type"] != ScopeType.HTTP or scope["method"] not in _WITH_BODY:
        return None
    path = scope["path"]
    if path == _OWN_CONTENT_RULES or path.startswith(_OWN_CONTENT_RULES + "/"):
        return None
    content_type = _header(scope, b"content-type")
    if content_type is not None and is_json_media_type(content_type):
        return None
    got = f"got {content_type!r}" if content_type else "none was given"
    return _refusal(
        415,
        f"A {scope['method']} body must be JSON: send Content-Type: application/json ({got}).",
        "Content-Type",
    )
