"""Two rules every request follows before any handler runs (SYSTEM.md §11).

- **Host.** With `SMRITI_ALLOWED_HOSTS`, only those host names are answered (matched without
  the port; `*.example.com` matches its subdomains, `*` anything). Without it, only names no DNS
  lookup stands behind are answered: `localhost`, names under `.localhost`, and IP addresses
  (`127.0.0.1`, `192.168.1.10`, `[::1]`). DNS rebinding needs a domain name (a web page whose own
  name is re-pointed at this machine, or at its LAN address), so it then reaches nothing, whatever
  address the server listens on (a container's included).
- **Body type.** A POST, PUT or PATCH must say its body is JSON (`application/json` or a
  `+json` type). The media types a browser may send across sites without asking first
  (`text/plain`, forms) are refused with 415, so no web page the user opens can make a write.
  A Space bundle's import alone reads `application/x-ndjson`, which a browser does not send
  across sites unasked either. `/mcp` is left to the MCP SDK, whose transport security refuses
  such a body itself (400).

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

from smriti.core.errors import PROBLEM_JSON, FieldError, problem

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
_OWN_CONTENT_RULES = b"/mcp"
# A Space bundle is ndjson (SYSTEM.md §10); not a type a browser sends across sites unasked.
_NDJSON_PATHS = frozenset({b"/v5/repos/import"})
_NDJSON = "application/x-ndjson"


def host_name(header: str) -> str:
    """The Host header's name, lower-cased, without port or trailing dot (`[::1]` keeps its brackets;
    a bare IPv6 address, as one may write it in SMRITI_ALLOWED_HOSTS, gets them)."""
    value = header.strip().lower()
    if value.count(":") > 1 and not value.startswith("["):
        value = f"[{value}]"
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end != -1 else value
    return value.rsplit(":", 1)[0].rstrip(".") if ":" in value else value.rstrip(".")


def host_matcher(allowed: Iterable[str]) -> Callable[[str], bool]:
    """Whether a host name (as `host_name` gives it) is one of `allowed`."""
    names = {host_name(entry) for entry in allowed if entry.strip()}
    if "*" in names:
        return lambda name: True
    exact = {name for name in names if not name.startswith("*.")}
    suffixes = tuple(name[1:] for name in names if name.startswith("*."))  # ".example.com"
    return lambda name: name in exact or (bool(suffixes) and name.endswith(suffixes))


def _refusal(status: int, detail: str, field: str) -> list[dict[str, Any]]:
    body = msgspec.json.encode(problem(status, detail, errors=[FieldError(field, detail, "header")]))
    return [
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode())],
        },
        {"type": "http.response.body", "body": body},
    ]


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope["headers"]:
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


def _media(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def is_json_media_type(content_type: str) -> bool:
    media = _media(content_type)
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
    header = _header(scope, b"host")
    if header is None:  # HTTP/1.0 without Host: no browser sends that
        return None
    if allowed is None:
        if _names_no_domain(header):
            return None
        name = host_name(header)
        return _refusal(
            400,
            f"Host {name!r} is a domain name, and SMRITI_ALLOWED_HOSTS is not set: this server answers "
            "localhost and IP addresses only (a page whose domain was re-pointed at this machine, DNS "
            "rebinding, reaches nothing). Set SMRITI_ALLOWED_HOSTS to the names it is reached by.",
            "Host",
        )
    name = host_name(header)
    if allowed(name):
        return None
    return _refusal(400, f"Host {name!r} is not one of SMRITI_ALLOWED_HOSTS.", "Host")


@functools.lru_cache(maxsize=256)
def _names_no_domain(header: str) -> bool:
    """Whether a Host header (as sent, port and all) names localhost or an IP address: names no
    DNS lookup stands behind, so none a rebinding can re-point. One lookup per request."""
    name = host_name(header)
    return name == "localhost" or name.endswith(".localhost") or _is_ip_literal(name)


def _is_ip_literal(name: str) -> bool:
    if name.startswith("[") != name.endswith("]"):
        return False
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return name.startswith("[") or "." in name  # IPv6 must be bracketed in a Host header


def _media_type_refusal(scope: Scope) -> list[dict[str, Any]] | None:
    if scope["type"] != ScopeType.HTTP or scope["method"] not in _WITH_BODY:
        return None
    # The path as sent: Litestar has already cut a mounted app's prefix from scope["path"].
    path = scope.get("raw_path") or scope["path"].encode()
    if path == _OWN_CONTENT_RULES or path.startswith(_OWN_CONTENT_RULES + b"/"):
        return None
    content_type = _header(scope, b"content-type")
    if content_type is not None and is_json_media_type(content_type):
        return None
    if content_type is not None and path in _NDJSON_PATHS and _media(content_type) == _NDJSON:
        return None
    got = f"got {content_type!r}" if content_type else "none was given"
    return _refusal(
        415,
        f"A {scope['method']} body must be JSON: send Content-Type: application/json ({got}).",
        "Content-Type",
    )
