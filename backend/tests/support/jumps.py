"""The jump links of migration 0007 and the first-parent fork point, computed the plain way in
Python, to hold the database's against."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID


def expected_jumps(parents: Mapping[UUID, UUID | None]) -> dict[UUID, tuple[UUID, int]]:
    """Each Checkpoint's (jump, depth of jump), from the parent links alone, root first."""
    depth: dict[UUID, int] = {}
    jumps: dict[UUID, tuple[UUID, int]] = {}

    def visit(node: UUID) -> None:
        parent = parents[node]
        if parent is None:
            depth[node], jumps[node] = 0, (node, 0)
            return
        if parent not in jumps:
            visit(parent)
        depth[node] = depth[parent] + 1
        jump, jump_depth = jumps[parent]
        jump_jump, jump_jump_depth = jumps[jump]
        skew = depth[parent] - jump_depth == jump_depth - jump_jump_depth
        jumps[node] = (jump_jump, jump_jump_depth) if skew else (parent, depth[parent])

    for node in parents:
        if node not in jumps:
            visit(node)
    return jumps


def first_parent_fork(parents: Mapping[UUID, UUID | None], a: UUID, b: UUID) -> UUID | None:
    """The nearest common first-parent ancestor of `a` and `b`, by listing a's whole chain."""
    chain: set[UUID] = set()
    node: UUID | None = a
    while node is not None:
        chain.add(node)
        node = parents[node]
    node = b
    while node is not None and node not in chain:
        node = parents[node]
    return node
