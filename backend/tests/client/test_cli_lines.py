"""Lines, carry-forward, restore and forks through the `smriti` CLI, run as real subprocesses
against `smriti serve` on a real PostgreSQL."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import msgspec
import pytest

from smriti.checkpoints.schemas import Checkpoint
from tests.support.cli import Run, smriti
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline"}
    with live_server(env, tmp_path_factory.mktemp("cli-lines-logs")) as running:
        yield running


def unique(name: str) -> str:
    return f"{name} {uuid4().hex[:8]}"


def cli(server: LiveServer, *args: str, **kwargs: Any) -> Run:
    return smriti(*args, url=server.url, **kwargs)


def new_space(server: LiveServer) -> str:
    name = unique("Lines")
    cli(server, "space", "create", name, "--json").json()
    return name


def test_commit_starts_from_the_parents_state(server: LiveServer, tmp_path: Path) -> None:
    name = new_space(server)
    (tmp_path / "plan.md").write_text("# Plan\n")
    first = cli(
        server,
        "commit",
        name,
        "--json",
        "-m",
        "Plan",
        "--summary",
        "Where we are.",
        "--decision",
        "Use PostgreSQL",
        "--assumption",
        "One region",
        "--task",
        "Benchmark",
        "--task",
        "Write docs",
        "--question",
        "Which TTL?",
        "--artifact",
        f"plan={tmp_path / 'plan.md'}",
    ).json()

    # One --decision: everything else of the parent comes along.
    second = cli(server, "commit", name, "--json", "-m", "One more", "--decision", "Cache reads").json()
    assert second["parent_commit_id"] == first["id"]
    assert second["decisions"] == ["Use PostgreSQL", "Cache reads"]
    for field in ("summary", "assumptions", "tasks", "open_questions", "artifacts", "entities"):
        assert second[field] == first[field], field
    assert cli(server, "head", name, "--json").json() == second, "--json prints the Checkpoint, as before"

    # Removing, completing and a new summary, and the output says what changed against the parent.
    third = cli(
        server,
        "commit",
        name,
        "-m",
        "Tidied",
        "--summary",
        "Almost done.",
        "--remove-decision",
        "Cache reads",
        "--remove-assumption",
        "One region",
        "--remove-question",
        "Which TTL?",
        "--remove-task",
        "Write docs",
        "--complete-task",
        "Benchmark",
        "--remove-artifact",
        "plan",
    )
    assert third.code == 0, third.stderr
    out = third.stdout
    assert out.startswith("Saved Checkpoint ")
    assert f"on line main in {name} (its parent is {second['commit_hash'][:7]})" in out
    for expected in (
        "Changes against the parent:",
        "  - Where we are.",
        "  + Almost done.",
        "  - Cache reads",
        "  - One region",
        "  - Which TTL?",
        "  - [ ] Write docs",
        "  ~ Benchmark: open → done",
        "  - plan",
    ):
        assert expected in out, expected
    head = cli(server, "head", name, "--json").json()
    assert head["decisions"] == ["Use PostgreSQL"]
    assert head["tasks"] == [{"text": "Benchmark", "done": True}]
    assert (head["summary"], head["assumptions"], head["open_questions"], head["artifacts"]) == (
        "Almost done.",
        [],
        [],
        [],
    )
    same = cli(server, "commit", name, "-m", "Just a note")
    assert "The state is the parent's; only the message changed." in same.stdout

    # Items the parent lacks, or already has, are refused by name, and nothing is written.
    total = cli(server, "log", name, "--json").json()["total"]
    missing = cli(server, "commit", name, "-m", "x", "--remove-decision", "Never made")
    assert missing.code == 2
    assert "remove.decisions[0]: the parent has no item 'Never made'" in missing.error_line()
    twice = cli(server, "commit", name, "-m", "x", "--decision", "Use PostgreSQL")
    assert twice.code == 2
    assert "add.decisions[0]" in twice.error_line()
    assert "carried forward already" in twice.error_line()
    done_again = cli(server, "commit", name, "-m", "x", "--done-task", "Benchmark")
    assert done_again.code == 2
    assert "use --complete-task TEXT" in done_again.error_line()
    assert cli(server, "commit", name, "-m", "x", "--complete-task", "No such task").code == 2
    assert cli(server, "log", name, "--json").json()["total"] == total

    # --replace: the flags are the whole state, and the output shows what it dropped.
    mixed = cli(server, "commit", name, "-m", "x", "--replace", "--remove-decision", "Use PostgreSQL")
    assert mixed.code == 2
    assert "--remove-decision change the parent's state" in mixed.error_line()
    replaced = cli(server, "commit", name, "-m", "Fresh start", "--replace", "--decision", "Use SQLite")
    assert replaced.code == 0, replaced.stderr
    assert "  - Use PostgreSQL" in replaced.stdout
    assert "  - [x] Benchmark" in replaced.stdout
    head = cli(server, "head", name, "--json").json()
    assert (head["decisions"], head["tasks"], head["summary"]) == (["Use SQLite"], [], "")


def test_lines_list_create_rename_default_delete(server: LiveServer) -> None:
    name = new_space(server)
    quoted = shlex.quote(name)
    one = cli(server, "commit", name, "--json", "-m", "One", "--decision", "A").json()
    two = cli(server, "commit", name, "--json", "-m", "Two", "--decision", "B").json()

    listed = cli(server, "line", "list", name, "--json").json()
    assert [(line["name"], line["head_commit_id"], line["is_default"]) for line in listed["items"]] == [
        ("main", two["id"], True)
    ]
    made = cli(server, "line", "create", name, "feature/idea", "--from", one["commit_hash"][:9], "--json").json()
    assert (made["name"], made["head_commit_id"], made["is_default"]) == ("feature/idea", one["id"], False)
    started = cli(server, "line", "create", name, "from-head")
    assert started.code == 0
    assert f"Started: line from-head of {name} (its HEAD is {two['commit_hash'][:7]})." == started.stdout.strip()
    assert cli(server, "line", "create", name, "FEATURE/IDEA").code == 4, "names are unique ignoring case"
    assert cli(server, "line", "create", name, "x", "--from", "deadbeef00").code == 3

    # A commit to the new line carries that line's state and moves only its HEAD.
    on_line = cli(server, "commit", name, "--json", "--line", "feature/idea", "-m", "Idea", "--decision", "C").json()
    assert (on_line["parent_commit_id"], on_line["decisions"]) == (one["id"], ["A", "C"])
    assert cli(server, "head", name, "--json").json()["id"] == two["id"]
    assert cli(server, "head", name, "--line", "Feature/Idea", "--json").json()["id"] == on_line["id"]
    assert cli(server, "head", name, "--branch", "feature/idea", "--json").json()["id"] == on_line["id"]
    history = cli(server, "log", name, "--line", "feature/idea", "--json").json()
    assert ([c["id"] for c in history["items"]], history["total"]) == ([on_line["id"], one["id"]], 2)
    everything = cli(server, "log", name).stdout.splitlines()
    assert everything[0].startswith(on_line["commit_hash"][:7])
    assert everything[0].endswith("line feature/idea")
    assert everything[1].endswith("HEAD, line from-head")
    human = cli(server, "line", "list", name).stdout
    assert "feature/idea" in human
    assert "default" in human.splitlines()[1]
    # Lines name their HEAD by its short hash, as `log` does (issue 44).
    assert f" {on_line['commit_hash'][:7]} " in human
    assert on_line["id"] not in human
    assert listed["items"][0]["head_commit_hash"] == two["commit_hash"]
    unknown = cli(server, "commit", name, "--line", "nope", "-m", "x")
    assert unknown.code == 3
    assert "no line named 'nope'. `smriti line list SPACE` lists a Space's lines." in unknown.error_line()
    assert cli(server, "log", name, "--line", "nope").code == 3

    # Rename; make default (the Space's HEAD follows); the default line cannot be deleted.
    renamed = cli(server, "line", "rename", name, "feature/idea", "idea", "--json").json()
    assert renamed["name"] == "idea"
    assert cli(server, "line", "rename", name, "idea", "MAIN").code == 4
    assert cli(server, "line", "default", name, "idea", "--json").json()["is_default"] is True
    assert cli(server, "head", name, "--json").json()["id"] == on_line["id"]
    refused = cli(server, "line", "delete", name, "idea")
    assert refused.code == 4
    assert "default line" in refused.error_line()
    deleted = cli(server, "line", "delete", name, "main")
    assert deleted.code == 0
    assert deleted.stdout.startswith("Deleted: line main of ")
    assert cli(server, "line", "delete", name, "main").code == 3
    assert [line["name"] for line in cli(server, "line", "list", name, "--json").json()["items"]] == [
        "idea",
        "from-head",
    ]
    assert cli(server, "show", two["id"], "--json").json()["id"] == two["id"], "deleting a line keeps its Checkpoints"
    assert cli(server, "verify", name).code == 0

    # The brief names the line it is of and the others; its command saves on that line.
    brief = cli(server, "context", name).stdout
    assert "- Line: `idea`, the Space's default line" in brief
    assert f"- Other lines: `from-head` (HEAD `{two['commit_hash'][:7]}`)" in brief
    side = cli(server, "context", name, "--line", "from-head").stdout
    assert "- Line: `from-head` (the Space's default line is `idea`)" in side
    assert f"smriti commit {quoted} --line from-head --expect-head {two['commit_hash'][:7]}" in side
    assert "\n- C\n" not in side, "the brief of from-head holds that line's state, not idea's"
    as_json = cli(server, "context", name, "--line", "from-head", "--json").json()
    assert (as_json["line"], as_json["lines"], as_json["head_commit_id"]) == (
        "from-head",
        ["idea", "from-head"],
        two["id"],
    )


def test_a_parent_that_is_not_the_lines_head_is_refused_with_the_way_to_a_new_line(server: LiveServer) -> None:
    name = new_space(server)
    old = cli(server, "commit", name, "--json", "-m", "Old", "--decision", "A").json()
    new = cli(server, "commit", name, "--json", "-m", "New", "--decision", "B").json()

    ref = old["commit_hash"][:10]
    refused = cli(server, "commit", name, "--parent", ref, "-m", "From the old state", "--decision", "C")
    assert refused.code == 4
    line = refused.error_line()
    assert f"{ref} is not the HEAD of line 'main' (its HEAD is {new['commit_hash'][:7]})" in line
    assert new["id"] not in line  # named by its short hash, as `log` names it (issue 44 item 11)
    suggested = f"smriti line create {shlex.quote(name)} NAME --from {ref}"
    assert f"`{suggested}`" in line
    assert "--line NAME" in line
    assert cli(server, "log", name, "--json").json()["total"] == 2, "nothing was written"
    assert cli(server, "commit", name, "--replace", "--parent", ref, "-m", "x").code == 4

    # Doing what it says works: a new line at the old state, and the commit on it.
    args = shlex.split(suggested.replace("NAME", "from-old"))[1:]
    assert cli(server, *args).code == 0
    continued = cli(server, "commit", name, "--json", "--line", "from-old", "--parent", ref, "-m", "Continued").json()
    assert (continued["parent_commit_id"], continued["decisions"]) == (old["id"], ["A"])
    assert cli(server, "head", name, "--json").json()["id"] == new["id"], "main did not move"

    # The line's HEAD as parent is fine; a stale --expect-head is refused with the same way out.
    on_head = cli(server, "commit", name, "--json", "--parent", new["id"], "-m", "On HEAD").json()
    assert on_head["parent_commit_id"] == new["id"]
    stale = cli(server, "commit", name, "--expect-head", new["id"], "-m", "Late")
    assert stale.code == 4
    assert "HEAD has moved" in stale.error_line()
    assert f"smriti line create {shlex.quote(name)} NAME --from {new['id']}" in stale.error_line()


def test_restore_saves_an_older_state_on_top_of_the_line(server: LiveServer) -> None:
    name = new_space(server)
    old = cli(server, "commit", name, "--json", "-m", "Good", "--summary", "S", "--decision", "A", "--task", "T").json()
    bad = cli(server, "commit", name, "--json", "-m", "Bad", "--remove-decision", "A", "--decision", "Z").json()

    restored = cli(server, "restore", old["commit_hash"][:8], "--json", "--expect-head", bad["id"]).json()
    assert restored["parent_commit_id"] == bad["id"]
    assert restored["message"] == f"Restore {old['commit_hash'][:7]}: Good"
    for field in ("summary", "decisions", "assumptions", "tasks", "open_questions", "entities", "artifacts"):
        assert restored[field] == old[field], field
    assert restored["metadata"]["restored_from"] == {"commit_id": old["id"], "commit_hash": old["commit_hash"]}
    assert cli(server, "head", name, "--json").json()["id"] == restored["id"]
    assert cli(server, "show", bad["id"], "--json").json() == bad, "nothing is edited"

    stale = cli(server, "restore", old["id"], "--expect-head", bad["id"])
    assert stale.code == 4
    assert cli(server, "restore", "deadbeef00").code == 3

    # On another line, with a message; the output says what changed against that line's HEAD.
    assert cli(server, "line", "create", name, "side", "--from", bad["id"]).code == 0
    human = cli(server, "restore", old["id"], "--line", "side", "-m", "Back to good")
    assert human.code == 0, human.stderr
    assert human.stdout.startswith(f"Restored {old['id']} as Checkpoint ")
    assert "“Back to good” on line side" in human.stdout
    assert "  + A" in human.stdout
    assert "  - Z" in human.stdout
    assert cli(server, "head", name, "--line", "side", "--json").json()["message"] == "Back to good"
    assert cli(server, "restore", old["id"], "--line", "nope").code == 3


def test_fork_a_session_from_a_checkpoint(server: LiveServer) -> None:
    name = new_space(server)
    space = cli(server, "spaces", "--json", "--limit", "200").json()["items"]
    space_id = next(s["id"] for s in space if s["name"] == name)
    checkpoint = cli(server, "commit", name, "--json", "-m", "Base", "--decision", "A").json()
    session = httpx.post(f"{server.url}/v4/repos/{space_id}/sessions", json={"title": "Chat"}, timeout=30)
    assert session.status_code == 201, session.text
    origin = session.json()

    forked = cli(
        server, "fork", origin["id"], "--checkpoint", checkpoint["commit_hash"][:9], "--title", "Try B", "--json"
    ).json()
    assert forked["id"] != origin["id"]
    assert (forked["repo_id"], forked["title"], forked["turn_count"]) == (space_id, "Try B", 0)
    assert (forked["base_commit_id"], forked["base_commit_hash"]) == (checkpoint["id"], checkpoint["commit_hash"])
    assert forked["forked_from"] == {"session_id": origin["id"], "sequence_number": 0, "deleted": False}
    human = cli(server, "fork", origin["id"], "--checkpoint", checkpoint["id"])
    assert human.code == 0, human.stderr
    assert human.stdout.startswith("Forked Session ")
    assert (
        f"from Turn 0 of Session {origin['id']}, based on Checkpoint {checkpoint['commit_hash'][:7]}:" in human.stdout
    )

    not_an_id = cli(server, "fork", "chat-1", "--checkpoint", checkpoint["id"])
    assert not_an_id.code == 2
    assert "is not a Session id" in not_an_id.error_line()
    assert cli(server, "fork", str(uuid4()), "--checkpoint", checkpoint["id"]).code == 3
    assert cli(server, "fork", origin["id"], "--checkpoint", "deadbeef00").code == 3
    assert cli(server, "fork", origin["id"]).code == 2, "--checkpoint is required"


def test_json_of_a_commit_on_a_line_is_the_checkpoint(server: LiveServer) -> None:
    """Agents parse `commit --json`: it stays the API's Checkpoint, whatever the line."""
    name = new_space(server)
    assert cli(server, "commit", name, "-m", "Start").code == 0
    assert cli(server, "line", "create", name, "b").code == 0
    saved = cli(server, "commit", name, "--line", "b", "-m", "On b", "--json")
    body = json.loads(saved.stdout)
    assert saved.code == 0
    assert set(body) == {field.encode_name for field in msgspec.structs.fields(Checkpoint)}


def _space_named(server: LiveServer, name: str) -> dict[str, Any]:
    spaces = httpx.get(f"{server.url}/v4/repos", params={"limit": 200}).json()["items"]
    [space] = [space for space in spaces if space["name"] == name]
    found: dict[str, Any] = space
    return found


def test_a_line_name_reaches_its_own_route_and_no_other(server: LiveServer) -> None:
    # `smriti line rename SPACE .. NEW` used to send PATCH /v4/repos/{id}: httpx resolves dot
    # segments, and the Space was renamed. Every segment is encoded now (`..` as %2E%2E), so the
    # server receives the line route with the name as it was given, and says it has no such line.
    name = new_space(server)
    space = _space_named(server, name)
    assert cli(server, "commit", name, "-m", "base").code == 0
    assert cli(server, "line", "create", name, "a/b").code == 0
    for command, wanted in [
        (("line", "rename", name, "..", "renamed-by-line-rename"), ".."),
        (("line", "rename", name, "x/../..", "renamed-by-line-rename"), "x/../.."),
        (("line", "default", name, "."), "."),
        (("line", "delete", name, ".."), ".."),
        (("line", "rename", name, "a%2Fb", "renamed"), "a%2Fb"),  # % is a character, not an escape
    ]:
        run = cli(server, *command)
        assert run.code == 3, (command, run.stderr)
        assert f"no line named {wanted!r}" in run.error_line(), (command, run.stderr)
    # A name with an empty part cannot be sent as meant (the server ignores a trailing `/`, so
    # `main/` would be `main`): the client refuses it, and no line can have one.
    for bad in ("main/", "a//b", "/main"):
        run = cli(server, "line", "delete", name, bad)
        assert run.code == 2, (bad, run.stderr)
        assert "none of them empty" in run.error_line()
    after = _space_named(server, name)
    assert (after["id"], after["name"]) == (space["id"], name)
    listed = cli(server, "line", "list", name, "--json").json()["items"]
    assert [line["name"] for line in listed] == ["main", "a/b"]
