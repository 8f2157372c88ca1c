"""The OpenAPI entries of the API's errors: every handler declares the codes it may answer with,
and each is described by the one error shape (`errors.ErrorResponse`)."""

from __future__ import annotations

from collections.abc import Mapping

from litestar.openapi.datastructures import ResponseSpec

from smriti.core.errors import PROBLEM_JSON, ErrorResponse


def error_responses(*status_codes: int, described: Mapping[int, str] | None = None) -> dict[int, ResponseSpec]:
    """OpenAPI entries that describe our error shape truthfully for a handler's error codes;
    `described` says what one of them means on this route, in place of the general words."""
    words = {**_DESCRIPTIONS, **(described or {})}
    return {
        code: ResponseSpec(
            data_container=ErrorResponse,
            media_type=PROBLEM_JSON,
            description=words.get(code, "Error"),
            generate_examples=False,
        )
        for code in sorted({400, *status_codes, *(described or {})})
    }


_DESCRIPTIONS = {
    400: "The request is malformed or breaks a rule; `errors` names the offending fields.",
    401: "Missing or wrong bearer token.",
    403: "The caller may not do this: an agent key where only the person may, a read-only key writing, or a "
    "protected line.",
    404: "No such resource.",
    409: "The request conflicts with the current state (for example HEAD has moved).",
    410: "What the request starts from was removed for good (events past their retention).",
    413: "The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`).",
    415: "The request body is not of the media type this route reads.",
    429: "The provider is rate limiting; retry later.",
    502: "The provider failed or answered with something unusable.",
    503: "The database is unavailable, too busy to answer in time, or rolled the request back to resolve a "
    "conflict with a concurrent one; or too many requests of this kind are already waiting, or the server is "
    "shutting down; retry later (`Retry-After`, when sent, says when).",
    504: "The provider did not answer in time.",
}
