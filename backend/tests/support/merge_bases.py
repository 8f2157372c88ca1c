"""The merge base computed the plain way in Python, to hold the database's against
(`smriti.merges.base`): every common ancestor over both links, those no other common ancestor
descends from, no older than the first-parent fork point, newest first."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from uuid import UUID

from tests.support.jumps import first_parent_fork


@dataclass(frozen=True, slots=True)
class Node:
    parent: UUID | None
    merge_parent: UUID | None
    created_at: datetime.datetime


def nearest_common_ancestors(history: Mapping[UUID, Node], a: UUID, b: UUID) -> list[UUID]:
    """The candidates `GET …/merge` answers in `base_candidates`, the base first."""
    common = _ancestors(history, a) & _ancestors(history, b)
    below_common = {link for node in common for link in _links(history[node])}
    fork = first_parent_fork({node: row.parent for node, row in history.items()}, a, b)
    oldest = history[fork].created_at if fork is not None else None
    candidates = [
        node
        for node in common - below_common
        if oldest is None or history[node].created_at >= oldest  # no older than the fork point
    ]
    return sorted(candidates, key=lambda node: (history[node].created_at, node), reverse=True)


def _links(node: Node) -> Iterable[UUID]:
    return (link for link in (node.parent, node.merge_parent) if link is not None)


def _ancestors(history: Mapping[UUID, Node], start: UUID) -> set[UUID]:
    seen: set[UUID] = set()
    waiting = [start]
    while waiting:
        node = waiting.pop()
        if node not in seen:
            seen.add(node)
            waiting.extend(_links(history[node]))
    return seen
