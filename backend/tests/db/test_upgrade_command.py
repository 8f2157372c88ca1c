"""`smriti db upgrade`: migrates to head, and refuses settings it cannot read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# PYTHONPATH too, when set: the command then runs the tree under test (its migrations), not an
# installed one, whose newest migration may be older than the test database's.
_ENV = {"PATH": "/usr/bin:/bin", **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {})}


def test_db_upgrade_command(database_url: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "smriti", "db", "upgrade"],
        env={"DATABASE_URL": database_url, **_ENV},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "database at head" in result.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "smriti", "db", "upgrade"],
        env={"DATABASE_URL": database_url, "SMRITI_MAX_BODY_BYTES": "lots", **_ENV},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert "SMRITI_MAX_BODY_BYTES" in bad.stderr
