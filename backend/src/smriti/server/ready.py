"""Say "ready" when the server answers, not when it starts to start.

`smriti serve` starts the embedded database, migrates and then hands over to the ASGI server,
whose workers import the app and open their pools before the port answers: seconds in which a
first-time user, told "serving on …", would open a page that does not load. A daemon thread asks
`/health` (reachable without the API token, and by loopback names under the Host rule) until it
answers, then prints where to go.
"""

from __future__ import annotations

import http.client
import ipaddress
import threading
import time
from collections.abc import Callable

POLL_S = 0.2
GIVE_UP_S = 600.0
"""A server that has not answered in ten minutes is not starting; the workers' own errors say why."""


def _probe_host(host: str) -> str:
    """Where to ask: the address listened on, or loopback when it listens on every address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.is_unspecified:
        return "::1" if address.version == 6 else "127.0.0.1"
    return host


def _answers(host: str, port: int) -> bool:
    connection = http.client.HTTPConnection(host, port, timeout=2)
    try:
        connection.request("GET", "/health")
        return connection.getresponse().status < 500
    except OSError:
        return False
    finally:
        connection.close()


def announce_when_ready(host: str, port: int, say: Callable[[str], None]) -> threading.Thread:
    """Start a daemon thread that calls `say` once `/health` answers on `host:port`."""
    probe = _probe_host(host)
    shown = f"[{host}]" if ":" in host else host

    def wait() -> None:
        deadline = time.monotonic() + GIVE_UP_S
        while time.monotonic() < deadline:
            if _answers(probe, port):
                url = f"http://{shown}:{port}"
                say(f"smriti: ready at {url}/ (the API's schema at {url}/schema, its health at {url}/health)")
                return
            time.sleep(POLL_S)

    thread = threading.Thread(target=wait, name="smriti-ready", daemon=True)
    thread.start()
    return thread
