"""The agent client uses the server's own request and response shapes (each domain's `schemas`), not
copies of them, so a field renamed on the server is renamed for the client too. What keeps that
cheap is that those shapes need neither the web framework nor the database: the import contract in
pyproject.toml says so for every import, and this test says so for what `smriti` really loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SERVER_ONLY = ("litestar", "asyncpg", "sqlalchemy", "advanced_alchemy", "smriti.server", "smriti.db")

_LOADED = """
import json, sys
import smriti.cli, smriti.client.mcp.server
print(json.dumps(sorted(sys.modules)))
"""


@pytest.fixture(scope="module")
def loaded() -> set[str]:
    """The modules that starting the CLI and the MCP server imports, in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-c", _LOADED], capture_output=True, text=True, check=True, env=os.environ.copy(), timeout=60
    )
    return set(json.loads(run.stdout))


@pytest.mark.parametrize("package", SERVER_ONLY)
def test_the_cli_and_mcp_server_load_nothing_of_the_servers(loaded: set[str], package: str) -> None:
    assert not {name for name in loaded if name == package or name.startswith(f"{package}.")}


@pytest.mark.parametrize(
    "shapes", ["smriti.checkpoints.schemas", "smriti.lines.schemas", "smriti.merges.schemas", "smriti.sessions.schemas"]
)
def test_the_client_reads_the_servers_shapes_themselves(loaded: set[str], shapes: str) -> None:
    assert shapes in loaded
