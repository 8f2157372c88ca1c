"""`smriti db upgrade`: migrates to head, and refuses settings it cannot read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_db_upgrade_command(database_url: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "smriti", "db", "upgrade"],
        env={"DATABASE_URL": database_url, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "database at head" in result.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "smriti", "db", "upgrade"],
        env={"DATABASE_URL": database_url, "SMRITI_MAX_BODY_BYTES": "lots", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert "SMRITI_MAX_BODY_BYTES" in bad.stderr
