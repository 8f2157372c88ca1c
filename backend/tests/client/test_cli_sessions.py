"""Sessions through the `smriti` CLI (SYSTEM.md §12), run as real subprocesses against `smriti
serve` on a real PostgreSQL: list them with ids, show what the next message and save start from,
mount a Checkpoint (a based Session), delete a Session, delete a Space."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import httpx
import pytest

from tests.support.cli import Run, smriti
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "", "ANTHROPIC_BASE_URL": ""}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline"}
    with live_server(env, tmp_path_factory.mktemp("cli-sessions-logs")) as running:
        yield running


def cli(server: LiveServer, *args: str, **kwargs: Any) -> Run:
    return smriti(*args, url=server.url, **kwargs)


def _space(server: LiveServer) -> dict[str, Any]:
    created: dict[str, Any] = cli(server, "space", "create", f"Sessions {uuid4().hex[:8]}", "--json").json()
    return created


def _send(server: LiveServer, session_id: str, content: str) -> None:
    sent = httpx.post(f"{server.url}/v4/chat/send", json={"session_id": session_id, "content": content}, timeout=30)
    assert sent.status_code == 201, sent.text


def test_mount_starts_a_based_session_and_sessions_lists_it_with_its_lineage(server: LiveServer) -> None:
    space = _space(server)
    name = space["name"]
    plan = cli(server, "commit", name, "--json", "-m", "Plan", "--decision", "Use PostgreSQL").json()
    cli(server, "commit", name, "--json", "-m", "Later", "--decision", "Add a cache").json()

    # From the Space alone: a Session of its own, based on HEAD~1.
    alone = cli(server, "mount", name, "HEAD~1", "--json").json()
    assert (alone["repo_id"], alone["base_commit_id"], alone["forked_from"]) == (space["id"], plan["id"], None)
    assert alone["base_commit_hash"] == plan["commit_hash"]
    assert alone["title"] == "From “Plan”"
    # The CLI names the base by its short hash, as `log` does (issue 44 item 11).
    short = plan["commit_hash"][:7]
    # What its next message receives is on the server: the base, in any client.
    preview = httpx.post(f"{server.url}/v4/chat/context", json={"session_id": alone["id"]}, timeout=30).json()
    assert (preview["checkpoint_id"], preview["checkpoint_from"]) == (plan["id"], "base")

    # From a Session: a fork of it, linked both ways.
    _send(server, alone["id"], "hello")
    continued = cli(server, "mount", name, plan["commit_hash"][:8], "--session", alone["id"], "--json").json()
    assert continued["title"] == f"From “Plan” (fork from {plan['commit_hash'][:7]})"
    assert continued["forked_from"] == {"session_id": alone["id"], "sequence_number": 2, "deleted": False}
    shown = cli(server, "session", "show", alone["id"], "--json").json()
    assert shown["continued_count"] == 1
    assert shown["continued_in"][0]["session_id"] == continued["id"]
    assert shown["continued_in"][0]["base_commit_hash"] == plan["commit_hash"]
    httpx.post(
        f"{server.url}/v4/chat/commit",
        json={"repo_id": space["id"], "message": "Saved from it", "metadata": {"source": {"session_id": alone["id"]}}},
        timeout=30,
    ).raise_for_status()
    last = cli(server, "session", "show", alone["id"], "--json").json()["last_saved"]
    human = cli(server, "session", "show", alone["id"])
    assert human.code == 0, human.stderr
    assert f"Next message receives: Checkpoint {short} (its base) plus all of its Turns." in human.stdout
    assert f"Next save starts from: Checkpoint {last['commit_hash'][:7]}, saved from it last" in human.stdout
    assert f"Continued in 1 Session:\n  {continued['id']} based on {short}, " in human.stdout
    assert plan["id"] not in human.stdout
    assert last["commit_id"] not in human.stdout

    listed = cli(server, "sessions", name, "--json").json()
    assert [s["id"] for s in listed["items"]] == [continued["id"], alone["id"]]
    table = cli(server, "sessions", name)
    assert table.code == 0, table.stderr
    assert table.stdout.splitlines()[0].split() == [
        "ID",
        "TITLE",
        "TURNS",
        "BASED",
        "ON",
        "FORKED",
        "FROM",
        "CONTINUED",
        "IN",
        "UPDATED",
    ]
    assert alone["id"] in table.stdout
    assert short in table.stdout
    assert plan["id"] not in table.stdout
    assert "(2 Sessions)" in table.stdout
    by_title = cli(server, "sessions", name, "--title", "FORK FROM", "--json").json()
    assert [s["id"] for s in by_title["items"]] == [continued["id"]]
    forks = cli(server, "sessions", name, "--forked-from", alone["id"], "--json").json()
    assert [s["id"] for s in forks["items"]] == [continued["id"]]
    # `mount` names the base by its short hash too (the listing above had two Sessions: this is a third).
    mounted = cli(server, "mount", name, "HEAD~2")
    assert mounted.code == 0, mounted.stderr
    assert f"based on Checkpoint {short}: each message" in mounted.stdout
    assert plan["id"] not in mounted.stdout

    # Mistakes: exit codes as the other commands have them.
    assert cli(server, "mount", name, "deadbeef00").code == 3
    assert cli(server, "mount", f"no such {uuid4().hex}", "HEAD").code == 3
    other = _space(server)
    foreign = cli(server, "commit", other["name"], "--json", "-m", "Elsewhere").json()
    elsewhere = cli(server, "mount", name, foreign["id"])
    assert elsewhere.code == 2
    assert "another Space" in elsewhere.error_line()
    wrong_session = cli(server, "mount", other["name"], "HEAD", "--session", alone["id"])
    assert wrong_session.code == 2
    assert "belongs to another Space" in wrong_session.error_line()
    assert cli(server, "session", "show", "chat-1").code == 2
    assert cli(server, "session", "show", str(uuid4())).code == 3


def test_a_session_is_deleted_and_its_checkpoints_stay(server: LiveServer) -> None:
    space = _space(server)
    name = space["name"]
    plan = cli(server, "commit", name, "--json", "-m", "Plan").json()
    session = cli(server, "mount", name, "HEAD", "--json").json()
    _send(server, session["id"], "hello")

    deleted = cli(server, "session", "delete", session["id"])
    assert deleted.code == 0, deleted.stderr
    assert deleted.stdout.strip() == (
        f"Deleted Session {session['id']} “From “Plan”” and its 2 Turns. No Checkpoint was touched."
    )
    assert cli(server, "session", "show", session["id"]).code == 3
    assert cli(server, "session", "delete", session["id"]).code == 3
    assert cli(server, "head", name, "--json").json()["id"] == plan["id"]
    assert cli(server, "sessions", name, "--json").json()["total"] == 0


def test_a_space_is_deleted_only_when_confirmed(server: LiveServer) -> None:
    space = _space(server)
    name = space["name"]
    cli(server, "commit", name, "--json", "-m", "Plan").json()

    # No terminal to ask on, no --yes: nothing is deleted, a usage error says how.
    unasked = cli(server, "space", "delete", name)
    assert unasked.code == 2
    assert "needs --yes" in unasked.error_line()
    assert cli(server, "head", name).code == 0

    gone = cli(server, "space", "delete", name, "--yes", "--json").json()
    assert (gone["id"], gone["name"]) == (space["id"], name)
    assert cli(server, "head", name).code == 3
    assert cli(server, "space", "delete", name, "--yes").code == 3
    # What `smriti import` said to do now works: the Space's bundle imports again after the delete.
    again = _space(server)
    bundle = cli(server, "export", again["name"], "-o", "-")
    assert bundle.code == 0, bundle.stderr
    assert cli(server, "space", "delete", again["id"], "--yes").code == 0
    imported = cli(server, "import", "-", stdin=bundle.stdout)
    assert imported.code == 0, imported.stderr
