"""Running the API in server processes: uvicorn (the default) or granian.

Several uvicorn workers do not share one listening socket here. uvicorn's own workers do, and
whichever worker is awake when a burst of connections arrives accepts all of it: with 16
keep-alive connections and two workers, one worker served every request in 4 of 6 runs
(`docs/performance.md`). Instead, each worker binds a socket of its own to the same address with
`SO_REUSEPORT`, and the kernel spreads new connections over them by a hash of their addresses.
granian spreads connections over its workers itself.

A uvicorn worker told to stop first gives its streamed replies a grace period
(`smriti.server.stopping`). Whichever way it runs, `serve` itself stops the embedded database
when the server stops (SIGTERM, SIGINT, a worker that died): `smriti.db.embedded`.

The parent process only starts the workers and waits. A signal to it (SIGTERM, or SIGINT from a
terminal) is passed on to every worker, which finishes its requests and stops. A worker that
stops on its own stops the others too, and the parent exits with an error, so that whatever
runs the service (systemd, a container runtime) restarts it whole rather than run it short of a
worker without anyone noticing.
"""

from __future__ import annotations

import errno
import multiprocessing
import signal
import socket
import sys
from multiprocessing.connection import wait
from types import FrameType

import uvicorn
from granian import Granian
from granian.constants import Interfaces

from smriti.server.stopping import GracefulServer

APP = "smriti.server.app:create_app"


class AddressInUse(OSError):
    """Something already listens on the address `smriti serve` was given."""


def serve_granian(host: str, port: int, workers: int) -> None:
    Granian(
        APP, factory=True, address=host, port=port, workers=workers, interface=Interfaces.ASGI, log_access=False
    ).serve()


def serve_uvicorn(host: str, port: int, workers: int) -> int:
    """Serve until stopped; returns the exit status."""
    if workers == 1:
        # uvicorn ends a graceful shutdown by raising the signal again with the handler that was
        # in place before it started. With the default one, the process would die right there,
        # before `serve` could stop the embedded database; this one lets `run` return instead.
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, _stopped_by)
        server = GracefulServer(uvicorn.Config(APP, factory=True, host=host, port=port, log_level="warning"))
        server.run()
        return 0 if server.started else 3  # uvicorn's own status for a failed start-up
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_uvicorn_worker, args=(host, port), name=f"worker {n + 1}") for n in range(workers)
    ]
    stopping = False

    def stop_all() -> None:
        nonlocal stopping
        stopping = True
        for process in processes:
            if process.pid is not None and process.exitcode is None:
                process.terminate()  # SIGTERM: uvicorn finishes its requests and runs the shutdown

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop_all()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    for process in processes:
        if not stopping:
            process.start()
    if stopping:  # a signal came while the workers were starting: stop those that started
        stop_all()
    failed = False
    running = [process for process in processes if process.pid is not None]
    while running:
        ended = wait([process.sentinel for process in running])
        for process in [process for process in running if process.sentinel in ended]:
            running.remove(process)
            if not stopping:
                failed = True
                print(
                    f"smriti: {process.name} stopped on its own (exit code {process.exitcode}); stopping the others",
                    file=sys.stderr,
                    flush=True,
                )
                stop_all()
    return 1 if failed else 0


def _stopped_by(signum: int, frame: FrameType | None) -> None:
    """The signal uvicorn re-raises after its graceful shutdown: already handled, nothing to do."""


def _address(host: str, port: int) -> tuple[socket.AddressFamily, tuple[str, int] | tuple[str, int, int, int]]:
    family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    return family, address  # type: ignore[return-value]


def check_free(host: str, port: int) -> None:
    """Refuse an address another server already listens on. Sockets bound with SO_REUSEPORT
    would share it with a second `smriti serve` of the same user without a word, so this first
    binds one without that option (SO_REUSEADDR only lets it past connections in TIME_WAIT)."""
    family, address = _address(host, port)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise AddressInUse(exc.errno, f"{host}:{port} is already in use") from None
            raise


def _uvicorn_worker(host: str, port: int) -> None:
    family, address = _address(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    GracefulServer(uvicorn.Config(APP, factory=True, log_level="warning")).run(sockets=[sock])
