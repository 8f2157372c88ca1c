"""Run `smriti serve` as a real subprocess on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tree_env() -> dict[str, str]:
    """PYTHONPATH, when set, for a subprocess that must run the tree under test (a worktree's)
    rather than the one the virtual environment installed: the MCP SDK starts a stdio server with
    a few safe variables only."""
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}


class LiveServer:
    def __init__(self, process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
        self.process = process
        self.url = url
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        """Signal the server; SIGKILL goes to its whole process group (the workers too)."""
        if self.process.poll() is None:
            if sig == signal.SIGKILL:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout)
        return self.process.returncode


def wait_healthy(
    url: str, process: subprocess.Popen[bytes], log_path: Path, timeout: float = 90, *, path: str = "/health"
) -> None:
    """Until `url + path` answers 200; fails with the server's log if it exits or takes too long."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log_path.read_text()}")
        try:
            if httpx.get(f"{url}{path}", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server at {url} did not become healthy:\n{log_path.read_text()}")


@contextmanager
def live_server(
    env: Mapping[str, str],
    log_dir: Path,
    *,
    port: int | None = None,
    workers: int = 1,
    server: str = "granian",
) -> Iterator[LiveServer]:
    port = port or free_port()
    log_path = log_dir / f"server-{port}.log"
    full_env = {**os.environ, **env}
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "smriti",
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--server",
                server,
            ],
            env=full_env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a SIGKILL reaches every worker
        )
    url = f"http://127.0.0.1:{port}"
    server_handle = LiveServer(process, url, log_path)
    try:
        wait_healthy(url, process, log_path)
        yield server_handle
    finally:
        server_handle.stop()
