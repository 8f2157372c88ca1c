"""`?limit=&offset=` for every list, with the cap from settings shown in the OpenAPI document,
and the `Link` header (RFC 8288) that says where the next, previous and first pages are.

Query parameters arrive as text. Litestar converts them with lax rules, under which `1e3` and
`5.0` are integers; here an integer parameter is digits only (`query_int`), and the OpenAPI
document still calls it an integer with its bounds.
"""

# No `from __future__ import annotations` here: the provider's annotations are built at runtime
# from the configured cap, and Litestar reads them as objects.

import re
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar
from urllib.parse import quote_from_bytes, unquote_plus

from litestar import Response
from litestar.datastructures import ResponseHeader
from litestar.di import Provide
from litestar.params import QueryParameter
from litestar.types import Scope

from smriti.core.errors import BadRequest
from smriti.core.schemas import MAX_INT4


class _Paged(Protocol):
    """A page of a list: `Page`, or a list's own page shape (`SearchPage`)."""

    @property
    def total(self) -> int: ...
    @property
    def limit(self) -> int: ...
    @property
    def offset(self) -> int: ...


P = TypeVar("P", bound=_Paged)

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


# What a client sent stays as it was sent (its own escapes kept): only what may not stand inside
# `<…>` in a header (spaces, quotes, angle brackets, bytes beyond ASCII) is escaped.
_KEPT_IN_LINKS = "/%=&+:@!$'()*,;~-._?"

PAGE_LINKS = ResponseHeader(
    name="Link",
    description=(
        'RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, '
        '`rel="prev"` and `rel="first"` past the first one. Each is this request\'s path and query '
        "with `offset` changed; absent when there is no such page."
    ),
    value="",  # never sent (documentation only): its type is what the document says the header is
    documentation_only=True,
)
"""The `Link` header in the OpenAPI document of every paged list (`response_headers=[PAGE_LINKS]`)."""


def page_links(scope: Scope, *, total: int, limit: int, offset: int) -> str | None:
    """The `Link` header of a page of `total` items (None: no header): `next` while items remain
    past it, `prev` and `first` when it does not start at the first item. Relative references
    (RFC 3986 §4.2): right behind a proxy that rewrites the host, as the request's own path is."""
    links: list[tuple[int, str]] = []
    if offset + limit < total:
        links.append((offset + limit, "next"))
    if offset > 0:
        # From past the end, the previous page is the last one that holds items.
        links += [(max(0, min(offset, total) - limit), "prev"), (0, "first")]
    if not links:
        return None
    raw_path: bytes = scope.get("raw_path") or scope["path"].encode()
    path = quote_from_bytes(raw_path, safe=_KEPT_IN_LINKS)
    kept = [
        quote_from_bytes(part, safe=_KEPT_IN_LINKS)
        for part in scope["query_string"].split(b"&")
        if part and unquote_plus(part.split(b"=", 1)[0].decode("latin-1")) != "offset"
    ]
    return ", ".join(f'<{path}?{"&".join([*kept, f"offset={to}"])}>; rel="{rel}"' for to, rel in links)


def paged(page: P, scope: Scope) -> Response[P]:
    """A page as a list's handler answers it: with its `Link` header."""
    links = page_links(scope, total=page.total, limit=page.limit, offset=page.offset)
    return Response(page, headers={"Link": links} if links else None)


def refuse_unknown_query(scope: Scope, known: frozenset[str]) -> None:
    """400 naming the first query parameter the route does not take: a misspelled or guessed name
    (`since=` for `after=`) must not silently mean "from the start"."""
    for part in scope["query_string"].split(b"&"):
        name = unquote_plus(part.split(b"=", 1)[0].decode("latin-1")) if part else ""
        if name and name not in known:
            shown = name[:40]
            rule = f"this route takes no query parameter {shown!r}; it takes {', '.join(sorted(known))}"
            raise BadRequest(f"Invalid request. {shown}: {rule}", field=shown, source="query", field_message=rule)
