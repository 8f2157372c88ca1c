"""Run the `smriti` CLI as a real subprocess, the way an agent's shell would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Variables of the developer's shell that would change what the CLI does.
_CLEARED = ("SMRITI_URL", "SMRITI_API_TOKEN", "SMRITI_AGENT_NAME", "SMRITI_TIMEOUT")


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        assert self.code == 0, f"smriti {' '.join(self.args)} exited {self.code}: {self.stderr}"
        assert self.stderr == "", self.stderr
        return json.loads(self.stdout)

    def error_line(self) -> str:
        """The one line an error prints on stderr (and nothing on stdout)."""
        assert self.code != 0, f"expected a failure, got: {self.stdout}"
        assert self.stdout == "", self.stdout
        lines = self.stderr.splitlines()
        assert len(lines) == 1, self.stderr
        return lines[0]


def smriti(
    *args: str,
    url: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str | bytes | None = None,
    cwd: Path | None = None,
    timeout: float = 60,
) -> Run:
    """`smriti ARGS...` with stdin closed unless given; returns exit code and both streams."""
    full_env = {key: value for key, value in os.environ.items() if key not in _CLEARED}
    if url is not None:
        full_env["SMRITI_URL"] = url
    full_env.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-m", "smriti", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    return Run(
        args=args,
        code=completed.returncode,
        stdout=completed.stdout.decode(),
        stderr=completed.stderr.decode(),
    )


def start(
    *args: str, url: str, env: Mapping[str, str] | None = None, stdin: str | None = None
) -> subprocess.Popen[bytes]:
    """Start `smriti ARGS...` without waiting (for racing two agents)."""
    full_env = {key: value for key, value in os.environ.items() if key not in _CLEARED}
    full_env.update({"SMRITI_URL": url, **(env or {})})
    return subprocess.Popen(
        [sys.executable, "-m", "smriti", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=full_env,
    )


def finish(process: subprocess.Popen[bytes], args: tuple[str, ...], stdin: str | None = None) -> Run:
    out, err = process.communicate(stdin.encode() if stdin is not None else None, timeout=60)
    return Run(args=args, code=process.returncode, stdout=out.decode(), stderr=err.decode())
