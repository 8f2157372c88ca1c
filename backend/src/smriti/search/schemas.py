"""What `GET /v5/search` answers (docs/api.md, "Search")."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

HitKind = Literal["checkpoint", "turn"]


class EarlierHit(msgspec.Struct, kw_only=True):
    """An older Checkpoint of a grouped hit: the same item, carried forward, matched there too."""

    commit_id: UUID
    commit_hash: str
    field: str


class SearchHit(msgspec.Struct, kw_only=True):
    """One Checkpoint or Turn that matches, with the part of it that matched.

    A Checkpoint's hit names its `commit_id` and `commit_hash` (clients show its first 7
    characters, as the log does); a Turn's its `session_id`, `session_title` and `sequence_number`.
    `field` says where the snippet comes from: `message`, `summary`, `decisions[2]`,
    `tasks[0].text`, `entities[1].description`, `artifacts[0].content`, … (a Turn's is `content`).
    `snippet` is plain text; `highlights` are `[start, end)` offsets into it, counted in Unicode
    code points, of the words that matched.

    An item carried forward from Checkpoint to Checkpoint matches in each of them with the same
    snippet: the page shows it once, as its newest Checkpoint on the page, and lists the older
    ones of that page in `earlier` (newest first); `rank` is the best of theirs.
    """

    kind: HitKind
    repo_id: UUID
    commit_id: UUID | None
    commit_hash: str | None
    session_id: UUID | None
    session_title: str | None
    sequence_number: int | None
    field: str
    snippet: str
    highlights: list[tuple[int, int]]
    rank: float
    earlier: list[EarlierHit]


class SearchPage(msgspec.Struct, kw_only=True):
    """The hits, best first. `total` counts every match, up to 10,000 of each kind: past that, the
    total says "at least" (`total_is_exact` false) and the hits are the best of the first ones
    found, so that a word in every Turn cannot make one search read the whole history.

    `total`, `limit` and `offset` count matches, each Checkpoint once, as before grouping: a page
    reads `limit` matches from `offset` and shows those carried forward as one item, so it may
    hold fewer items than `limit`, and the next page starts at `offset + limit`."""

    items: list[SearchHit]
    total: int
    total_is_exact: bool
    limit: int
    offset: int
