"""`smriti merge`: previews, clean merges, conflicts for a person and their resolution, run as real
subprocesses against `smriti serve` on a real PostgreSQL (docs/merge.md, docs/agents.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_cli_lines import NO_KEYS, cli, unique
from tests.support.cli import Run, smriti
from tests.support.live_server import LiveServer, live_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**NO_KEYS, "DATABASE_URL": database_url, "SMRITI_DEFAULT_PROVIDER": "offline"}
    with live_server(env, tmp_path_factory.mktemp("cli-merge-logs")) as running:
        yield running


def _saved(run: Run) -> dict[str, Any]:
    saved: dict[str, Any] = run.json()
    return saved


def diverged(server: LiveServer) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The worked example of docs/merge.md: `main` and `budget`, both changed since their base, and
    their summaries changed differently (one conflict)."""
    name = unique("Merge")
    cli(server, "space", "create", name, "--json").json()
    base = _saved(
        cli(
            server,
            *("commit", name, "--json", "-m", "base", "--summary", "A trip to Lisbon."),
            *("--decision", "Stay in Baixa", "--task", "Book hotel"),
        )
    )
    assert cli(server, "line", "create", name, "budget").code == 0
    ours = _saved(
        cli(
            server,
            *("commit", name, "--json", "-m", "ours", "--summary", "A three-day trip to Lisbon."),
            *("--decision", "Day 3: Sintra", "--complete-task", "Book hotel"),
        )
    )
    theirs = _saved(
        cli(
            server,
            *("commit", name, "--json", "--line", "budget", "-m", "theirs", "--summary", "A cheap trip to Lisbon."),
            *("--decision", "Keep it under 900 EUR", "--task", "Compare flights"),
        )
    )
    return name, base, ours, theirs


def count(server: LiveServer, name: str) -> int:
    total: int = cli(server, "log", name, "--json", "--limit", "1").json()["total"]
    return total


def head(server: LiveServer, name: str, line: str = "main") -> dict[str, Any]:
    found: dict[str, Any] = cli(server, "head", name, "--line", line, "--json").json()
    return found


def test_a_clean_merge_is_previewed_then_committed_with_commit(server: LiveServer) -> None:
    name = unique("Clean")
    cli(server, "space", "create", name, "--json").json()
    base = _saved(cli(server, "commit", name, "--json", "-m", "base", "--decision", "Stay in Baixa"))
    assert cli(server, "line", "create", name, "budget").code == 0
    ours = _saved(cli(server, "commit", name, "--json", "-m", "ours", "--decision", "Day 3: Sintra"))
    theirs = _saved(cli(server, "commit", name, "--json", "--line", "budget", "-m", "theirs", "--decision", "No taxis"))

    shown = cli(server, "merge", "budget", "--into", "main", "--space", name)
    assert shown.code == 0, shown.stderr
    assert f"Merge budget ({theirs['commit_hash'][:7]} “theirs”) into main ({ours['commit_hash'][:7]} “ours”)" in (
        shown.stdout
    )
    assert f"Base: {base['commit_hash'][:7]} “base”" in shown.stdout
    assert "What the merge changes on main (+ comes in, - goes, ~ changes):\nDecisions\n  + No taxis" in shown.stdout
    assert "No conflicts. Commit the merge with `smriti merge budget --into main --space" in shown.stdout
    assert "--commit`" in shown.stdout
    preview = cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").json()
    assert (preview["ours_commit_id"], preview["theirs_commit_id"]) == (ours["id"], theirs["id"])
    assert (preview["clean"], preview["conflicts"], preview["relation"]) == (True, [], "diverged")
    assert count(server, name) == 3, "a preview writes nothing"

    committed = cli(server, "merge", "budget", "--into", "main", "--space", name, "--commit")
    assert committed.code == 0, committed.stderr
    merge = head(server, name)
    assert committed.stdout.startswith(
        f"Merged budget into main: saved Checkpoint {merge['commit_hash'][:7]} “Merge budget into main”"
    )
    assert "Changes on main:\nDecisions\n  + No taxis" in committed.stdout
    assert (merge["parent_commit_id"], merge["merge_parent_id"]) == (ours["id"], theirs["id"])
    assert merge["decisions"] == ["Stay in Baixa", "Day 3: Sintra", "No taxis"]
    assert merge["metadata"]["author"]["kind"] == "agent"
    assert cli(server, "verify", name).code == 0
    # `show` names both parents by short hash and message: what was merged in, too (issue 44).
    shown_merge = cli(server, "show", "HEAD", "--space", name).stdout
    assert f"Parent     {ours['commit_hash'][:7]} “{ours['message']}”" in shown_merge
    assert f"Merged in  {theirs['commit_hash'][:7]} “{theirs['message']}”" in shown_merge

    # Merged already: nothing comes in, and --commit writes nothing.
    again = cli(server, "merge", "budget", "--into", "main", "--space", name, "--commit")
    assert again.code == 0, again.stderr
    assert "Already up to date: budget is in main's history, so nothing comes in." in again.stdout
    assert count(server, name) == 4

    # A Checkpoint ref knows its Space (no --space); --json prints the saved merge Checkpoint.
    more = _saved(cli(server, "commit", name, "--json", "--line", "budget", "-m", "more", "--decision", "Tram 28"))
    saved = cli(
        server, "merge", more["commit_hash"][:10], "--into", "MAIN", "--commit", "--json", "-m", "Take the tram"
    ).json()
    assert (saved["message"], saved["merge_parent_id"], saved["parent_commit_id"]) == (
        "Take the tram",
        more["id"],
        merge["id"],
    )
    assert saved == head(server, name)


def test_a_clean_merge_names_the_rival_choices_it_keeps(server: LiveServer) -> None:
    """Issue 44: each line changed where to stay; no conflict, both kept, and the preview says so."""
    name = unique("Rivals")
    cli(server, "space", "create", name, "--json").json()
    _saved(cli(server, "commit", name, "--json", "-m", "base", "--decision", "Stay in Alfama"))
    assert cli(server, "line", "create", name, "budget").code == 0
    move = ("--remove-decision", "Stay in Alfama", "--decision")
    _saved(cli(server, "commit", name, "--json", "-m", "ours", *move, "Stay in Baixa"))
    _saved(cli(server, "commit", name, "--json", "--line", "budget", "-m", "theirs", *move, "Stay in Graca"))

    shown = cli(server, "merge", "budget", "--into", "main", "--space", name)
    assert shown.code == 0, shown.stderr
    assert (
        "1 pair of rival choices, no conflict: each line decided differently and the merge keeps both.\n"
        "  “Stay in Baixa” and “Stay in Graca” (two values for one choice)\n"
    ) in shown.stdout
    preview = cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").json()
    assert preview["clean"] is True
    assert [(r["kind"], [ref["index"] for ref in r["refs"]]) for r in preview["rivals"]] == [("same_slot", [0, 1])]
    assert preview["merged"]["decisions"] == ["Stay in Baixa", "Stay in Graca"]
    assert '"rivals" lists decisions the two lines made differently' in preview["how_to_resolve"]


def test_a_conflicting_merge_exits_6_prints_the_conflict_and_commit_writes_nothing(server: LiveServer) -> None:
    name, _base, ours, theirs = diverged(server)
    shown = cli(server, "merge", "budget", "--into", "main", "--space", name)
    assert shown.code == 6, shown.stderr
    assert shown.stderr == ""
    out = shown.stdout
    assert "Decisions\n  + Keep it under 900 EUR\nTasks\n  + [ ] Compare flights" in out
    assert "1 conflict: the merge keeps main's side of each until a person chooses." in out
    assert (
        "Summary\n"
        "  base             A trip to Lisbon.\n"
        "  ours (main)      A three-day trip to Lisbon.\n"
        "  theirs (budget)  A cheap trip to Lisbon.\n"
    ) in out
    assert "--json > merge.json" in out
    assert 'set "choose" on each conflict in it' in out
    assert "--resolve merge.json" in out
    assert "--commit`" not in out

    preview = cli(server, "merge", "budget", "--into", "main", "--space", name, "--json")
    assert preview.code == 6
    body = json.loads(preview.stdout)
    assert body["clean"] is False
    assert body["conflicts"] == [
        {
            "field": "summary",
            "key": None,
            "occurrence": 0,
            "base": "A trip to Lisbon.",
            "ours": "A three-day trip to Lisbon.",
            "theirs": "A cheap trip to Lisbon.",
            "choose": None,
        }
    ]
    assert body["merged"]["summary"] == ours["summary"]
    # The file says, first, how a conflict is marked chosen.
    assert next(iter(body)) == "how_to_resolve"
    assert 'set "choose" to "ours", "theirs" or "base"' in body["how_to_resolve"]
    assert 'set "choose" to "edited"' in body["how_to_resolve"]

    refused = cli(server, "merge", "budget", "--into", "main", "--space", name, "--commit")
    assert refused.code == 6
    assert "Nothing was written." in refused.stdout
    assert "theirs (budget)  A cheap trip to Lisbon." in refused.stdout
    assert count(server, name) == 3
    assert head(server, name)["id"] == ours["id"]
    assert head(server, name, "budget")["id"] == theirs["id"]


def test_resolve_commits_the_edited_merge_as_a_merge_checkpoint(server: LiveServer, tmp_path: Path) -> None:
    name, _base, ours, theirs = diverged(server)
    preview = json.loads(cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").stdout)
    preview["merged"]["summary"] = "A cheap three-day trip to Lisbon."
    preview["conflicts"][0]["choose"] = "edited"
    path = tmp_path / "merge.json"
    path.write_text(json.dumps(preview))

    resolved = cli(server, "merge", "budget", "--into", "main", "--resolve", str(path))
    assert resolved.code == 0, resolved.stderr
    merge = head(server, name)
    assert resolved.stdout.startswith(f"Merged budget into main: saved Checkpoint {merge['commit_hash'][:7]}")
    assert f"with parents {ours['commit_hash'][:7]} (main's previous HEAD) and {theirs['commit_hash'][:7]}" in (
        resolved.stdout
    )
    assert "Summary\n  - A three-day trip to Lisbon.\n  + A cheap three-day trip to Lisbon." in resolved.stdout
    assert merge["message"] == "Merge budget into main"
    assert (merge["parent_commit_id"], merge["merge_parent_id"]) == (ours["id"], theirs["id"])
    assert merge["summary"] == "A cheap three-day trip to Lisbon."
    assert merge["decisions"] == ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"]
    assert merge["tasks"] == [{"text": "Book hotel", "done": True}, {"text": "Compare flights", "done": False}]
    verified = cli(server, "verify", name, "--json")
    assert verified.json() == {"repo_id": merge["repo_id"], "checked": 4, "ok": True, "problems": []}
    assert cli(server, "merge", "budget", "--into", "main", "--space", name).code == 0, "merged: nothing comes in"

    # The same resolution from stdin, into budget, with a message: main is now in budget's history.
    back = json.loads(cli(server, "merge", "main", "--into", "budget", "--space", name, "--json").stdout)
    assert back["relation"] == "fast_forward"
    saved = cli(
        server,
        "merge",
        "main",
        "--into",
        "budget",
        "--space",
        name,
        "--resolve",
        "-",
        "-m",
        "Sync",
        "--json",
        stdin=json.dumps(back),
    ).json()
    assert (saved["message"], saved["merge_parent_id"], saved["summary"]) == (
        "Sync",
        merge["id"],
        "A cheap three-day trip to Lisbon.",
    )
    assert cli(server, "verify", name).code == 0


def test_a_resolution_with_a_conflict_left_unchosen_is_refused_and_writes_nothing(
    server: LiveServer, tmp_path: Path
) -> None:
    """Issue 42, item 4: `--resolve` of the preview as `--json` printed it exited 0, kept main's
    summary, dropped budget's and recorded budget as merged, so the change never came back."""
    name, _base, ours, theirs = diverged(server)
    printed = cli(server, "merge", "budget", "--into", "main", "--space", name, "--json")
    assert printed.code == 6
    preview = json.loads(printed.stdout)
    edited = {**preview, "merged": {**preview["merged"], "summary": "A cheap three-day trip to Lisbon."}}
    path = tmp_path / "merge.json"
    # As printed; with its conflicts deleted; with `merged` edited but the conflict not marked chosen.
    for body in (printed.stdout, json.dumps({**preview, "conflicts": []}), json.dumps(edited)):
        path.write_text(body)
        refused = cli(server, "merge", "budget", "--into", "main", "--resolve", str(path))
        assert refused.code == 6, refused.stderr
        assert refused.stdout == ""
        error = refused.error_line()
        assert "The merge's conflict has no choice: summary. Nothing was written." in error
        assert f'Set "choose" for each in {path} ("how_to_resolve" there says how)' in error
    assert count(server, name) == 3
    assert head(server, name)["id"] == ours["id"]
    # budget is not recorded as merged: its summary is still a conflict to choose.
    again = cli(server, "merge", "budget", "--into", "main", "--space", name, "--json")
    assert again.code == 6
    assert json.loads(again.stdout)["conflicts"][0]["theirs"] == theirs["summary"]

    # Chosen: theirs' summary goes in, with `merged` left as printed.
    preview["conflicts"][0]["choose"] = "theirs"
    saved = cli(server, "merge", "budget", "--into", "main", "--resolve", "-", "--json", stdin=json.dumps(preview))
    assert saved.code == 0, saved.stderr
    merge = saved.json()
    assert (merge["summary"], merge["parent_commit_id"], merge["merge_parent_id"]) == (
        theirs["summary"],
        ours["id"],
        theirs["id"],
    )
    assert merge["decisions"] == ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"]
    assert cli(server, "merge", "budget", "--into", "main", "--space", name).code == 0, "merged: nothing comes in"


def test_resolve_after_the_line_merged_in_moved_is_a_conflict_and_writes_nothing(server: LiveServer) -> None:
    name, _base, ours, theirs = diverged(server)
    preview = json.loads(cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").stdout)
    preview["conflicts"][0]["choose"] = "theirs"
    more = _saved(cli(server, "commit", name, "--json", "--line", "budget", "-m", "more", "--decision", "No taxis"))

    late = cli(
        server, "merge", "budget", "--into", "main", "--space", name, "--resolve", "-", stdin=json.dumps(preview)
    )
    assert late.code == 4, late.stderr
    error = late.error_line()
    assert (
        f"budget is {more['commit_hash'][:7]} now, but the resolution is of a merge of {theirs['commit_hash'][:7]}. "
        "Nothing was written."
    ) in error
    assert f"Run `smriti merge budget --into main --space '{name}'` again" in error
    assert count(server, name) == 4
    assert head(server, name)["id"] == ours["id"]


def test_resolve_after_the_line_moved_is_a_conflict_and_writes_nothing(server: LiveServer, tmp_path: Path) -> None:
    name, _base, ours, _theirs = diverged(server)
    preview = json.loads(cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").stdout)
    path = tmp_path / "merge.json"
    path.write_text(json.dumps(preview))
    moved = _saved(cli(server, "commit", name, "--json", "-m", "meanwhile", "--decision", "Day 4: Cascais"))

    late = cli(server, "merge", "budget", "--into", "main", "--space", name, "--resolve", str(path))
    assert late.code == 4
    error = late.error_line()
    moved_to, previewed = moved["commit_hash"][:7], ours["commit_hash"][:7]
    assert f"Line 'main' has moved since the merge was previewed: its HEAD is {moved_to}, not {previewed}" in error
    assert "Nothing was written." in error
    assert f"Run `smriti merge budget --into main --space '{name}'` again" in error
    assert count(server, name) == 4
    assert head(server, name)["id"] == moved["id"]


def test_bad_names_and_bad_resolutions_are_refused(server: LiveServer, tmp_path: Path) -> None:
    name, _base, _ours, theirs = diverged(server)
    # Unknown names exit as `smriti show` does for an unknown ref: not found.
    not_found = cli(server, "show", "deadbeef00").code
    assert not_found == 3
    cases: tuple[tuple[tuple[str, ...], str], ...] = (
        (("nope", "--into", "main", "--space", name), "This Space has no line named 'nope'."),
        (("budget", "--into", "nope", "--space", name), "This Space has no line named 'nope'."),
        (("deadbeef00", "--into", "main"), "If 'deadbeef00' is a line's name, give its Space with --space."),
        (("budget", "--into", "main", "--space", unique("No such Space")), "No Space named"),
    )
    for args, message in cases:
        run = cli(server, "merge", *args)
        assert run.code == not_found, (args, run.stderr)
        assert message in run.error_line()
    cases = (
        (("budget", "--into", "main"), "if it is a line's name, give its Space with --space"),
        (("main", "--into", "main", "--space", name), "a line merged into itself changes nothing"),
        (("budget", "--into", "main", "--space", name, "-m", "x"), "--message names the merge Checkpoint"),
    )
    for args, message in cases:
        run = cli(server, "merge", *args)
        assert run.code == 2, (args, run.stderr)
        assert message in run.error_line()

    preview = json.loads(cli(server, "merge", "budget", "--into", "main", "--space", name, "--json").stdout)
    missing = {**preview, "merged": {k: v for k, v in preview["merged"].items() if k != "tasks"}}
    unknown = {**preview, "merged": {**preview["merged"], "notes": []}}
    conflict = preview["conflicts"][0]
    edited = {**preview["merged"], "summary": "Mine"}
    stray = {"field": "tasks", "key": "Book hotl", "choose": "theirs"}
    for body, message in (
        ({**preview, "conflicts": [{**conflict, "choose": "mine"}]}, "conflicts[0].choose: Invalid enum value 'mine'"),
        ({**preview, "conflicts": [{**conflict, "chose": "ours"}]}, "unknown field `chose`"),
        (
            {**preview, "conflicts": [{**conflict, "choose": "theirs"}], "merged": edited},
            'summary: "choose" is "theirs", but "merged" was edited there too',
        ),
        (
            {**preview, "conflicts": [{**conflict, "choose": "ours"}, stray]},
            'conflicts[1] (tasks "Book hotl") is not a conflict of this merge, whose conflicts are: summary.',
        ),
        (
            {**preview, "conflicts": [{**conflict, "choose": "ours"}, {**conflict, "choose": "theirs"}]},
            "conflicts[0] and conflicts[1] are both summary: give one choice for it.",
        ),
        (missing, "merged: Object missing required field `tasks`"),
        (unknown, "merged: Object contains unknown field `notes`"),
        ({"merged": preview["merged"]}, "Object missing required field `ours_commit_id`"),
        ([preview], "must hold a merge preview as a JSON object"),
    ):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(body))
        run = cli(server, "merge", "budget", "--into", "main", "--resolve", str(path))
        assert run.code == 2, run.stderr
        assert message in run.error_line()
    both = cli(server, "merge", "budget", "--into", "main", "--space", name, "--commit", "--resolve", "-", stdin="{}")
    assert both.code == 2
    assert "give one of them" in both.error_line()
    assert count(server, name) == 3
    assert head(server, name, "budget")["id"] == theirs["id"]


def _squashed(text: str) -> str:
    return " ".join(text.split())


def test_help_documents_merge_and_its_exit_code() -> None:
    top = cli_help("--help")
    assert "  merge " in top
    assert "6 merge conflicts for a person to resolve" in _squashed(top)
    merge = cli_help("merge", "--help")
    for flag in ("--into LINE", "--space SPACE", "--commit", "--resolve FILE", "--message"):
        assert flag in merge, flag
    assert "Exits 6 when there are conflicts" in _squashed(merge)


def cli_help(*args: str) -> str:
    run = smriti(*args)
    assert run.code == 0, run.stderr
    return run.stdout


def test_a_merge_keeps_the_lines_metadata_but_not_its_provenance(server: LiveServer, tmp_path: Path) -> None:
    name = unique("Metadata")
    cli(server, "space", "create", name, "--json").json()
    _saved(cli(server, "commit", name, "--json", "-m", "base", "--decision", "Stay in Baixa"))
    assert cli(server, "line", "create", name, "budget").code == 0
    state = {"message": "ours", "decisions": ["Day 3"], "metadata": {"ticket": "TRIP-7"}}
    (tmp_path / "ours.json").write_text(json.dumps(state))
    _saved(cli(server, "commit", name, "--json", "--file", str(tmp_path / "ours.json"), "--author", "planner"))
    _saved(cli(server, "commit", name, "--json", "--line", "budget", "-m", "theirs", "--decision", "No taxis"))
    committed = cli(server, "merge", "budget", "--into", "main", "--space", name, "--commit", "--author", "merger")
    assert committed.code == 0, committed.stderr
    merge = head(server, name)
    assert merge["metadata"] == {"ticket": "TRIP-7", "author": {"kind": "agent", "name": "merger"}}
