"""What `GET /v5/search` answers (docs/api.md, "Search")."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

HitKind = Literal["checkpoint", "turn"]


class SearchHit(msgspec.Struct, kw_only=True):
    """One Checkpoint or Turn that matches, with the part of it that matched.

    A Checkpoint's hit names its `commit_id`; a Turn's its `session_id` and `sequence_number`.
    `field` says where the snippet comes from: `message`, `summary`, `decisions[2]`,
    `tasks[0].text`, `entities[1].description`, `artifacts[0].content`, … (a Turn's is `content`).
    `snippet` is plain text; `highlights` are `[start, end)` offsets into it, counted in Unicode
    code points, of the words that matched.
    """

    kind: HitKind
    repo_id: UUID
    commit_id: UUID | None
    session_id: UUID | None
    sequence_number: int | None
    field: str
    snippet: str
    highlights: list[tuple[int, int]]
    rank: float


class SearchPage(msgspec.Struct, kw_only=True):
    """The hits, best first. `total` counts every match, up to `counted_up_to`: past that, the
    total says "at least" (`total_is_exact` false) and the hits are the best of the first ones
    found, so that a word in every Turn cannot make one search read the whole history."""

    items: list[SearchHit]
    total: int
    total_is_exact: bool
    limit: int
    offset: int
