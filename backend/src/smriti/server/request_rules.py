"""Two rules every request follows before any handler runs (docs/api.md, "Conventions").

- **Host.** With `SMRITI_ALLOWED_HOSTS`, only those host names are answered (matched without
  the port; `*.example.com` matches its subdomains, `*` anything). Without it, only names no DNS
  lookup stands behind are answered. DNS rebinding needs a domain name (a web page whose own name
  is re-pointed at this machine, or at its LAN address), so it then reaches nothing, whatever
  address the server listens on (a container's included). Which names:
  - a request that reached the server on a loopback address (ASGI's `scope["server"]`): loopback
    names only, as docs/api.md, "Conventions" says: `localhost`, names under `.localhost`, `127.x.y.z` and
    `[::1]`. Another IP address, or no Host at all (HTTP/1.0), is refused: no browser sends either
    to a loopback socket, so only something that forges its request does;
  - on any other address: `localhost`, names under `.localhost` and IP addresses (`192.168.1.10`:
    the address a LAN client reached it by).
- **Body type.** A POST, PUT or PATCH must say its body is JSON (`application/json` or a
  `+json` type). The media types a browser may send across sites without asking first
  (`text/plain`, forms) are refused with 415, so no web page the user opens can make a write.
  A route that reads other types says which on its handler (`core.routes.body_types`), none of
  them a type a browser sends across sites unasked: a Space bundle's import reads
  `application/x-ndjson`; a conversation import a ZIP (`application/zip`, or
  `application/x-zip-compressed` as Windows names it) or a Claude Code session's JSONL as well.
  `/mcp` is left to the MCP SDK, whose transport security refuses such a body itself (400).

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
from smriti.core.routes import ANY_BODY, BODY_TYPES

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


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
    if allowed is None:
        server = scope.get("server")
        if server is not None and _is_loopback_address(str(server[0])):
            return _loopback_refusal(header)
        return _domain_refusal(header)
    if header is None:  # HTTP/1.0 without Host (an old load balancer's health check): no browser sends that
        return None
    name = host_name(header)
    return None if allowed(name) else _refusal(400, f"Host {name!r} is not one of SMRITI_ALLOWED_HOSTS.", "Host")


_UNSET_ADVICE = "Set SMRITI_ALLOWED_HOSTS to the names it is reached by."


def _loopback_refusal(header: str | None) -> list[dict[str, Any]] | None:
    if header is not None and _names_loopback(header):
        return None
    named = f"Host {host_name(header)!r} is not a loopback name" if header is not None else "No Host was sent"
    return _refusal(
        400,
        f"{named}, and this server was reached on a loopback address with SMRITI_ALLOWED_HOSTS unset: it "
        f"answers localhost, names under .localhost, 127.x.y.z and [::1] only. {_UNSET_ADVICE}",
        "Host",
    )


def _domain_refusal(header: str | None) -> list[dict[str, Any]] | None:
    if header is None or _names_no_domain(header):
        return None
    return _refusal(
        400,
        f"Host {host_name(header)!r} is a domain name, and SMRITI_ALLOWED_HOSTS is not set: this server answers "
        "localhost and IP addresses only (a page whose domain was re-pointed at this machine, DNS "
        f"rebinding, reaches nothing). {_UNSET_ADVICE}",
        "Host",
    )


@functools.lru_cache(maxsize=256)
def _names_no_domain(header: str) -> bool:
    """Whether a Host header (as sent, port and all) names localhost or an IP address: names no
    DNS lookup stands behind, so none a rebinding can re-point. One lookup per request."""
    name = host_name(header)
    return _is_localhost(name) or _ip_literal(name) is not None


@functools.lru_cache(maxsize=256)
def _names_loopback(header: str) -> bool:
    """Whether a Host header (as sent) names this machine's loopback; one lookup per request."""
    name = host_name(header)
    address = _ip_literal(name)
    return _is_localhost(name) or (address is not None and _is_loopback(address))


@functools.lru_cache(maxsize=16)
def _is_loopback_address(host: str) -> bool:
    """Whether the address a request reached the server on (ASGI's `server`) is a loopback one."""
    if host == "localhost":  # an in-process client (httpx's ASGI transport) reports its URL's host
        return True
    try:
        return _is_loopback(ipaddress.ip_address(host.split("%", 1)[0]))  # no IPv6 zone (`::1%lo`)
    except ValueError:
        return False


def _is_localhost(name: str) -> bool:
    return name == "localhost" or name.endswith(".localhost")


def _is_loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # Python 3.11 does not count `::ffff:127.0.0.1` (IPv4-mapped) as loopback.
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def _ip_literal(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a Host name spells (IPv4 dotted, or IPv6 in brackets), else None."""
    if name.startswith("[") != name.endswith("]"):
        return None
    try:
        address = ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return None
    if not name.startswith("[") and "." not in name:
        return None  # IPv6 must be bracketed in a Host header
    return address


def _media_type_refusal(scope: Scope) -> list[dict[str, Any]] | None:
    if scope["type"] != ScopeType.HTTP or scope["method"] not in _WITH_BODY:
        return None
    content_type = _header(scope, b"content-type")
    if content_type is not None and is_json_media_type(content_type):
        return None
    # Which others the route reads, it says itself (`core.routes.body_types`): this middleware runs
    # once the request is routed, so a route renamed or moved keeps its rule.
    handler = scope.get("route_handler")
    reads: frozenset[str] = handler.opt.get(BODY_TYPES, frozenset()) if handler is not None else frozenset()
    if ANY_BODY in reads or (content_type is not None and _media(content_type) in reads):
        return None
    got = f"got {content_type!r}" if content_type else "none was given"
    return _refusal(
        415,
        f"A {scope['method']} body must be JSON: send Content-Type: application/json ({got}).",
        "Content-Type",
    )
