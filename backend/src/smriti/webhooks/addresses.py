"""Which addresses a webhook may reach, and the one address it connects to.

A webhook is a request the server makes on the person's say-so; without this check a URL could
point the server at itself, the database's host, a cloud's metadata service (169.254.169.254) or
anything else on its private network. So a URL whose host resolves to any address that is not
public is refused at creation and at every delivery (a name may resolve elsewhere by the time
an event is sent: DNS rebinding). The delivery then connects to the address that was checked
(`sender.py` pins it), so the check and the connection cannot see two answers.
`SMRITI_WEBHOOK_ALLOW_PRIVATE=1` lifts the check, for receivers on the server's own network.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]
"""Host and port → the addresses it resolves to (injected in tests: a name that changes its answer)."""

_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")


class UnsafeAddress(Exception):
    """The URL's host does not resolve, or resolves to an address a webhook may not reach."""


async def resolve_system(host: str, port: int) -> list[str]:
    """The system resolver's answers (getaddrinfo, in asyncio's thread pool)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def is_public(address: IPAddress) -> bool:
    """A globally routable unicast address, looking through the IPv6 forms that carry an IPv4
    address (mapped, NAT64, 6to4): `::ffff:127.0.0.1` is loopback however it is spelled."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return is_public(address.ipv4_mapped)
        if address in _NAT64:
            return is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None and not is_public(address.sixtofour):
            return False
    # is_global is False for loopback, private, link-local, unique-local, unspecified, shared
    # (100.64/10) and the documentation ranges; multicast and reserved are refused besides.
    return address.is_global and not address.is_multicast and not address.is_reserved


async def checked_address(host: str, port: int, *, allow_private: bool, resolve: Resolver) -> IPAddress:
    """The address to connect to for `host`: its first answer, once every answer is checked (one
    private answer among public ones is refused too: the system may pick any of them)."""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        answers: list[IPAddress] = [literal]
    else:
        try:
            found = await resolve(host, port)
        except (OSError, UnicodeError) as error:
            raise UnsafeAddress(f"its host {host} does not resolve ({error}).") from None
        answers = [ipaddress.ip_address(a.split("%", 1)[0]) for a in found]
        if not answers:
            raise UnsafeAddress(f"its host {host} does not resolve.")
    if not allow_private:
        for address in answers:
            if not is_public(address):
                raise UnsafeAddress(
                    f"its host {host} resolves to {address}, which is not a public address "
                    "(loopback, private, link-local or reserved); SMRITI_WEBHOOK_ALLOW_PRIVATE=1 allows it."
                )
    return answers[0]
