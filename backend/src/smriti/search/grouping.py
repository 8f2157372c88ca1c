"""An item carried forward across Checkpoints, shown once (docs/api.md, "Search").

`apply` and every commit that keeps the last Checkpoint's lists carry a decision, a task, … into
each new Checkpoint unchanged, so its words match in every Checkpoint since: a page listed the
same snippet once per Checkpoint (six identical rows for six Checkpoints). Grouped here, on the
server, every client (the web app, the CLI, MCP) shows the item once.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Hashable, Sequence

import msgspec

from smriti.search.schemas import EarlierHit, SearchHit

# `decisions[2]` and `decisions[3]` are one item moved by an earlier item's removal.
_INDEX = re.compile(r"\[\d+\]")

Ranked = tuple[SearchHit, datetime.datetime]


def _item(hit: SearchHit) -> Hashable:
    """What makes two hits one item: the same Space, the same kind of part, the same snippet with
    the same words marked. A Turn is said once, so each Turn is its own item."""
    if hit.kind != "checkpoint":
        return ("turn", hit.session_id, hit.sequence_number)
    return (hit.repo_id, _INDEX.sub("[]", hit.field), hit.snippet, tuple(hit.highlights))


def grouped(ranked: Sequence[Ranked]) -> list[SearchHit]:
    """`ranked`, best first with when each was made, as one hit per item: where its best member
    ranked, shown as its newest Checkpoint (the state now), the others in `earlier`, newest first,
    and the best member's rank so that the page stays ordered by rank."""
    items: dict[Hashable, list[Ranked]] = {}
    for member in ranked:
        items.setdefault(_item(member[0]), []).append(member)
    hits = []
    for members in items.values():
        # sorted() is stable: Checkpoints made in the same instant keep their rank's order.
        newest, *older = sorted(members, key=lambda member: member[1], reverse=True)
        earlier = [_earlier(hit) for hit, _ in older]
        hits.append(msgspec.structs.replace(newest[0], rank=members[0][0].rank, earlier=earlier))
    return hits


def _earlier(hit: SearchHit) -> EarlierHit:
    assert hit.commit_id is not None, "only Checkpoints are grouped"
    assert hit.commit_hash is not None, "only Checkpoints are grouped"
    return EarlierHit(commit_id=hit.commit_id, commit_hash=hit.commit_hash, field=hit.field)
