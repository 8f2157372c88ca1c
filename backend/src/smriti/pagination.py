"""`?limit=&offset=` for every list, with the cap from settings."""

from __future__ import annotations

from dataclasses import dataclass

from litestar.datastructures import State
from litestar.params import FromQuery

from smriti.config import Settings
from smriti.errors import BadRequest

DEFAULT_LIMIT = 50


@dataclass(frozen=True, slots=True)
class PageParams:
    limit: int
    offset: int


def provide_page(state: State, limit: FromQuery[int] = DEFAULT_LIMIT, offset: FromQuery[int] = 0) -> PageParams:
    settings: Settings = state.settings
    if not 1 <= limit <= settings.max_page_size:
        raise BadRequest(f"limit must be between 1 and {settings.max_page_size}.", field="limit", source="query")
    if offset < 0:
        raise BadRequest("offset must not be negative.", field="offset", source="query")
    return PageParams(limit=limit, offset=offset)
