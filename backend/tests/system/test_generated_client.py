"""A client nobody here wrote, generated from our OpenAPI document, works against a live server
(issue 21, item 17): openapi-python-client's output creates a Space, commits, reads HEAD, and
reads a refusal as the problem detail it is."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow


def _generate(schema_url: str, into: Path) -> None:
    bin_dir = Path(sys.executable).parent
    generator = shutil.which("openapi-python-client", path=str(bin_dir))
    if generator is None:
        pytest.fail("openapi-python-client is not installed (it is in the dev extras)")
    (into / "openapi.json").write_bytes(httpx.get(schema_url, timeout=10).content)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}  # it runs ruff
    done = subprocess.run(
        [generator, "generate", "--path", "openapi.json", "--output-path", "smriti_generated", "--meta", "none"],
        cwd=into,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout  # every operation and schema was understood


def _module(name: str) -> Any:
    return importlib.import_module(f"smriti_generated.{name}")


async def test_a_generated_client_creates_a_space_commits_and_reads_head(
    database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {"DATABASE_URL": database_url, "OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""}
    with live_server(env, tmp_path) as server:
        _generate(f"{server.url}/schema/openapi.json", tmp_path)
        sys.path.insert(0, str(tmp_path))
        try:
            with _module("client").Client(base_url=server.url) as client:
                _use(client, _module("models"))
        finally:
            sys.path.remove(str(tmp_path))
            for name in [m for m in sys.modules if m == "smriti_generated" or m.startswith("smriti_generated.")]:
                del sys.modules[name]


def _use(client: Any, models: Any) -> None:
    space = _module("api.spaces.create_space").sync(
        client=client, body=models.SpaceCreate(name=f"generated-{uuid.uuid4().hex[:6]}")
    )
    assert isinstance(space, models.Space), space
    saved = _module("api.checkpoints.commit_checkpoint").sync(
        client=client,
        body=models.CommitCreate(repo_id=space.id, message="From a generated client", decisions=["Use it"]),
    )
    assert isinstance(saved, models.Checkpoint), saved
    head = _module("api.checkpoints.get_head").sync(client=client, repo_id=space.id)
    assert isinstance(head, models.Checkpoint), head
    assert head.commit_hash == saved.commit_hash
    assert head.decisions == ["Use it"]
    page = _module("api.checkpoints.list_checkpoints").sync(client=client, repo_id=space.id)
    assert type(page).__name__ == "CheckpointPage"
    assert page.total == 1
    refused = _module("api.spaces.create_space").sync(client=client, body=models.SpaceCreate(name=space.name))
    assert isinstance(refused, models.ErrorResponse), refused
    assert refused.status == 409
    assert refused.title == "Conflict"
