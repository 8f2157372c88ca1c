"""The states of the merge-preview fixtures (`bench/merges.py`): a base Checkpoint with 1,000
items (250 decisions, 250 tasks, 250 entities, 250 artifacts of a few hundred bytes), and each
side's changes to it, made step by step (additions on both sides, the same change on both, tasks
done, entities and artifacts changed, a few removals, and 12 conflicts)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

ITEMS_PER_FIELD = 250
THEIRS_LINE = "research"
"""The second line of every merge fixture: the merge previews merge it into the default line."""

_TOPICS = [
    "storage layer",
    "sync protocol",
    "search index",
    "billing export",
    "onboarding flow",
    "audit log",
    "rate limiter",
    "mobile client",
    "backup policy",
    "access control",
]

State = dict[str, Any]
Change = Callable[[State], None]


def _topic(i: int) -> str:
    return _TOPICS[i % len(_TOPICS)]


def base_state() -> State:
    """1,000 items: realistic text, a few hundred bytes per artifact."""
    return {
        "summary": "A year-long plan for the platform: what was decided, what is left, who and what it involves.",
        "decisions": [
            f"Decision {i}: keep the {_topic(i)} behind one interface and review it every quarter (ref D-{i:04d})."
            for i in range(ITEMS_PER_FIELD)
        ],
        "assumptions": [],
        "tasks": [
            {"text": f"Task {i}: write the migration notes for the {_topic(i)} (owner team {i % 7})", "done": False}
            for i in range(ITEMS_PER_FIELD)
        ],
        "open_questions": [],
        "entities": [
            {
                "name": f"Entity {i}: {_topic(i)} service {i}",
                "kind": ["service", "team", "vendor", "dataset"][i % 4],
                "description": f"Owns part of the {_topic(i)}; talks to entities {(i + 1) % 250} and "
                f"{(i + 7) % 250}; on call in week {i % 52}.",
            }
            for i in range(ITEMS_PER_FIELD)
        ],
        "artifacts": [
            {
                "name": f"notes/{_topic(i).replace(' ', '-')}-{i:03d}.md",
                "content": f"# Notes {i} on the {_topic(i)}\n\n"
                + (
                    f"The {_topic(i)} is measured weekly; item {i} tracks its error budget, the owners "
                    f"and the open risks. Changes go through review and are rolled out behind a flag. "
                )
                * 3,
                "media_type": "text/markdown",
            }
            for i in range(ITEMS_PER_FIELD)
        ],
    }


def _key(field: str, item: Any) -> str:
    return item if isinstance(item, str) else item["name" if field in ("entities", "artifacts") else "text"]


def _add(field: str, item: Any) -> Change:
    return lambda state: state[field].append(item)


def _remove(field: str, key: str) -> Change:
    def change(state: State) -> None:
        state[field] = [item for item in state[field] if _key(field, item) != key]

    return change


def _replace(field: str, key: str, update: dict[str, Any]) -> Change:
    def change(state: State) -> None:
        state[field] = [{**item, **update} if _key(field, item) == key else item for item in state[field]]

    return change


def _summary(text: str) -> Change:
    return lambda state: state.__setitem__("summary", text)


def side_changes(base: State, side: str) -> list[Change]:
    """One side's changes, in the order its Checkpoints make them (shuffled, the same every run):
    additions on both sides, the same changes on both, its own entities and artifacts changed,
    removals, and the same items changed differently on both sides (12 conflicts in all)."""
    ours = side == "ours"
    d, t, e, a = (base[field] for field in ("decisions", "tasks", "entities", "artifacts"))
    changes: list[Change] = [_add("decisions", f"Decision on {side} {n}: ship it in stages.") for n in range(25)]
    changes += [_add("decisions", f"Decision on both {n}: freeze the schema before the launch.") for n in range(3)]
    removed = range(200, 205) if ours else range(205, 210)
    changes += [_remove("decisions", d[i]) for i in removed]
    done = range(40) if ours else range(20, 60)  # 20..39 done on both: the same change, taken once
    changes += [_replace("tasks", t[i]["text"], {"done": True}) for i in done]
    added = range(15 if ours else 25)
    changes += [_add("tasks", {"text": f"Task on {side} {n}: follow up with the owners"}) for n in added]
    changes += [_add("tasks", {"text": f"Task added on both {n}", "done": ours}) for n in range(2)]  # 2 conflicts
    own = range(30) if ours else range(30, 60)
    changes += [_replace("entities", e[i]["name"], {"description": f"Moved to the {side} plan."}) for i in own]
    changes += [_replace("entities", e[i]["name"], {"kind": f"{side} kind"}) for i in range(60, 65)]  # 5 conflicts
    changes += [
        _add("entities", {"name": f"Entity on {side} {n}", "kind": "team", "description": "New."}) for n in range(10)
    ]
    own = range(20) if ours else range(20, 40)
    more = "\n\nUpdated on {side}: the rollout moved one week; the owners signed off."
    changes += [_replace("artifacts", a[i]["name"], {"content": a[i]["content"] + more.format(side=side)}) for i in own]
    changes += [
        _replace("artifacts", a[i]["name"], {"content": a[i]["content"] + more.format(side=side)})
        for i in range(40, 43)
    ]  # 3 conflicts
    if ours:  # removed on ours, changed on theirs: 1 conflict
        changes.append(_remove("artifacts", a[240]["name"]))
    else:
        changes.append(_replace("artifacts", a[240]["name"], {"media_type": "text/plain"}))
        changes += [_remove("artifacts", a[i]["name"]) for i in range(245, 250)]
    changes.append(_summary(f"The platform plan, as the {side} line sees it."))  # 1 conflict
    random.Random(f"issue-23-{side}").shuffle(changes)  # noqa: S311 (a fixed order, not a secret)
    return changes


def line_states(base: State, changes: list[Change], count: int) -> Iterator[State]:
    """`count` states, each making a further share of the changes; the last makes all of them.
    One state, changed in place between yields (each is sent before the next is made)."""
    state = {field: list(value) if isinstance(value, list) else value for field, value in base.items()}
    made = 0
    for n in range(1, count + 1):
        upto = -(-len(changes) * n // count)
        for change in changes[made:upto]:
            change(state)
        made = upto
        yield state
