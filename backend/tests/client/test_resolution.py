"""The rule a merge resolution is held to (`smriti.client.resolution`): every conflict of the merge
has a person's choice, and each choice lands where the conflict is. The previews are the server's
own three-way merge (`merges/three_way.py`) as the client receives them; `smriti merge --resolve`
and MCP `commit_merge` run the same code against a live server (test_cli_merge, test_mcp_merge)."""

from __future__ import annotations

from collections import Counter
from typing import Any
from uuid import uuid4

import msgspec
import pytest
from hypothesis import given, settings

from smriti.checkpoints.schemas import Artifact, Entity, Task
from smriti.client.errors import InvalidInput, OpenConflicts
from smriti.client.resolution import Resolution, chosen_state, resolution_from, settle, to_resolve
from smriti.merges.schemas import MergePreview, MergeState
from smriti.merges.service import conflicting_item
from smriti.merges.three_way import MERGE_FIELDS, merge_states
from tests.merges.test_three_way import triples

HOW = "Choose, then run again."


def preview_of(base: MergeState, ours: MergeState, theirs: MergeState) -> MergePreview:
    """The server's preview of these three states, as the client decodes it off the wire."""
    outcome = merge_states(base, ours, theirs)
    wire = {
        "base_commit_id": uuid4(),
        "base_candidates": [],
        "ours_commit_id": uuid4(),
        "theirs_commit_id": uuid4(),
        "relation": "diverged",
        "merged": outcome.merged,
        "conflicts": [conflicting_item(conflict) for conflict in outcome.conflicts],
        "clean": not outcome.conflicts,
        "rivals": [],
    }
    return msgspec.json.decode(msgspec.json.encode(wire), type=MergePreview)


def resolved(preview: MergePreview, *choices: str | None, merged: dict[str, Any] | None = None) -> Resolution:
    """The preview as `--json` prints it, with `choose` set in order, read back as a file is."""
    document = msgspec.to_builtins(to_resolve(preview))
    for conflict, choice in zip(document["conflicts"], choices, strict=True):
        conflict["choose"] = choice
    if merged is not None:
        document["merged"].update(merged)
    return resolution_from(msgspec.json.decode(msgspec.json.encode(document)), source="merge.json")


def test_each_side_chosen_lands_where_the_conflict_is() -> None:
    base = MergeState(
        summary="A trip.",
        tasks=[Task("Book hotel"), Task("Pack")],
        entities=[Entity("Ana"), Entity("Rui")],
        artifacts=[Artifact("plan.md", "v1")],
    )
    ours = MergeState(
        summary="A long trip.",
        tasks=[Task("Pack", done=True)],  # "Book hotel" removed here, changed there
        entities=[Entity("Ana", kind="guide"), Entity("Rui")],
        artifacts=[Artifact("plan.md", "v2")],
    )
    theirs = MergeState(
        summary="A cheap trip.",
        tasks=[Task("Book hotel", done=True), Task("Pack")],
        entities=[Entity("Ana", kind="friend"), Entity("Rui"), Entity("Eva")],
        artifacts=[],  # plan.md removed here, changed there
    )
    preview = preview_of(base, ours, theirs)
    assert [(c.field, c.key) for c in preview.conflicts] == [
        ("summary", None),
        ("tasks", "Book hotel"),
        ("entities", "Ana"),
        ("artifacts", "plan.md"),
    ]

    all_theirs = chosen_state(preview, resolved(preview, "theirs", "theirs", "theirs", "theirs"), how=HOW)
    assert all_theirs.summary == "A cheap trip."
    # Ours had no "Book hotel": theirs' goes at the end, as theirs' additions do.
    assert all_theirs.tasks == [Task("Pack", done=True), Task("Book hotel", done=True)]
    # "Ana" keeps her place; "Eva" came in cleanly.
    assert all_theirs.entities == [Entity("Ana", kind="friend"), Entity("Rui"), Entity("Eva")]
    assert all_theirs.artifacts == []

    all_base = chosen_state(preview, resolved(preview, "base", "base", "base", "base"), how=HOW)
    assert all_base.summary == "A trip."
    assert all_base.tasks == [Task("Pack", done=True), Task("Book hotel")]
    assert all_base.entities == [Entity("Ana"), Entity("Rui"), Entity("Eva")]
    assert all_base.artifacts == [Artifact("plan.md", "v1")]

    all_ours = chosen_state(preview, resolved(preview, "ours", "ours", "ours", "ours"), how=HOW)
    assert all_ours == preview.merged

    # "edited" takes what the person wrote in `merged` for the item; the rest are taken as chosen.
    mine = resolved(
        preview,
        "edited",
        "theirs",
        "edited",
        "ours",
        merged={"summary": "Mine.", "entities": [{"name": "Ana", "kind": "both"}, {"name": "Rui"}, {"name": "Eva"}]},
    )
    state = chosen_state(preview, mine, how=HOW)
    assert (state.summary, state.entities[0], state.tasks[-1], state.artifacts) == (
        "Mine.",
        Entity("Ana", kind="both"),
        Task("Book hotel", done=True),
        [Artifact("plan.md", "v2")],
    )


def test_a_conflict_among_duplicate_texts_resolves_its_own_occurrence() -> None:
    base = MergeState(tasks=[Task("t"), Task("t")])
    ours = MergeState(tasks=[Task("t", done=True), Task("t", done=True)])
    theirs = MergeState(tasks=[Task("t")])  # the second "t" removed here, done there
    preview = preview_of(base, ours, theirs)
    assert [(c.key, c.occurrence, c.theirs) for c in preview.conflicts] == [("t", 1, None)]
    assert chosen_state(preview, resolved(preview, "theirs"), how=HOW).tasks == [Task("t", done=True)]
    assert chosen_state(preview, resolved(preview, "base"), how=HOW).tasks == [Task("t", done=True), Task("t")]


def test_a_resolution_without_a_choice_for_every_conflict_is_refused_naming_each() -> None:
    base = MergeState(summary="s", tasks=[Task(f"task {i}") for i in range(25)])
    ours = MergeState(summary="ours", tasks=[Task(f"task {i}", done=True) for i in range(25)])
    theirs = MergeState(summary="theirs", tasks=[])
    preview = preview_of(base, ours, theirs)
    assert len(preview.conflicts) == 26

    with pytest.raises(OpenConflicts) as unchosen:
        chosen_state(preview, resolved(preview, *[None] * 26), how=HOW)
    named = ", ".join(f'tasks "task {i}"' for i in range(19))
    assert unchosen.value.detail == (
        f"26 of the merge's 26 conflicts have no choice: summary, {named} and 6 more. Nothing was written. {HOW}"
    )
    assert unchosen.value.exit_code == 6

    # Every conflict but one chosen: that one is named. Deleting the conflicts chooses nothing.
    with pytest.raises(OpenConflicts, match=r'^1 of the merge\'s 26 conflicts has no choice: tasks "task 7"\. '):
        chosen_state(preview, resolved(preview, *["ours"] * 8, None, *["ours"] * 17), how=HOW)
    deleted = msgspec.structs.replace(resolved(preview, *["ours"] * 26), conflicts=[])
    with pytest.raises(OpenConflicts, match=r"^26 of the merge's 26 conflicts have no choice: summary, "):
        chosen_state(preview, deleted, how=HOW)


def test_a_side_chosen_for_an_item_edited_in_merged_is_refused() -> None:
    base = MergeState(summary="s", entities=[Entity("Ana")])
    ours = MergeState(summary="ours", entities=[Entity("Ana", kind="guide")])
    theirs = MergeState(summary="theirs", entities=[Entity("Ana", kind="friend")])
    preview = preview_of(base, ours, theirs)
    edited_summary = resolved(preview, "theirs", "ours", merged={"summary": "mine"})
    with pytest.raises(InvalidInput, match=r'^summary: "choose" is "theirs", but "merged" was edited there too'):
        chosen_state(preview, edited_summary, how=HOW)
    renamed = resolved(preview, "ours", "base", merged={"entities": [{"name": "Ana", "kind": "mine"}]})
    with pytest.raises(InvalidInput, match=r'^entities "Ana": "choose" is "base", but "merged" was edited there'):
        chosen_state(preview, renamed, how=HOW)
    # Chosen "edited", the same edits are what is saved.
    state = chosen_state(preview, resolved(preview, "edited", "edited", merged={"summary": "mine"}), how=HOW)
    assert (state.summary, state.entities) == ("mine", [Entity("Ana", kind="guide")])


@settings(max_examples=400, deadline=None)
@given(triples())
def test_choosing_a_side_for_every_conflict_swaps_exactly_those_items(
    sides: tuple[MergeState, MergeState, MergeState],
) -> None:
    preview = preview_of(*sides)
    count = len(preview.conflicts)
    assert chosen_state(preview, resolved(preview, *["ours"] * count), how=HOW) == preview.merged
    state = chosen_state(preview, resolved(preview, *["theirs"] * count), how=HOW)
    for field in MERGE_FIELDS[1:]:
        # Each conflict's ours item goes out, once, and its theirs item comes in; nothing else moves.
        expected = Counter(_encoded(getattr(preview.merged, field)))
        for conflict in (c for c in preview.conflicts if c.field == field):
            if conflict.ours is not None:
                expected[_encoded([conflict.ours])[0]] -= 1
            if conflict.theirs is not None:
                expected[_encoded([conflict.theirs])[0]] += 1
        assert Counter(_encoded(getattr(state, field))) == +expected
    summary = next((c for c in preview.conflicts if c.field == "summary"), None)
    assert state.summary == (summary.theirs if summary else preview.merged.summary)


def _encoded(items: list[Any]) -> list[bytes]:
    return [msgspec.json.encode(msgspec.to_builtins(item), order="sorted") for item in items]


def test_a_choice_for_no_conflict_of_the_merge_or_two_for_one_are_refused() -> None:
    preview = preview_of(MergeState(summary="s"), MergeState(summary="o"), MergeState(summary="t"))
    stray = msgspec.to_builtins(to_resolve(preview))
    stray["conflicts"][0]["choose"] = "ours"
    stray["conflicts"].append({"field": "tasks", "key": "Book hotl", "occurrence": 0, "choose": "theirs"})
    with pytest.raises(InvalidInput, match=r'^conflicts\[1\] \(tasks "Book hotl"\) is not a conflict of this merge'):
        chosen_state(preview, resolution_from(stray, source="merge.json"), how=HOW)
    stray["conflicts"][1] = {**stray["conflicts"][0], "choose": "theirs"}
    with pytest.raises(InvalidInput, match=r"^conflicts\[0\] and conflicts\[1\] are both summary: give one choice"):
        chosen_state(preview, resolution_from(stray, source="merge.json"), how=HOW)


def test_the_preview_handed_out_says_how_to_resolve_it() -> None:
    conflicted = to_resolve(preview_of(MergeState(summary="s"), MergeState(summary="o"), MergeState(summary="t")))
    assert 'set "choose" to "ours", "theirs" or' in conflicted.how_to_resolve
    assert [conflict.choose for conflict in conflicted.conflicts] == [None]
    assert list(msgspec.to_builtins(conflicted))[:4] == ["how_to_resolve", "clean", "relation", "conflicts"]
    clean = to_resolve(preview_of(MergeState(), MergeState(summary="o"), MergeState()))
    assert clean.how_to_resolve == 'No conflicts: "merged" can be committed as it is.'
    assert isinstance(clean.merged, MergeState)


async def test_a_large_resolution_is_settled_as_a_small_one_is() -> None:
    """Past 2,000 items `settle` runs off the event loop (MCP over HTTP runs in the API's process);
    the answer is the same."""
    base = MergeState(tasks=[Task(f"task {i}") for i in range(1_500)])
    ours = MergeState(tasks=[Task(f"task {i}", done=True) for i in range(1_500)])
    theirs = MergeState(tasks=[Task(f"task {i}") for i in range(0, 1_500, 2)])
    preview = preview_of(base, ours, theirs)
    resolution = resolved(preview, *["theirs"] * len(preview.conflicts))
    assert len(preview.conflicts) == 750
    state = await settle(preview, resolution, how=HOW)
    assert state == chosen_state(preview, resolution, how=HOW)
    assert state.tasks == [Task(f"task {i}", done=True) for i in range(0, 1_500, 2)]
    with pytest.raises(OpenConflicts):
        await settle(preview, resolved(preview, *[None] * 750), how=HOW)
