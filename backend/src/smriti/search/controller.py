"""`GET /v5/search` (docs/api.md, "Search")."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.params import QueryParameter
from litestar.types import Scope

from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged
from smriti.search.schemas import SearchPage
from smriti.search.service import MAX_QUERY_CHARS, SearchQuery, SearchService

_QUERY = Annotated[
    str,
    QueryParameter(
        description=(
            'What to find, as in a web search box: words (stemmed: "deploying" finds "deploy"), '
            '"a phrase" in quotes, `or` between alternatives, `-word` to leave out.'
        ),
        max_length=MAX_QUERY_CHARS,
    ),
]


class SearchController(Controller):
    tags = ["Search"]

    @get(
        "/search",
        operation_id="search",
        summary="Find Checkpoints and Turns by their words, best first",
        description=(
            "Full-text search over every Checkpoint (message, summary, each list item, entities, artifacts' "
            "names and content) and Turn, or one Space's (`repo_id`) or one kind's (`kind`). Each hit names "
            "where it matched (`field`) and carries a plain-text `snippet` with the `[start, end)` offsets "
            "of the matched words. `total` is exact up to 10,000 matches of a kind; past that it says "
            "`total_is_exact: false` and the hits are the best of the first 10,000 found."
        ),
        responses=error_responses(400, 404),
        response_headers=[PAGE_LINKS],
    )
    async def search(
        self,
        *,
        q: _QUERY,
        search: NamedDependency[SearchService],
        page: NamedDependency[PageParams],
        scope: Scope,
        repo_id: Annotated[UUID | None, QueryParameter(description="Only this Space's.")] = None,
        kind: Annotated[
            Literal["checkpoint", "turn"] | None, QueryParameter(description="Only Checkpoints, or only Turns.")
        ] = None,
    ) -> Response[SearchPage]:
        found = await search.search(
            SearchQuery(text=q, repo_id=repo_id, kind=kind, limit=page.limit, offset=page.offset)
        )
        return paged(found, scope)
