"""The agent CLI, run as real subprocesses against `smriti serve` on a fresh embedded database."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest

from smriti.db.embedded import start_embedded_postgres
from tests.support.cli import Run, finish, smriti, start
from tests.support.live_server import LiveServer, free_port, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli") / "data"


@pytest.fixture(scope="module")
def server(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module, on a database of its own (the embedded one, started fresh)."""
    env = {**NO_KEYS, "DATABASE_URL": "", "SMRITI_DATA_DIR": str(data_dir), "SMRITI_DEFAULT_PROVIDER": "offline"}
    with live_server(env, tmp_path_factory.mktemp("cli-logs")) as running:
        yield running


LISTS = "`smriti spaces` lists the Spaces there are."


def unique(name: str) -> str:
    return f"{name} {uuid4().hex[:8]}"


def cli(server: LiveServer, *args: str, **kwargs: Any) -> Run:
    return smriti(*args, url=server.url, **kwargs)


def new_space(server: LiveServer, name: str) -> dict[str, Any]:
    space: dict[str, Any] = cli(server, "space", "create", name, "--json").json()
    return space


def test_space_create_and_list(server: LiveServer) -> None:
    name = unique("Lisbon trip")
    created = cli(server, "space", "create", name, "--description", "A week in May", "--json").json()
    assert created["name"] == name
    assert created["description"] == "A week in May"
    assert created["head_commit_id"] is None
    UUID(created["id"])

    listed = cli(server, "spaces", "--json", "--limit", "200").json()
    assert set(listed) == {"items", "total", "limit", "offset"}
    assert listed["limit"] == 200
    assert [s for s in listed["items"] if s["id"] == created["id"]] == [created]

    human = cli(server, "spaces")
    assert human.code == 0
    assert name in human.stdout
    assert created["id"] in human.stdout

    plain = cli(server, "space", "create", unique("Plain"))
    assert plain.code == 0
    assert plain.stdout.startswith("Created Space Plain ")

    duplicate = cli(server, "space", "create", name, "--json")
    assert duplicate.code == 4
    assert "already exists" in duplicate.error_line()


def test_commit_from_flags_then_head_show_and_log(server: LiveServer, tmp_path: Path) -> None:
    name = unique("Storage")
    space = new_space(server, name)
    (tmp_path / "schema.sql").write_text("CREATE TABLE t ();\n")
    (tmp_path / "notes.md").write_text("# Notes\nfast path\n")
    first = cli(
        server,
        "commit",
        name,
        "--json",
        "--expect-head",
        "none",
        "-m",
        "Storage plan",
        "--summary",
        "Planning the storage layer.",
        "--decision",
        "Use PostgreSQL",
        "--decision",
        "Key turns by sequence number",
        "--assumption",
        "One region is enough",
        "--task",
        "Benchmark HEAD",
        "--done-task",
        "Write the migration",
        "--question",
        "Do we need branching?",
        "--artifact",
        f"schema={tmp_path / 'schema.sql'}",
        "--artifact",
        str(tmp_path / "notes.md"),
        env={"SMRITI_AGENT_NAME": "planner"},
    ).json()
    assert first["repo_id"] == space["id"]
    assert first["parent_commit_id"] is None
    assert first["message"] == "Storage plan"
    assert first["decisions"] == ["Use PostgreSQL", "Key turns by sequence number"]
    assert first["assumptions"] == ["One region is enough"]
    assert first["tasks"] == [{"text": "Benchmark HEAD", "done": False}, {"text": "Write the migration", "done": True}]
    assert first["open_questions"] == ["Do we need branching?"]
    assert first["artifacts"] == [
        {"name": "schema", "content": "CREATE TABLE t ();\n", "media_type": "text/x-sql"},
        {"name": "notes.md", "content": "# Notes\nfast path\n", "media_type": "text/markdown"},
    ]
    assert first["metadata"] == {"author": {"kind": "agent", "name": "planner"}}

    # HEAD by name and by id, and the Checkpoint by id, full hash and prefix: all the same JSON.
    assert cli(server, "head", name, "--json").json() == first
    assert cli(server, "head", space["id"], "--json").json() == first
    for ref in (first["id"], first["commit_hash"], first["commit_hash"][:7], first["commit_hash"][:12].upper()):
        assert cli(server, "show", ref, "--json").json() == first, ref

    second = cli(server, "commit", name, "--json", "-m", "Second", "--author", "reviewer").json()
    assert second["parent_commit_id"] == first["id"]
    assert second["metadata"]["author"] == {"kind": "agent", "name": "reviewer"}

    log = cli(server, "log", name, "--json").json()
    assert [c["id"] for c in log["items"]] == [second["id"], first["id"]]
    assert log["total"] == 2
    page = cli(server, "log", name, "--json", "--limit", "1", "--offset", "1").json()
    assert [c["id"] for c in page["items"]] == [first["id"]]
    assert (page["limit"], page["offset"], page["total"]) == (1, 1, 2)

    # Human output says the same things a person needs.
    shown = cli(server, "head", name)
    assert shown.code == 0
    assert "(HEAD)" in shown.stdout
    assert second["commit_hash"][:7] in shown.stdout
    assert f"Checkpoint {second['commit_hash'][:7]} " in shown.stdout  # the short form: 7, as the app shows
    assert "by agent reviewer" in shown.stdout
    text = cli(server, "show", first["commit_hash"][:10]).stdout
    for expected in ("Use PostgreSQL", "[ ] Benchmark HEAD", "[x] Write the migration", "schema  text/x-sql"):
        assert expected in text
    assert "(HEAD)" not in text
    assert "Parent  none (first Checkpoint of its line)" in text
    assert f"Parent  {first['commit_hash'][:7]} “{first['message']}”" in shown.stdout
    lines = cli(server, "log", name).stdout.splitlines()
    assert lines[0].startswith(second["commit_hash"][:7] + " ")
    assert lines[0].endswith("HEAD")
    assert "agent planner" in lines[1]
    saved = cli(server, "commit", name, "-m", "Third")
    assert saved.code == 0
    assert saved.stdout.startswith("Saved Checkpoint ")
    third = cli(server, "head", name, "--json").json()
    assert f"its parent is {second['commit_hash'][:7]})" in saved.stdout
    assert f"The HEAD of main is now {third['commit_hash'][:7]}." in saved.stdout
    assert second["id"] not in saved.stdout  # hashes, as the log shows them, not UUIDs

    # HEAD, HEAD~N and HEAD^ of a Space, as Git spells them.
    for ref, expected in (("HEAD", third), ("HEAD~1", second), ("HEAD^", second), ("HEAD^^", first), ("HEAD~2", first)):
        assert cli(server, "show", ref, "--space", name, "--json").json()["id"] == expected["id"], ref
    assert (
        cli(server, "diff", "HEAD~2", "HEAD", "--space", space["id"], "--json").json()["from_commit_id"] == first["id"]
    )
    too_far = cli(server, "show", "HEAD~3", "--space", name)
    assert too_far.code == 3
    assert too_far.error_line() == f"smriti: HEAD~3: line 'main' of {name!r} has 2 Checkpoint(s) before its HEAD."


def test_commit_from_stdin_and_files(server: LiveServer, tmp_path: Path) -> None:
    name = unique("Stdin")
    new_space(server, name)
    body = {
        "message": "From stdin",
        "summary": "Piped in whole.",
        "decisions": ["A"],
        "tasks": [{"text": "T", "done": True}],
        "entities": [{"name": "PostgreSQL", "kind": "database"}],
        "metadata": {"author": {"kind": "human", "name": "Asha"}, "run": 7},
    }
    piped = cli(server, "commit", name, "--json", stdin=json.dumps(body)).json()
    assert piped["message"] == "From stdin"
    assert piped["entities"] == [{"name": "PostgreSQL", "kind": "database", "description": None}]
    assert piped["metadata"] == body["metadata"], "an author given in the JSON is never overwritten"

    # `--file -` reads stdin too; flags add to the JSON's lists and replace the message. With
    # --replace the JSON is the whole new state (without it, its items would be added a second time).
    dashed = cli(
        server,
        "commit",
        name,
        "--json",
        "--replace",
        "--file",
        "-",
        "-m",
        "Renamed",
        "--decision",
        "B",
        stdin=json.dumps(body),
    ).json()
    assert dashed["message"] == "Renamed"
    assert dashed["decisions"] == ["A", "B"]

    # A saved Checkpoint (head --json), edited, is a whole state: refused as changes, saved with
    # --replace, and then its id, hash, parent and author stay behind.
    head = cli(server, "head", name, "--json").json()
    head["decisions"].append("C")
    path = tmp_path / "next.json"
    path.write_text(json.dumps(head))
    as_changes = cli(server, "commit", name, "--file", str(path), "-m", "Edited")
    assert as_changes.code == 2
    assert f"--file {path} is a saved Checkpoint" in as_changes.error_line()
    assert "--replace" in as_changes.error_line()
    edited = cli(
        server, "commit", name, "--json", "--replace", "--file", str(path), "--expect-head", head["id"], "-m", "Edited"
    )
    continued = edited.json()
    assert continued["decisions"] == ["A", "B", "C"]
    assert continued["parent_commit_id"] == head["id"]
    assert continued["id"] != head["id"]
    assert continued["metadata"]["run"] == 7
    assert continued["metadata"]["author"]["kind"] == "agent", "the old author is not inherited"

    bad_json = cli(server, "commit", name, stdin='{\n  "message": "x",\n  "tasks": [}\n')
    assert bad_json.code == 2
    assert re.fullmatch(r"smriti: stdin is not valid JSON: .* at line 3, column \d+", bad_json.error_line())

    wrong_type = cli(
        server, "commit", name, "--file", "-", stdin='{"message": "x", "tasks": [{"text": "t", "done": "no"}]}'
    )
    assert wrong_type.code == 2
    assert "tasks[0].done" in wrong_type.error_line()
    assert "Expected `bool`, got `str`" in wrong_type.error_line()

    # Decoding would keep the last of two equal names; the CLI refuses, as the server does.
    repeated = cli(server, "commit", name, "--file", "-", stdin='{"message": "x", "message": "y"}')
    assert repeated.code == 2
    assert "'message' twice" in repeated.error_line()
    deep = cli(
        server, "commit", name, "--file", "-", stdin='{"message": "x", "metadata": ' + "[" * 5000 + "]" * 5000 + "}"
    )
    assert deep.code == 2
    assert "nested too deeply" in deep.error_line()

    unknown_field = cli(server, "commit", name, stdin='{"message": "x", "mood": "good"}')
    assert unknown_field.code == 2
    assert "unknown field `mood`" in unknown_field.error_line()

    not_object = cli(server, "commit", name, stdin="[1, 2]")
    assert not_object.code == 2
    assert "not an array" in not_object.error_line()

    empty = cli(server, "commit", name, "--file", "-", stdin="")
    assert empty.code == 2
    assert "stdin is empty" in empty.error_line()

    no_message = cli(server, "commit", name)
    assert no_message.code == 2
    assert "needs a message" in no_message.error_line()

    blank_message = cli(server, "commit", name, "-m", "   ")
    assert blank_message.code == 2
    assert "message: Expected non-empty text" in blank_message.error_line()

    missing_artifact = cli(server, "commit", name, "-m", "x", "--artifact", f"a={tmp_path / 'nope.txt'}")
    assert missing_artifact.code == 2
    assert "cannot read" in missing_artifact.error_line()

    # None of the failures wrote anything.
    assert cli(server, "log", name, "--json").json()["total"] == 3


def test_two_agents_hand_off_through_a_space(server: LiveServer) -> None:
    name = unique("Hand-off")
    new_space(server, name)
    agent_a, agent_b = {"SMRITI_AGENT_NAME": "agent-a"}, {"SMRITI_AGENT_NAME": "agent-b"}

    # Agent A starts the Space and commits its state.
    a = cli(
        server,
        "commit",
        name,
        "--json",
        "--expect-head",
        "none",
        "-m",
        "Research done",
        "--decision",
        "Use SQLite for the prototype",
        "--task",
        "Write the schema",
        "--question",
        "Is WAL mode needed?",
        env=agent_a,
    ).json()

    # Agent B reads the brief: the state and the exact way to hand back.
    brief = cli(server, "context", name, env=agent_b)
    assert brief.code == 0
    assert brief.stdout.startswith(f"# Hand-off: {name}\n")
    for expected in (
        "Use SQLite for the prototype",
        "- [ ] Write the schema",
        "Is WAL mode needed?",
        "by agent agent-a",
        f"--expect-head {a['commit_hash'][:7]}",
    ):
        assert expected in brief.stdout, expected
    brief_json = cli(server, "context", name, "--json").json()
    assert brief_json["head_commit_id"] == a["id"]
    assert brief_json["brief"].rstrip("\n") == brief.stdout.rstrip("\n")

    # B continues from HEAD and commits with a compare-and-swap on the HEAD it read.
    head = cli(server, "head", name, "--json", env=agent_b).json()
    assert head["id"] == a["id"]
    b = cli(
        server,
        "commit",
        name,
        "--json",
        "--expect-head",
        head["commit_hash"][:10],
        "-m",
        "Schema written",
        "--decision",
        "WAL mode on",
        "--complete-task",
        "Write the schema",
        env=agent_b,
    ).json()
    assert b["parent_commit_id"] == a["id"]
    # B named only what changed; A's state came along.
    assert b["decisions"] == ["Use SQLite for the prototype", "WAL mode on"]
    assert b["tasks"] == [{"text": "Write the schema", "done": True}]
    assert b["open_questions"] == ["Is WAL mode needed?"]
    assert b["metadata"]["author"] == {"kind": "agent", "name": "agent-b"}

    # A, still holding the old HEAD, is refused: exit 4, nothing written.
    stale = cli(server, "commit", name, "--expect-head", a["id"], "-m", "Late", env=agent_a)
    assert stale.code == 4
    assert "HEAD has moved" in stale.error_line()
    log = cli(server, "log", name, "--json").json()
    assert [c["id"] for c in log["items"]] == [b["id"], a["id"]]

    # Two agents racing on the same HEAD: exactly one wins, the other exits 4.
    racers = [
        (
            start("commit", name, "--json", "--expect-head", b["id"], "-m", f"race {who}", url=server.url, env=env),
            ("commit", name),
        )
        for who, env in (("a", agent_a), ("b", agent_b))
    ]
    results = [finish(process, args) for process, args in racers]
    assert sorted(r.code for r in results) == [0, 4], [r.stderr for r in results]
    winner = next(r for r in results if r.code == 0).json()
    assert winner["parent_commit_id"] == b["id"]
    assert cli(server, "head", name, "--json").json()["id"] == winner["id"]
    assert cli(server, "log", name, "--json").json()["total"] == 3
    assert cli(server, "verify", name, "--json").json()["ok"] is True


def test_diff_review_and_verify(server: LiveServer, data_dir: Path) -> None:
    name = unique("Compare")
    space = new_space(server, name)
    one = cli(
        server, "commit", name, "--json", "-m", "One", "--decision", "Cache API responses", "--task", "Migrate"
    ).json()
    two = cli(
        server,
        "commit",
        name,
        "--json",
        "-m",
        "Two",
        "--decision",
        "Do not cache API responses",
        "--complete-task",
        "Migrate",
    ).json()

    diff = cli(server, "diff", one["commit_hash"][:8], two["id"], "--json").json()
    assert diff["from_commit_id"] == one["id"]
    assert diff["to_commit_id"] == two["id"]
    assert diff["identical"] is False
    assert diff["decisions"] == {"added": ["Do not cache API responses"], "removed": []}
    assert diff["tasks"]["changed"] == [{"text": "Migrate", "before_done": False, "after_done": True}]
    human = cli(server, "diff", one["id"], two["id"]).stdout
    assert "+ Do not cache API responses" in human
    assert "~ Migrate: open → done" in human
    same = cli(server, "diff", two["id"], two["id"])
    assert same.code == 0
    assert "no differences" in same.stdout

    review = cli(server, "review", two["commit_hash"][:9], "--json").json()
    assert review["commit_id"] == two["id"]
    assert review["reviewed_by"]["provider"] == "offline"
    assert [(f["kind"], f["refs"]) for f in review["findings"]] == [
        ("contradiction", [{"field": "decisions", "index": 0}, {"field": "decisions", "index": 1}])
    ]
    assert "contradiction" in cli(server, "review", two["id"]).stdout

    report = cli(server, "verify", name, "--json").json()
    assert report == {"repo_id": space["id"], "checked": 2, "ok": True, "problems": []}
    assert cli(server, "verify", name).stdout.startswith("OK: 2 Checkpoints")
    assert cli(server, "verify", name, "--anchor", two["commit_hash"], "--anchor", one["commit_hash"]).code == 0
    gone = cli(server, "verify", name, "--anchor", "f" * 64)
    assert gone.code == 1
    assert "anchor_missing: The anchor ffff" in gone.stdout

    # Tamper with a stored Checkpoint: verify reports it and exits 1.
    async def tamper() -> None:
        conn = await asyncpg.connect(start_embedded_postgres(data_dir))
        try:
            await conn.execute("UPDATE commits SET summary = 'edited behind its back' WHERE id = $1", UUID(one["id"]))
        finally:
            await conn.close()

    asyncio.run(tamper())
    broken = cli(server, "verify", name)
    assert broken.code == 1
    assert "hash_mismatch" in broken.stdout
    assert one["id"] in broken.stdout
    assert cli(server, "verify", name, "--json").code == 1


def test_not_found_usage_and_server_errors(server: LiveServer) -> None:
    name = unique("Empty")
    new_space(server, name)

    no_head = cli(server, "head", name)
    assert no_head.code == 3
    assert no_head.error_line() == "smriti: This Space has no Checkpoint yet."
    empty_brief = cli(server, "context", name)
    assert empty_brief.code == 0
    assert "no Checkpoint yet" in empty_brief.stdout
    assert "--expect-head none" in empty_brief.stdout

    for args in (
        ("head", "No such Space"),
        ("log", "No such Space", "--json"),
        ("verify", "No such Space"),
        ("context", "No such Space"),
        ("commit", "No such Space", "-m", "x"),
    ):
        result = cli(server, *args)
        assert result.code == 3, args
        assert result.error_line() == f"smriti: No Space named 'No such Space'. {LISTS}"

    unknown_id = cli(server, "head", "00000000-0000-4000-8000-000000000000", "--json")
    assert unknown_id.code == 3
    assert unknown_id.error_line() == "smriti: No Space with id 00000000-0000-4000-8000-000000000000."
    for args in (("show", "deadbeef00"), ("review", "deadbeef00"), ("diff", "deadbeef00", "deadbeef01")):
        result = cli(server, *args, "--json")
        assert result.code == 3, args
        assert "deadbeef00" in result.error_line()
    # A ref that cannot name any Checkpoint is a usage error (2), not a missing one (3).
    for bad in ("abc", "../repos", "HEAD~x"):
        refused = cli(server, "show", bad)
        assert refused.code == 2, bad
        assert "hash prefix of at least 7 hex digits" in refused.error_line(), bad
    needs_space = cli(server, "show", "HEAD")
    assert needs_space.code == 2
    assert needs_space.error_line() == (
        "smriti: HEAD needs a Space (the CLI's --space, the MCP tool's `space`): HEAD is a Space's "
        "(or, with a line, one line's)."
    )
    assert cli(server, "commit", name, "-m", "x", "--expect-head", "feedface99").code == 3

    missing = cli(server, "head")
    assert missing.code == 2
    assert "Missing argument 'SPACE'" in missing.error_line()
    out_of_range = cli(server, "log", name, "--limit", "0")
    assert out_of_range.code == 2
    assert "--limit" in out_of_range.error_line()
    bad_url = smriti("spaces", url="ftp://example.com")
    assert bad_url.code == 2
    assert "http://" in bad_url.error_line()

    # Nothing listens on this port: exit 5, naming the URL that was tried.
    down = f"http://127.0.0.1:{free_port()}"
    for args in (("spaces", "--json"), ("head", name), ("commit", name, "-m", "x")):
        result = smriti(*args, url=down)
        assert result.code == 5, args
        assert f"Cannot reach the Smriti server at {down}" in result.error_line()


def test_token_is_sent_and_never_printed(database_url: str, tmp_path: Path) -> None:
    secret = "sk-smriti-" + uuid4().hex
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_API_TOKEN": secret}
    with live_server(env, tmp_path) as guarded:
        name = unique("Guarded")
        refused = smriti("space", "create", name, url=guarded.url)
        assert refused.code == 5
        assert "Set SMRITI_API_TOKEN (or --token)" in refused.error_line()
        wrong = smriti("spaces", "--token", "not-" + secret, url=guarded.url)
        assert wrong.code == 5
        by_flag = smriti("space", "create", name, "--json", "--token", secret, url=guarded.url)
        assert by_flag.json()["name"] == name
        by_env = smriti("head", name, url=guarded.url, env={"SMRITI_API_TOKEN": secret})
        assert by_env.code == 3, "authorised: the Space is found, it just has no HEAD yet"
        committed = smriti("commit", name, "-m", "x", "--token", secret, url=guarded.url)
        assert committed.code == 0
        down = smriti("spaces", "--token", secret, url=f"http://127.0.0.1:{free_port()}")
        assert down.code == 5
    for result in (refused, wrong, by_flag, by_env, committed, down):
        assert secret not in result.stdout + result.stderr


def test_help_lists_every_agent_command_with_exit_codes() -> None:
    top = smriti("--help")
    assert top.code == 0
    commands = ("spaces", "space", "sessions", "session", "mount", "fork", "line", "head", "show", "log", "commit")
    for command in (*commands, "restore", "diff", "review", "verify", "context", "mcp"):
        assert re.search(rf"^  {command} ", top.stdout, re.MULTILINE), command
    assert "3 Space, line, Checkpoint or Session not found" in " ".join(top.stdout.split())
    commit_help = smriti("commit", "--help")
    assert "--expect-head REF|none" in commit_help.stdout
    assert "Exit codes: 0 ok" in commit_help.stdout
