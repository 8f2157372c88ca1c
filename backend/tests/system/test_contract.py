"""Contract fuzzing with schemathesis against a running server and its own OpenAPI document.

Every operation gets schema-valid and schema-invalid data (coverage and fuzzing phases), then
stateful sequences follow the document's links (Space → Session → send → commit → fetch, review,
diff). The run fails on any 5xx, any status code or response body the document does not
describe, any invalid input that is accepted, and a created resource that cannot be fetched.

One check is left out, on purpose: `positive_data_acceptance`: the API also refuses schema-valid
requests for reasons a schema cannot express (an id that does not exist, a boundary above a
Session's last Turn, a transcript with no turns in it); those answers are documented 4xx
responses. (`allow_header_conformance` runs since `server/methods.py` lists every method.) And
one check is spared one operation: `ensure_resource_availability` on a commit, where a link
schemathesis infers itself reports a correct 404 as a lost resource (`schemathesis.toml` says why).
The settings are in `schemathesis.toml`: an option on the command line would override its
per-operation part.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.support.live_server import live_server

pytestmark = pytest.mark.slow

SECONDS = os.environ.get("SMRITI_FUZZ_SECONDS", "45")
BACKEND = Path(__file__).resolve().parents[2]


def _schemathesis() -> list[str]:
    found = shutil.which("st", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("schemathesis is not installed (it is in the dev extras)")
    return [found]


@pytest.mark.parametrize("phases", ["examples,coverage,fuzzing", "stateful"])
async def test_schemathesis_finds_nothing(
    phases: str, database_url: str, db: asyncpg.Connection, tmp_path: Path
) -> None:
    env = {"DATABASE_URL": database_url, "OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""}
    with live_server(env, tmp_path) as server:
        command = [
            *_schemathesis(),
            "--config-file",
            str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"{server.url}/schema/openapi.json",
            # Every check runs (the default) but those the file turns off; an option here would
            # override its per-operation setting.
            "--phases",
            phases,
            "--max-time",
            SECONDS,
            # One worker: with two threads, CPython 3.11.7's AST construction sometimes fails inside
            # schemathesis itself ("AST constructor recursion depth mismatch", CPython gh-106905),
            # a flaky error in the client that says nothing about the server.
            "--workers",
            "1",
            "--seed",
            "20261130",
            "--warnings",
            "off",
        ]
        result = await asyncio.to_thread(
            subprocess.run,
            command,
            capture_output=True,
            text=True,
            timeout=int(SECONDS) + 240,
            check=False,
            cwd=tmp_path,
            env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.system.schemathesis_hooks", "PYTHONPATH": str(BACKEND)},
        )
        log = server.log()
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "unhandled error" not in log, log[-4000:]
