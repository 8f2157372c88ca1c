"""`?limit=&offset=` for every list, with the cap from settings shown in the OpenAPI document.

Query parameters arrive as text. Litestar converts them with lax rules, under which `1e3` and
`5.0` are integers; here an integer parameter is digits only (`query_int`), and the OpenAPI
document still calls it an integer with its bounds.
"""

# No `from __future__ import annotations` here: the provider's annotations are built at runtime
# from the configured cap, and Litestar reads them as objects.

import re
from dataclasses import dataclass
from typing import Annotated, Any

from litestar.di import Provide
from litestar.params import QueryParameter

from smriti.core.errors import BadRequest
from smriti.core.schemas import MAX_INT4

DEFAULT_LIMIT = 50
_DIGITS = re.compile(r"[0-9]{1,10}")


def int_query(minimum: int, maximum: int, default: int, description: str | None = None) -> Any:
    """The annotation of an integer query parameter taken as text (see `query_int`), described
    in the OpenAPI document as the integer it is."""
    return Annotated[
        str,
        QueryParameter(
            description=description,
            schema_extra={"type": "integer", "minimum": minimum, "maximum": maximum, "default": default},
        ),
    ]


def query_int(name: str, value: str, *, minimum: int, maximum: int, source: str = "query") -> int:
    """A query (or path) parameter as an integer: plain decimal digits within the bounds, else 400
    naming it."""
    if not _DIGITS.fullmatch(value):
        raise BadRequest(
            f"Invalid request. {name}: Expected a whole number written in digits, got {value!r}",
            field=name,
            source=source,
            field_message=f"Expected a whole number written in digits, got {value!r}",
        )
    number = int(value)
    if not minimum <= number <= maximum:
        rule = f"Expected a whole number from {minimum} to {maximum}, got {number}"
        raise BadRequest(f"Invalid request. {name}: {rule}", field=name, source=source, field_message=rule)
    return number


@dataclass(frozen=True, slots=True)
class PageParams:
    limit: int
    offset: int


def page_dependency(max_page_size: int) -> Provide:
    """The `page` dependency: limit in 1..max_page_size (default 50), offset ≥ 0."""
    default_limit = str(min(DEFAULT_LIMIT, max_page_size))

    def provide_page(
        limit: int_query(1, max_page_size, int(default_limit), "Items per page.") = default_limit,  # type: ignore[valid-type]
        offset: int_query(0, MAX_INT4, 0, "Items to skip.") = "0",  # type: ignore[valid-type]
    ) -> PageParams:
        return PageParams(
            limit=query_int("limit", limit, minimum=1, maximum=max_page_size),
            offset=query_int("offset", offset, minimum=0, maximum=MAX_INT4),
        )

    return Provide(provide_page, sync_to_thread=False)
