"""The compose file and the image definition: valid, and shaped the way the issue asks."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]


def _compose_config() -> dict[str, Any]:
    """`docker-compose config`: the file validated and resolved, as the tool understands it."""
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.fail("docker-compose is not installed (.ci/run installs Debian's docker-compose package)")
    result = subprocess.run(
        [tool, "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = yaml.safe_load(result.stdout)
    return loaded


def test_compose_file_is_valid_and_complete() -> None:
    config = _compose_config()
    services = config["services"]
    db, api = services["db"], services["api"]
    assert str(db["image"]).startswith("postgres:")
    assert "healthcheck" in db
    assert any("pgdata" in str(volume) for volume in db["volumes"])
    assert "pgdata" in config["volumes"]
    assert api["depends_on"]["db"]["condition"] == "service_healthy"
    assert api["build"]["dockerfile"].endswith("backend/Dockerfile")
    assert api["environment"]["DATABASE_URL"].startswith("postgresql://")


def test_image_runs_as_non_root_and_serves_the_web_app() -> None:
    dockerfile = (ROOT / "backend" / "Dockerfile").read_text()
    assert "USER smriti" in dockerfile
    assert "npm run build" in dockerfile  # the same build step as the Makefile's
    assert "SMRITI_WEB_DIR" in dockerfile
    assert 'CMD ["smriti", "serve"' in dockerfile


def test_env_example_documents_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    settings_source = (ROOT / "backend" / "src" / "smriti" / "core" / "config.py").read_text()
    names = set(re.findall(r'"((?:SMRITI|OPENAI|ANTHROPIC)_[A-Z_]+|DATABASE_URL)"', settings_source))
    names -= {"SMRITI_OPENAI_MODELS", "SMRITI_ANTHROPIC_MODELS", "SMRITI_SKIP_MIGRATIONS", "SMRITI_WEB_DIR"}
    missing = sorted(name for name in names if name not in example)
    assert missing == [], f".env.example does not mention {missing}"
