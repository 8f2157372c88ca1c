"""`?limit=&offset=` for every list, with the cap from settings shown in the OpenAPI document."""

# No `from __future__ import annotations` here: the provider's annotations are built at runtime
# from the configured cap, and Litestar reads them as objects.

from dataclasses import dataclass
from typing import Annotated

from litestar.di import Provide
from litestar.params import QueryParameter

from smriti.schemas import MAX_INT4

DEFAULT_LIMIT = 50


@dataclass(frozen=True, slots=True)
class PageParams:
    limit: int
    offset: int


def page_dependency(max_page_size: int) -> Provide:
    """The `page` dependency: limit in 1..max_page_size (default 50), offset ≥ 0, both validated by Litestar."""

    def provide_page(
        limit: Annotated[int, QueryParameter(ge=1, le=max_page_size, description="Items per page.")] = min(
            DEFAULT_LIMIT, max_page_size
        ),
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_INT4, description="Items to skip.")] = 0,
    ) -> PageParams:
        return PageParams(limit=limit, offset=offset)

    return Provide(provide_page, sync_to_thread=False)
