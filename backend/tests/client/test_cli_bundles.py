"""`smriti export`, `import`, `import-conversations` and `search` as real subprocesses against `smriti serve`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.bundles.space import observed, rich_space
from tests.support.cli import smriti
from tests.support.imports import fixture, zipped
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline"}
    with live_server(env, tmp_path_factory.mktemp("cli-bundles-logs")) as running:
        yield running


async def test_export_to_a_file_then_import_it_gives_back_the_space(server: LiveServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        repo_id = await rich_space(client, "Exported by the CLI")
        before = await observed(client, repo_id)
        target = tmp_path / "space.ndjson"

        exported = smriti("export", "Exported by the CLI", "-o", str(target), url=server.url)
        assert exported.code == 0, exported.stderr
        assert exported.stdout == ""
        assert f"to {target}" in exported.stderr
        assert not (tmp_path / "space.ndjson.part").exists()
        assert (await client.delete(f"/v4/repos/{repo_id}")).status_code == 204

        imported = smriti("import", str(target), url=server.url)

        assert imported.code == 0, imported.stderr
        assert imported.stdout.startswith("Imported Space Exported by the CLI")
        assert repo_id in imported.stdout
        assert await observed(client, repo_id) == before
        again = smriti("import", str(target), url=server.url)
        assert again.code == 4
        assert "already here" in again.error_line()
        # What it asks for can be done: the command it names deletes the Space, then it imports.
        assert f"`smriti space delete {repo_id} --yes`" in again.error_line()
        deleted = smriti("space", "delete", repo_id, "--yes", url=server.url)
        assert deleted.code == 0, deleted.stderr
        assert smriti("import", str(target), url=server.url).code == 0
        assert await observed(client, repo_id) == before


async def test_export_to_stdout_and_a_bad_bundle(server: LiveServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        repo_id = await rich_space(client, "To stdout")
    exported = smriti("export", repo_id, url=server.url)
    assert exported.code == 0
    assert exported.stdout.splitlines()[0].startswith('{"format":"smriti-space"')
    damaged = exported.stdout.replace('"message":"Merge"', '"message":"Merged"')
    refused = smriti("import", "-", stdin=damaged, url=server.url)
    assert refused.code == 2
    assert "Line 5:" in refused.error_line()
    missing = smriti("export", "no such space", "-o", str(tmp_path / "x.ndjson"), url=server.url)
    assert missing.code == 3
    assert not (tmp_path / "x.ndjson").exists()


async def test_search_shows_where_each_match_is_and_marks_the_words(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        space = (await client.post("/v4/repos", json={"name": "Searched by the CLI"})).json()
        saved = await client.post(
            "/v4/chat/commit",
            json={"repo_id": space["id"], "message": "Ferries", "summary": "The harbour ferries run hourly."},
        )
        assert saved.status_code == 201, saved.text

    found = smriti("search", "ferry", "--space", "Searched by the CLI", url=server.url)
    assert found.code == 0, found.stderr
    assert "Matches 1-1 of 1 for 'ferry':" in found.stdout
    # Named by its short hash, as `smriti log` names it.
    assert f"Searched by the CLI: Checkpoint {saved.json()['commit_hash'][:7]}, message\n" in found.stdout
    assert "[Ferries]" in found.stdout
    as_json = smriti("search", "harbour ferries", "--kind", "checkpoint", "--json", url=server.url)
    assert as_json.code == 0, as_json.stderr
    assert '"field":"summary"' in as_json.stdout.replace(" ", "")
    nothing = smriti("search", "submarine", url=server.url)
    assert nothing.stdout.strip() == "Nothing matches 'submarine'."
    refused = smriti("search", "the", url=server.url)
    assert refused.code != 0
    assert "no words to search for" in refused.error_line()


async def test_search_shows_an_item_carried_forward_once_and_a_turn_with_its_session(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        space = (await client.post("/v4/repos", json={"name": "Carried by the CLI"})).json()
        saved = []
        for n in range(3):
            body = {"repo_id": space["id"], "message": f"Step {n}", "decisions": ["Ride the funicular", *["x"] * n]}
            saved.append((await client.post("/v4/chat/commit", json=body)).json())
        chat = (await client.post(f"/v4/repos/{space['id']}/sessions", json={"title": "Hill transport"})).json()
        sent = await client.post("/v4/chat/send", json={"session_id": chat["id"], "content": "funicular times?"})
        assert sent.status_code == 201, sent.text

    found = smriti("search", "funicular", "--space", "Carried by the CLI", url=server.url)

    assert found.code == 0, found.stderr
    newest, second, first = (c["commit_hash"][:7] for c in reversed(saved))
    blocks = found.stdout.splitlines()
    assert (
        blocks.count(f"Carried by the CLI: Checkpoint {newest}, decisions[0] (and 2 earlier: {second}, {first})") == 1
    ), found.stdout
    assert f"Carried by the CLI: Turn 1 of Session “Hill transport” ({chat['id']})" in blocks
    assert not any(c["id"] in found.stdout for c in saved)
    assert blocks[0].startswith("Matches 1-"), blocks[0]


async def test_import_conversations_lists_the_sessions_and_what_was_skipped(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/v4/repos", json={"name": "Conversations by the CLI"})
        assert created.status_code == 201, created.text
    export = Path(__file__).parents[1] / "transcripts" / "fixtures" / "claude_conversations.json"

    imported = smriti("import-conversations", "Conversations by the CLI", str(export), url=server.url)

    assert imported.code == 0, imported.stderr
    lines = imported.stdout.splitlines()
    assert lines[0] == "Imported 1 Claude conversation(s) into Conversations by the CLI:"
    assert lines[1].endswith("4 Turns  Kafka sizing  (left out: attachments 1, tool calls 1)")
    assert lines[2:] == [
        "Skipped 2:",
        "  Untitled conversation 2: conversation 2: no message from the user or the assistant.",
        "  Wrong shape: conversation 3: chat_messages[0].text must be text.",
    ]
    refused = smriti("import-conversations", "Conversations by the CLI", "-", stdin=b"not json", url=server.url)
    assert refused.code == 2
    assert "the file begins with 'not json', not '['" in refused.error_line()


async def test_import_conversations_reads_a_zip_skips_what_the_space_holds_and_copies_on_request(
    server: LiveServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/v4/repos", json={"name": "Zipped by the CLI"})
        assert created.status_code == 201, created.text
    export = tmp_path / "data-2025-03-05.zip"
    export.write_bytes(zipped({"conversations.json": fixture("claude_export.json"), "users.json": b"[]"}))
    session = tmp_path / "4c1f8e2a.jsonl"
    session.write_bytes(fixture("claude_code_session.jsonl"))

    first = smriti("import-conversations", "Zipped by the CLI", str(export), url=server.url)
    assert first.code == 0, first.stderr
    assert first.stdout.splitlines()[0] == "Imported 3 Claude conversation(s) into Zipped by the CLI:"
    again = smriti("import-conversations", "Zipped by the CLI", str(export), url=server.url)
    assert again.code == 0, again.stderr
    assert again.stdout.splitlines()[:2] == ["Imported 0 Claude conversation(s) into Zipped by the CLI:", "Skipped 3:"]
    copies = smriti("import-conversations", "Zipped by the CLI", str(export), "--copies", "--json", url=server.url)
    assert copies.code == 0, copies.stderr
    assert len(json.loads(copies.stdout)["sessions"]) == 3
    claude_code = smriti("import-conversations", "Zipped by the CLI", str(session), url=server.url)
    assert claude_code.code == 0, claude_code.stderr
    assert claude_code.stdout.splitlines()[1].endswith(
        "Fix the flaky retry test  (left out: images 1, tool calls 2, thinking 1, hidden 4)"
    )
