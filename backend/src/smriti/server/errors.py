"""The one error mapper: any exception raised while handling a request becomes the API's error shape."""

from __future__ import annotations

import re
from typing import Any

import asyncpg
import msgspec
import structlog
from advanced_alchemy.exceptions import DuplicateKeyError, NotFoundError
from litestar import Request, Response
from litestar.exceptions import HTTPException, SerializationException, ValidationException
from litestar.status_codes import HTTP_413_REQUEST_ENTITY_TOO_LARGE, HTTP_500_INTERNAL_SERVER_ERROR
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as OrmPoolTimeout
from sqlalchemy.orm.exc import StaleDataError

from smriti.core.errors import (
    PROBLEM_JSON,
    ErrorResponse,
    FieldError,
    ProviderFailure,
    SmritiError,
    TooLarge,
    caused_by,
    problem,
)
from smriti.core.schemas import say_patterns
from smriti.db.pool import PoolTimeout

log = structlog.get_logger("smriti.errors")


_AT = re.compile(r" - at `\$\.?([^`]*)`")
_NAMED_FIELD = re.compile(r"(?:unknown|missing required) field `([^`]*)`")
# Litestar's words for a parameter left out of the URL or the headers.
_MISSING_PARAMETER = re.compile(r"Missing required (query|header|cookie|path) parameter '([^']*)'")


def _clean_message(message: str) -> str:
    return say_patterns(message)


def _field_path(message: str, key: str | None = None) -> str | None:
    """The offending field as a path like `tasks[0].done`, from msgspec's message and Litestar's key."""
    at = _AT.search(message)
    path = key if key and key != "data" else (at.group(1) if at else "")
    named = _NAMED_FIELD.search(message)
    if named:
        return f"{path}.{named.group(1)}" if path else named.group(1)
    return path or None


_NO_BODY = "This request needs a JSON body (Content-Type: application/json)."


def _source(value: Any) -> str:
    """Where the field was: Litestar gives an enum member (`ParamType.QUERY`) or a string."""
    return str(getattr(value, "value", value) or "body")


def _validation_errors(exc: ValidationException) -> list[FieldError]:
    extra: Any = exc.extra
    items = extra if isinstance(extra, list) else [extra] if isinstance(extra, dict) else []
    found: list[FieldError] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        message = _clean_message(str(item.get("message", exc.detail)))
        key = item.get("key")
        if message == "'data'" and key in (None, "data"):
            # Litestar's word for a handler's missing body: the KeyError of its `data` argument.
            found.append(FieldError(field="body", message=_NO_BODY))
            continue
        field = _field_path(message, str(key) if key else None) or "body"
        found.append(FieldError(field=field, message=message, source=_source(item.get("source"))))
    if not found:
        message = _clean_message(str(exc.detail))
        missing = _MISSING_PARAMETER.search(message)
        if missing:
            source, name = missing.groups()
            found.append(FieldError(field=name, message=f"Missing required {source} parameter", source=source))
        else:
            found.append(FieldError(field=_field_path(message) or "body", message=message))
    return found


def _invalid_request(exc: ValidationException) -> Response[ErrorResponse]:
    errors = _validation_errors(exc)
    if [e.message for e in errors] == [_NO_BODY]:
        return _body(400, _NO_BODY, errors=errors)
    detail = "; ".join(f"{e.field}: {e.message}" for e in errors)
    return _body(400, f"Invalid request. {detail}", errors=errors)


def _body(
    status_code: int, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> Response[ErrorResponse]:
    content = problem(status_code, detail, **extra)
    return Response(content, status_code=status_code, media_type=PROBLEM_JSON, headers=headers)


# Ways "PostgreSQL is not there right now" shows up: refused or missing socket, server starting or
# shutting down, a connection dropped mid-query, or the ORM's wrappers around those.
_DB_DOWN = (
    ConnectionError,
    FileNotFoundError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InterfaceError,
    InterfaceError,
    OperationalError,
)


def _is_database_down(exc: BaseException) -> bool:
    """Whether the cause, however deeply the ORM wrapped it, is that PostgreSQL cannot be reached."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, _DB_DOWN):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _body_limit(request: Request[Any, Any, Any]) -> int | None:
    resolve = getattr(request.route_handler, "resolve_request_max_body_size", None)
    limit = resolve() if callable(resolve) else None
    return limit if isinstance(limit, int) else None


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[ErrorResponse]:
    if isinstance(exc.__cause__, SerializationException):
        message = f"The body is not valid JSON: {exc.__cause__}"
        return _body(400, message, errors=[FieldError("body", message)])
    if exc.status_code == HTTP_413_REQUEST_ENTITY_TOO_LARGE:
        limit = _body_limit(request)
        said = f" ({limit:,} bytes, SMRITI_MAX_BODY_BYTES)" if limit else " (SMRITI_MAX_BODY_BYTES)"
        return _body(413, f"The request body is larger than this server reads{said}.", limit_bytes=limit)
    # Keep the headers the exception carries, e.g. `Allow` on a 405.
    return _body(exc.status_code, _clean_message(str(exc.detail)), headers=dict(exc.headers or {}))


def _provider_error(exc: ProviderFailure) -> Response[ErrorResponse]:
    return _body(exc.status_code, exc.detail, headers=_retry_after(exc), errors=exc.errors, provider=exc.provider)


def _retry_after(exc: SmritiError) -> dict[str, str] | None:
    return {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s is not None else None


def to_error_response(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorResponse]:  # noqa: PLR0911
    """Map any exception raised while handling a request to the API's error shape.

    Expected failures become the matching 4xx/5xx with a reason a person can act on. Anything
    else is logged with its traceback and answered with a bare 500 that reveals nothing.
    """
    if isinstance(exc, ProviderFailure):
        return _provider_error(exc)
    if isinstance(exc, TooLarge):
        return _body(413, exc.detail, limit_bytes=exc.limit_bytes, errors=exc.errors)
    if isinstance(exc, SmritiError):
        return _body(exc.status_code, exc.detail, errors=exc.errors, headers=_retry_after(exc))
    if isinstance(exc, ValidationException):
        return _invalid_request(exc)
    if isinstance(exc, HTTPException):
        return _http_error(request, exc)
    if isinstance(exc, NotFoundError) or caused_by(exc, StaleDataError):
        # StaleDataError: the row was deleted by another request between our read and our write.
        return _body(404, "Not found (it may have just been deleted).")
    if isinstance(exc, DuplicateKeyError):
        return _body(409, "That already exists.")
    if isinstance(exc, msgspec.ValidationError):
        message = _clean_message(str(exc))
        field = _field_path(message) or "body"
        message = _AT.sub("", message)
        return _body(400, f"Invalid request. {field}: {message}", errors=[FieldError(field, message)])
    if isinstance(exc, PoolTimeout) or caused_by(exc, OrmPoolTimeout):
        log.warning("no free database connection", path=request.url.path)
        return _body(503, "Every database connection stayed busy for SMRITI_DB_ACQUIRE_TIMEOUT; retry shortly.")
    if caused_by(exc, asyncpg.exceptions.QueryCanceledError):
        log.warning("database statement stopped", path=request.url.path, error=str(exc))
        return _body(
            503,
            "A database statement ran longer than SMRITI_DB_STATEMENT_TIMEOUT and PostgreSQL stopped it "
            "(its transaction rolled back). It may have waited on a lock held elsewhere: retry. If it "
            "keeps happening, the operation needs a higher SMRITI_DB_STATEMENT_TIMEOUT.",
        )
    if caused_by(exc, asyncpg.exceptions.TransactionRollbackError):
        # A deadlock or serialization failure: PostgreSQL rolled this request's transaction back.
        log.warning("database rolled the request back", path=request.url.path, error=type(exc).__name__)
        return _body(
            503,
            "The database rolled this request back to resolve a conflict with a concurrent one "
            "(a deadlock or serialization failure); nothing was written: retry.",
        )
    # asyncpg's own timeouts: the server did not answer at all, or not even to a connect. Only as
    # the error or its cause; a TimeoutError merely being handled nearby says nothing.
    if _is_database_down(exc) or caused_by(exc, TimeoutError):
        log.warning("database unavailable", path=request.url.path, error=type(exc).__name__)
        return _body(503, "The database is unavailable right now; retry shortly.")
    log.error("unhandled error", path=request.url.path, method=request.method, exc_info=exc)
    return _body(HTTP_500_INTERNAL_SERVER_ERROR, "Internal server error.")
