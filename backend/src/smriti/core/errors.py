"""The errors Smriti answers with: their one shape and the exceptions domains raise (their OpenAPI
entries are in `error_docs.py`). `smriti.server.errors` is the one place that turns any exception
into a response. Nothing here needs Litestar, so the client may use these shapes too."""

from __future__ import annotations

from http import HTTPStatus

import msgspec

PROBLEM_JSON = "application/problem+json"
"""RFC 9457's media type: every error of the API is sent as one."""


class FieldError(msgspec.Struct, frozen=True):
    """One offending input: where it was (body, query, path) and what is wrong with it."""

    field: str
    message: str
    source: str = "body"


class ErrorResponse(msgspec.Struct, frozen=True, omit_defaults=True):
    """The one error shape of the whole API: an RFC 9457 problem detail.

    `type` is always `about:blank` (RFC 9457 §4.2.1): the status and its `title` say what kind of
    problem it is; `detail` says what happened and what to do; `errors` names the offending fields.
    """

    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldError] = []
    provider: str | None = None
    """Which model provider failed (502, 504, 429 from a provider)."""
    limit_bytes: int | None = None
    """On a 413: the limit that was passed, in bytes (a request body's, an import's, or a Checkpoint's)."""


def problem(status: int, detail: str, **extra: object) -> ErrorResponse:
    """The problem detail for `status`, titled with the status's own phrase."""
    return ErrorResponse(type="about:blank", title=_title(status), status=status, detail=detail, **extra)  # type: ignore[arg-type]


def _title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


class SmritiError(Exception):
    status_code = 400
    retry_after_s: int | None = None
    """Seconds the client should wait before trying again, sent as `Retry-After` (a 429, a 503)."""

    def __init__(
        self, detail: str, *, field: str | None = None, source: str = "body", field_message: str | None = None
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        message = field_message or detail
        self.errors = [FieldError(field=field, message=message, source=source)] if field else []


class BadRequest(SmritiError):
    status_code = 400


class NotFound(SmritiError):
    status_code = 404


NO_LINE = "This Space has no line named"
"""How every "no such line" begins, so that clients can add how to list the lines (`client.hints`)."""


def no_line(name: str, *, field: str, source: str = "body") -> NotFound:
    """404: the Space has no line called `name` (quoted as given, cut: it may be as long as the request)."""
    return NotFound(f"{NO_LINE} {name.strip()[:120]!r}.", field=field, source=source)


class Forbidden(SmritiError):
    """The caller is known and may not do this (an agent key where only the person may, a
    read-only key writing, a protected line)."""

    status_code = 403


class Conflict(SmritiError):
    status_code = 409


class Gone(SmritiError):
    """What was asked for existed and was removed for good (events past their retention)."""

    status_code = 410


class TooLarge(SmritiError):
    status_code = 413

    def __init__(self, detail: str, *, limit_bytes: int, field: str | None = None) -> None:
        super().__init__(detail, field=field)
        self.limit_bytes = limit_bytes


class UnsupportedMediaType(SmritiError):
    status_code = 415


class Unavailable(SmritiError):
    """The server cannot take this request now (stopping, or too busy); `Retry-After` says when
    to try again."""

    status_code = 503

    def __init__(self, detail: str, *, retry_after_s: int) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s


class ProviderFailure(SmritiError):
    """A provider did not give a usable answer. `status_code` says how: 502, 504 or 429."""

    def __init__(self, provider: str, status_code: int, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail, field=field)
        self.provider = provider
        self.status_code = status_code


def caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    """Whether `kind` is anywhere in the exception's cause chain (ORM layers wrap driver errors)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__
    return False
