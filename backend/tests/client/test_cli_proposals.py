"""`smriti agent …`, `smriti propose`, `smriti proposals` and `smriti proposal show|merge|close`, run
as real subprocesses against `smriti serve` with SMRITI_API_TOKEN set (SYSTEM.md §13)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_cli_lines import NO_KEYS, unique
from tests.support.cli import Run, smriti
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow

PERSON = "person-" + "p" * 30


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline", "SMRITI_API_TOKEN": PERSON}
    with live_server(env, tmp_path_factory.mktemp("cli-proposals-logs")) as running:
        yield running


def as_(server: LiveServer, token: str, *args: str, **kwargs: Any) -> Run:
    return smriti(*args, url=server.url, env={"SMRITI_API_TOKEN": token}, **kwargs)


def test_an_agent_proposes_and_the_person_reviews_and_merges(server: LiveServer, tmp_path: Path) -> None:
    name = unique("Proposals")
    person = functools.partial(as_, server, PERSON)
    person("space", "create", name, "--json").json()
    person("commit", name, "--json", "-m", "base", "--summary", "A trip.", "--decision", "Stay in Baixa").json()

    made = person("agent", "create", "planner", "--json").json()
    key = made["token"]
    assert key.startswith("smr_")
    shown = person("agent", "create", "reader", "--read-only", "--space", name)
    assert shown.code == 0
    reader_key = shown.stdout.splitlines()[1]
    assert reader_key.startswith("smr_")
    assert "only time" in shown.stdout
    listed = person("agent", "list", "--json").json()
    assert {"planner", "reader"} <= {item["name"] for item in listed["items"]}
    assert "smr_" not in json.dumps(listed)
    agent = functools.partial(as_, server, key)
    assert agent("agent", "list").code == 7

    assert agent("line", "create", name, "work").code == 0
    agent("commit", name, "--json", "--line", "work", "-m", "Sintra", "--decision", "Day 3: Sintra").json()
    opened = agent("propose", name, "--from", "work", "--title", "Add Sintra", "-d", "A day trip.", "--json").json()
    assert (opened["number"], opened["status"], opened["relation"]) == (1, "open", "fast_forward")
    assert opened["created_by"]["name"] == "planner"
    again = agent("propose", name, "--from", "work", "--title", "Again")
    assert again.code == 4
    assert "#1" in again.error_line()
    assert as_(server, reader_key, "propose", name, "--from", "work", "--title", "No").code == 7

    listing = agent("proposals", name)
    assert listing.code == 0
    assert "#1" in listing.stdout
    assert "agent planner" in listing.stdout
    assert agent("proposals", name, "--status", "merged", "--json").json()["total"] == 0

    refused = agent("proposal", "merge", name, "1")
    assert refused.code == 7
    assert "person" in refused.error_line()
    shown_text = person("proposal", "show", name, "1")
    assert "No conflicts" in shown_text.stdout
    assert "work → main" in shown_text.stdout
    merged = person("proposal", "merge", name, "1", "--json").json()
    assert merged["status"] == "merged"
    head = person("head", name, "--json").json()
    assert head["id"] == merged["merge_commit_id"]
    assert head["decisions"] == ["Stay in Baixa", "Day 3: Sintra"]
    assert person("proposal", "merge", name, "1").code == 4


def test_conflicts_wait_for_the_persons_resolution_and_closing(server: LiveServer, tmp_path: Path) -> None:
    name = unique("Conflicts")
    person = functools.partial(as_, server, PERSON)
    person("space", "create", name, "--json").json()
    person("commit", name, "--json", "-m", "base", "--summary", "A trip.").json()
    assert person("line", "create", name, "cheap").code == 0
    person("commit", name, "--json", "-m", "ours", "--summary", "A long trip.").json()
    person("commit", name, "--json", "--line", "cheap", "-m", "theirs", "--summary", "A cheap trip.").json()
    key = person("agent", "create", "closer", "--json").json()["token"]
    opened = as_(server, key, "propose", name, "--from", "cheap", "--title", "Cheaper", "--json").json()
    assert len(opened["conflicts"]) == 1

    waiting = person("proposal", "merge", name, "1")
    assert waiting.code == 6
    assert "Nothing was written" in waiting.stdout
    assert person("proposals", name, "--status", "open", "--json").json()["total"] == 1
    resolved = {**opened["preview"]["merged"], "summary": "A long, cheap trip."}
    (tmp_path / "merged.json").write_text(json.dumps(resolved))
    done = person("proposal", "merge", name, "1", "--merged", str(tmp_path / "merged.json"), "-m", "Both", "--json")
    assert done.json()["status"] == "merged"
    assert person("head", name, "--json").json()["summary"] == "A long, cheap trip."

    # The agent closes its own proposal; not open any more is a conflict, none such is not found.
    assert person("line", "create", name, "later").code == 0
    as_(server, key, "propose", name, "--from", "later", "--title", "Later", "--json").json()
    closed = as_(server, key, "proposal", "close", name, "2", "--reason", "Not needed", "--json").json()
    assert (closed["status"], closed["closed_reason"]) == ("closed", "Not needed")
    assert as_(server, key, "proposal", "close", name, "2").code == 4
    assert person("proposal", "show", name, "9").code == 3
    assert person("proposal", "show", name, "0").code == 2
    bad = person("proposal", "merge", name, "2", "--merged", "-", stdin="{nope")
    assert "not valid JSON" in bad.error_line()
    assert bad.code == 2
    wrong = person("proposal", "merge", name, "2", "--merged", "-", stdin='{"summary": 3}')
    assert "summary" in wrong.error_line()
    assert wrong.code == 2

    # Revoked, the key is refused.
    agents = person("agent", "list", "--json").json()["items"]
    closer = next(item for item in agents if item["name"] == "closer")
    assert person("agent", "revoke", closer["id"]).code == 0
    assert as_(server, key, "proposals", name).code == 5
    assert person("agent", "revoke", "not-an-id").code == 2


def test_the_person_protects_a_line_and_an_agent_is_told_to_propose(server: LiveServer) -> None:
    name = unique("Protected")
    person = functools.partial(as_, server, PERSON)
    person("space", "create", name, "--json").json()
    person("commit", name, "--json", "-m", "base").json()
    key = person("agent", "create", "worker", "--space", name, "--json").json()["token"]
    agent = functools.partial(as_, server, key)
    assert agent("line", "protect", name, "main").code == 7  # only the person
    protected = person("line", "protect", name, "main")
    assert protected.code == 0
    assert "protected" in protected.stdout
    assert "default, protected" in person("line", "list", name).stdout
    refused = agent("commit", name, "-m", "straight to main")
    assert refused.code == 7
    assert "smriti propose" in refused.error_line()
    assert person("head", name, "--json").json()["message"] == "base"
    assert person("line", "protect", name, "main", "--off", "--json").json()["protected"] is False
    assert agent("commit", name, "-m", "now it may").code == 0
