"""The three-way merge of docs/merge.md, "The rules": examples for each rule, then properties."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.checkpoints.schemas import Artifact, Checkpoint, CheckpointContent, Entity, Task
from smriti.merges.schemas import MergeState
from smriti.merges.three_way import MERGE_FIELDS, MergeConflict, MergeOutcome, merge_states, state_of

LIST_FIELDS = MERGE_FIELDS[1:]
TEXT_FIELDS = ("decisions", "assumptions", "open_questions")
Value = str | Task | Entity | Artifact


def merge(base: MergeState, ours: MergeState, theirs: MergeState) -> MergeOutcome:
    return merge_states(base, ours, theirs)


def where(outcome: MergeOutcome) -> list[tuple[str, str | None, int]]:
    return [(c.field, c.key, c.occurrence) for c in outcome.conflicts]


# Examples, rule by rule.


def test_an_item_added_identically_on_both_sides_is_taken_once() -> None:
    base = MergeState(decisions=["x"], entities=[Entity("A")])
    ours = MergeState(decisions=["x", "new"], entities=[Entity("A"), Entity("B", kind="k")])
    theirs = MergeState(decisions=["new", "x"], entities=[Entity("B", kind="k"), Entity("A")])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == []
    assert outcome.merged.decisions == ["x", "new"]
    assert outcome.merged.entities == [Entity("A"), Entity("B", kind="k")]


def test_removed_on_one_side_and_unchanged_on_the_other_is_removed() -> None:
    base = MergeState(decisions=["x", "y"], tasks=[Task("t")], entities=[Entity("A"), Entity("B")])
    ours = MergeState(decisions=["x", "z"], tasks=[Task("t"), Task("u")], entities=[Entity("B")])
    theirs = MergeState(decisions=["y", "w"], tasks=[], entities=[Entity("A"), Entity("B"), Entity("C")])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == []
    assert outcome.merged.decisions == ["z", "w"]
    assert outcome.merged.tasks == [Task("u")]
    assert outcome.merged.entities == [Entity("B"), Entity("C")]


def test_removed_on_one_side_and_changed_on_the_other_is_a_conflict_keeping_ours() -> None:
    base = MergeState(entities=[Entity("A"), Entity("B")], artifacts=[Artifact("f", "1")])
    ours = MergeState(entities=[Entity("B", kind="changed")], artifacts=[Artifact("f", "1"), Artifact("g", "")])
    theirs = MergeState(entities=[Entity("A", kind="changed"), Entity("B")])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == [
        MergeConflict(field="entities", key="A", base=Entity("A"), ours=None, theirs=Entity("A", kind="changed")),
    ]
    # Ours removed A: the conflict keeps it absent. Ours changed B, theirs left it: ours' B.
    assert outcome.merged.entities == [Entity("B", kind="changed")]
    # Theirs removed f, ours left it: removed; g is ours' addition.
    assert outcome.merged.artifacts == [Artifact("g", "")]

    swapped = merge(base, theirs, ours)
    assert swapped.conflicts == [
        MergeConflict(field="entities", key="A", base=Entity("A"), ours=Entity("A", kind="changed"), theirs=None),
    ]
    assert swapped.merged.entities == [Entity("A", kind="changed"), Entity("B", kind="changed")]


def test_an_entity_changed_differently_on_both_sides_is_a_conflict_keeping_ours_in_its_place() -> None:
    base = MergeState(entities=[Entity("A"), Entity("B"), Entity("C")])
    ours = MergeState(entities=[Entity("C"), Entity("B", description="ours"), Entity("A")])
    theirs = MergeState(entities=[Entity("A"), Entity("B", description="theirs"), Entity("C")])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == [
        MergeConflict(
            field="entities",
            key="B",
            base=Entity("B"),
            ours=Entity("B", description="ours"),
            theirs=Entity("B", description="theirs"),
        )
    ]
    assert outcome.merged.entities == ours.entities


def test_a_change_on_theirs_only_lands_in_ours_position() -> None:
    base = MergeState(artifacts=[Artifact("a", "1"), Artifact("b", "1")])
    ours = MergeState(artifacts=[Artifact("b", "1"), Artifact("a", "1"), Artifact("c", "")])
    theirs = MergeState(artifacts=[Artifact("a", "2", "text/markdown"), Artifact("b", "1"), Artifact("d", "")])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == []
    assert outcome.merged.artifacts == [
        Artifact("b", "1"),
        Artifact("a", "2", "text/markdown"),
        Artifact("c", ""),
        Artifact("d", ""),
    ]


def test_a_task_done_on_one_side_only_is_done() -> None:
    base = MergeState(tasks=[Task("t"), Task("u")])
    ours = MergeState(tasks=[Task("t", done=True), Task("u"), Task("v")])
    theirs = MergeState(tasks=[Task("t"), Task("u", done=True)])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == []
    assert outcome.merged.tasks == [Task("t", done=True), Task("u", done=True), Task("v")]


def test_the_same_task_added_on_both_sides_with_different_done_is_a_conflict() -> None:
    base = MergeState()
    ours = MergeState(tasks=[Task("t", done=True)])
    theirs = MergeState(tasks=[Task("t", done=False)])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == [
        MergeConflict(field="tasks", key="t", base=None, ours=Task("t", done=True), theirs=Task("t", done=False))
    ]
    assert outcome.merged.tasks == [Task("t", done=True)]


def test_a_summary_changed_on_one_side_is_taken() -> None:
    base = MergeState(summary="old")
    assert merge(base, MergeState(summary="new"), base) == MergeOutcome(merged=MergeState(summary="new"), conflicts=[])
    assert merge(base, base, MergeState(summary="new")) == MergeOutcome(merged=MergeState(summary="new"), conflicts=[])
    same = merge(base, MergeState(summary="new"), MergeState(summary="new"))
    assert same == MergeOutcome(merged=MergeState(summary="new"), conflicts=[])


def test_a_summary_changed_differently_on_both_sides_is_a_conflict_with_no_key() -> None:
    outcome = merge(MergeState(summary="old"), MergeState(summary="ours"), MergeState(summary="theirs"))
    assert outcome.conflicts == [
        MergeConflict(field="summary", key=None, occurrence=0, base="old", ours="ours", theirs="theirs")
    ]
    assert outcome.merged.summary == "ours"


def test_duplicate_texts_are_separate_items_and_none_is_dropped() -> None:
    # Ours adds a second "a": the second occurrence is ours' addition.
    assert merge(MergeState(decisions=["a"]), MergeState(decisions=["a", "a"]), MergeState(decisions=["a", "b"])) == (
        MergeOutcome(merged=MergeState(decisions=["a", "a", "b"]), conflicts=[])
    )
    # Both add a second "a": the same addition, taken once.
    outcome = merge(MergeState(decisions=["a"]), MergeState(decisions=["a", "a"]), MergeState(decisions=["a", "a"]))
    assert outcome.merged.decisions == ["a", "a"]
    # Ours removes one of two, theirs adds a third: two remain.
    outcome = merge(
        MergeState(decisions=["a", "a"]), MergeState(decisions=["a", "c"]), MergeState(decisions=["a", "a", "a"])
    )
    assert outcome.merged.decisions == ["a", "c", "a"]
    # Duplicated tasks: each occurrence merges on its own, and a conflict names its occurrence.
    base = MergeState(tasks=[Task("t"), Task("t")])
    ours = MergeState(tasks=[Task("t"), Task("t", done=True), Task("x")])
    theirs = MergeState(tasks=[Task("t", done=True)])
    outcome = merge(base, ours, theirs)
    assert outcome.conflicts == [
        MergeConflict(field="tasks", key="t", occurrence=1, base=Task("t"), ours=Task("t", done=True), theirs=None)
    ]
    assert outcome.merged.tasks == [Task("t", done=True), Task("t", done=True), Task("x")]


def test_a_side_that_left_a_field_as_the_base_had_it_gets_the_other_sides_order() -> None:
    base = MergeState(decisions=["a", "b", "c"])
    reordered = MergeState(decisions=["c", "a", "d"])
    assert merge(base, base, reordered).merged.decisions == ["c", "a", "d"]
    assert merge(base, reordered, base).merged.decisions == ["c", "a", "d"]
    # Both changed it: ours' order, then theirs' additions in theirs' order.
    outcome = merge(base, MergeState(decisions=["b", "a", "c", "e"]), MergeState(decisions=["g", "c", "b", "a", "f"]))
    assert outcome.merged.decisions == ["b", "a", "c", "e", "g", "f"]


def test_conflicts_come_in_field_order_then_ours_order_then_theirs() -> None:
    base = MergeState(summary="s", tasks=[Task("p"), Task("q")], entities=[Entity("Z")])
    ours = MergeState(summary="o", tasks=[Task("n", done=True), Task("q", done=True)], entities=[Entity("Y")])
    theirs = MergeState(
        summary="t",
        tasks=[Task("m"), Task("n"), Task("p", done=True), Task("q")],
        entities=[Entity("Y", kind="k"), Entity("Z", kind="k")],
    )
    outcome = merge(base, ours, theirs)
    assert where(outcome) == [
        ("summary", None, 0),
        ("tasks", "n", 0),  # added on both, differently (ours' order first)
        ("tasks", "p", 0),  # removed on ours, changed on theirs (theirs' order after)
        ("entities", "Y", 0),
        ("entities", "Z", 0),
    ]
    assert outcome.merged.tasks == [Task("n", done=True), Task("q", done=True), Task("m")]
    assert outcome.merged.entities == [Entity("Y")]


def test_the_worked_example_of_docs_merge_md() -> None:
    base = MergeState(decisions=["Stay in Baixa"], tasks=[Task("Book hotel", done=False)], summary="A trip to Lisbon.")
    ours = MergeState(
        decisions=["Stay in Baixa", "Day 3: Sintra"],
        tasks=[Task("Book hotel", done=True)],
        summary="A three-day trip to Lisbon.",
    )
    theirs = MergeState(
        decisions=["Stay in Baixa", "Keep it under 900 EUR"],
        tasks=[Task("Book hotel", done=False), Task("Compare flights", done=False)],
        summary="A cheap trip to Lisbon.",
    )
    outcome = merge(base, ours, theirs)
    assert outcome == MergeOutcome(
        merged=MergeState(
            summary="A three-day trip to Lisbon.",
            decisions=["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"],
            tasks=[Task("Book hotel", done=True), Task("Compare flights", done=False)],
        ),
        conflicts=[
            MergeConflict(
                field="summary",
                key=None,
                base="A trip to Lisbon.",
                ours="A three-day trip to Lisbon.",
                theirs="A cheap trip to Lisbon.",
            )
        ],
    )
    # As the endpoint will send it.
    assert msgspec.to_builtins(outcome.conflicts) == [
        {
            "field": "summary",
            "key": None,
            "occurrence": 0,
            "base": "A trip to Lisbon.",
            "ours": "A three-day trip to Lisbon.",
            "theirs": "A cheap trip to Lisbon.",
        }
    ]


def test_with_no_common_ancestor_everything_is_an_addition() -> None:
    ours = MergeState(summary="o", decisions=["a", "b"], entities=[Entity("E")])
    theirs = MergeState(summary="t", decisions=["b", "c"], entities=[Entity("E", kind="k")])
    outcome = merge(state_of(None), ours, theirs)
    assert outcome.merged.decisions == ["a", "b", "c"]
    assert outcome.conflicts == [
        MergeConflict(field="summary", key=None, base="", ours="o", theirs="t"),
        MergeConflict(field="entities", key="E", base=None, ours=Entity("E"), theirs=Entity("E", kind="k")),
    ]


def test_state_of_takes_the_merged_fields_and_copies_the_lists() -> None:
    assert state_of(None) == MergeState()
    fields: dict[str, Any] = {
        "summary": "s",
        "decisions": ["d"],
        "assumptions": ["a"],
        "tasks": [Task("t")],
        "open_questions": ["q"],
        "entities": [Entity("e")],
        "artifacts": [Artifact("f", "c")],
    }
    expected = MergeState(**fields)
    content = CheckpointContent(message="m", metadata={"x": 1}, **fields)
    state = state_of(content)
    assert state == expected
    assert state.decisions is not content.decisions
    row: dict[str, Any] = {
        **fields,
        "id": uuid4(),
        "repo_id": uuid4(),
        "parent_commit_id": None,
        "merge_parent_id": None,
        "commit_hash": "h",
        "message": "m",
        "metadata": {},
        "created_at": datetime.datetime.now(datetime.UTC),
    }
    checkpoint = Checkpoint(**{name: row[name] for name in Checkpoint.__struct_fields__})
    assert state_of(checkpoint) == expected


# Properties, over tiny alphabets so that keys collide and duplicates are common.

texts = st.sampled_from(["a", "b", "c"])
states = st.builds(
    MergeState,
    summary=st.sampled_from(["", "s", "t"]),
    decisions=st.lists(texts, max_size=4),
    assumptions=st.lists(texts, max_size=4),
    tasks=st.lists(st.builds(Task, text=texts, done=st.booleans()), max_size=4),
    open_questions=st.lists(texts, max_size=4),
    entities=st.lists(
        st.builds(Entity, name=texts, kind=st.sampled_from([None, "k"]), description=st.sampled_from([None, "d"])),
        max_size=4,
    ),
    artifacts=st.lists(
        st.builds(
            Artifact,
            name=texts,
            content=st.sampled_from(["", "x"]),
            media_type=st.sampled_from(["text/plain", "text/markdown"]),
        ),
        max_size=4,
    ),
)


@st.composite
def triples(draw: st.DrawFn) -> tuple[MergeState, MergeState, MergeState]:
    """A base and two sides, each side leaving some fields as the base had them."""
    base, ours, theirs = draw(states), draw(states), draw(states)
    for field in MERGE_FIELDS:
        for side in (ours, theirs):
            if draw(st.booleans()):
                setattr(side, field, getattr(base, field))
    return base, ours, theirs


def key_of(item: Value) -> str:
    return item if isinstance(item, str) else item.text if isinstance(item, Task) else item.name


def keyed(items: Sequence[Value]) -> dict[tuple[str, int], Value]:
    """The test's own (key, occurrence) index."""
    counts: dict[str, int] = defaultdict(int)
    index: dict[tuple[str, int], Value] = {}
    for item in items:
        index[key_of(item), counts[key_of(item)]] = item
        counts[key_of(item)] += 1
    return index


def by_key(items: Sequence[Value]) -> dict[str, list[Value]]:
    """The items of each key in list order: a merged list's key->value map up to renumbering."""
    groups: dict[str, list[Value]] = defaultdict(list)
    for item in items:
        groups[key_of(item)].append(item)
    return dict(groups)


def field_of(state: MergeState, field: str) -> list[Value]:
    values: list[Value] = getattr(state, field)
    return values


@settings(max_examples=200)
@given(states)
def test_merging_a_state_with_itself_gives_it_back(x: MergeState) -> None:
    assert merge(x, x, x) == MergeOutcome(merged=x, conflicts=[])


@settings(max_examples=200)
@given(states, states)
def test_a_side_left_as_the_base_takes_the_other_side_exactly(base: MergeState, changed: MergeState) -> None:
    assert merge(base, base, changed) == MergeOutcome(merged=changed, conflicts=[])
    assert merge(base, changed, base) == MergeOutcome(merged=changed, conflicts=[])


@settings(max_examples=200)
@given(triples())
def test_swapping_the_sides_swaps_each_conflict_and_keeps_every_clean_key(
    sides: tuple[MergeState, MergeState, MergeState],
) -> None:
    base, ours, theirs = sides
    forward, backward = merge(base, ours, theirs), merge(base, theirs, ours)
    assert where(forward) == sorted(where(backward), key=where(forward).index)
    swapped = {(c.field, c.key, c.occurrence): (c.base, c.theirs, c.ours) for c in backward.conflicts}
    assert {(c.field, c.key, c.occurrence): (c.base, c.ours, c.theirs) for c in forward.conflicts} == swapped
    conflicted = {(c.field, c.key) for c in forward.conflicts}
    if ("summary", None) not in conflicted:
        assert forward.merged.summary == backward.merged.summary
    for field in LIST_FIELDS:
        there, back = by_key(field_of(forward.merged, field)), by_key(field_of(backward.merged, field))
        for key in there.keys() | back.keys():
            if (field, key) not in conflicted:
                assert there.get(key) == back.get(key), (field, key)


def expected_value(b: Value | None, o: Value | None, t: Value | None) -> tuple[Value | None, bool]:
    """The rules, written out once more: the merged value of one key and whether it conflicts."""
    if o == t:
        return o, False
    if o == b:
        return t, False
    if t == b:
        return o, False
    return o, True


@settings(max_examples=200)
@given(triples())
def test_every_key_is_merged_by_the_rules_and_none_is_lost(sides: tuple[MergeState, MergeState, MergeState]) -> None:
    base, ours, theirs = sides
    outcome = merge(base, ours, theirs)
    expected_conflicts: list[tuple[str, str | None, int]] = []
    summary, conflicted = expected_value(base.summary, ours.summary, theirs.summary)
    assert outcome.merged.summary == summary
    if conflicted:
        expected_conflicts.append(("summary", None, 0))
    for field in LIST_FIELDS:
        b, o, t = (keyed(field_of(state, field)) for state in (base, ours, theirs))
        expected: dict[str, list[Value]] = defaultdict(list)
        for key in [*o, *(k for k in t if k not in o)]:
            value, conflicted = expected_value(b.get(key), o.get(key), t.get(key))
            if conflicted:
                expected_conflicts.append((field, *key))
            if value is not None:
                expected[key[0]].append(value)
        # Same items for every key, in each key's occurrence order; nothing added, nothing lost.
        assert by_key(field_of(outcome.merged, field)) == dict(expected), field
    assert where(outcome) == expected_conflicts
    assert not any(c.field in TEXT_FIELDS for c in outcome.conflicts)


@settings(max_examples=200)
@given(triples())
def test_the_order_is_the_untouched_sides_or_ours_then_theirs_additions(
    sides: tuple[MergeState, MergeState, MergeState],
) -> None:
    base, ours, theirs = sides
    outcome = merge(base, ours, theirs)
    for field in LIST_FIELDS:
        merged, b, o, t = (field_of(state, field) for state in (outcome.merged, base, ours, theirs))
        if o == b:
            assert merged == t, field
        elif t == b:
            assert merged == o, field
        else:
            # Each of ours' keys in ours' order, then theirs' additions in theirs' order, each with its
            # merged value (ours' for a conflict); a key whose value is absent leaves no gap.
            base_keys, ours_keys, theirs_keys = keyed(b), keyed(o), keyed(t)
            order = [*ours_keys, *(k for k in theirs_keys if k not in ours_keys)]
            values = (expected_value(base_keys.get(k), ours_keys.get(k), theirs_keys.get(k))[0] for k in order)
            assert merged == [value for value in values if value is not None], field
