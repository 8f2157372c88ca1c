"""The one error mapper (server/errors.py): what an unexpected error logs, and what reads as the database."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar, Request
from litestar.testing import RequestFactory

from smriti.core.config import Settings
from smriti.core.logging import configure_logging
from smriti.server.errors import to_error_response
from tests.conftest import OPENAI_TEST_KEY


def test_unexpected_errors_are_logged_with_traceback_and_hidden(
    settings: Settings, capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging(settings)
    # An app without logging config: the default one would install handlers on captured streams.
    request: Request[Any, Any, Any] = RequestFactory(app=Litestar(logging_config=None)).get("/v4/anything")
    try:
        raise RuntimeError(f"boom with {OPENAI_TEST_KEY}")
    except RuntimeError as exc:
        response = to_error_response(request, exc)
    assert response.status_code == 500
    assert response.content.detail == "Internal server error."
    logged = capfd.readouterr().err
    assert "unhandled error" in logged
    assert "Traceback" in logged
    assert "RuntimeError: boom with [redacted]" in logged
    assert OPENAI_TEST_KEY not in logged


def test_only_a_timeout_from_the_driver_itself_reads_as_database_unavailable(settings: Settings) -> None:
    configure_logging(settings)
    request: Request[Any, Any, Any] = RequestFactory(app=Litestar(logging_config=None)).get("/v4/anything")
    assert to_error_response(request, TimeoutError()).status_code == 503
    # What `raise RuntimeError(...) from None` inside `except TimeoutError:` leaves behind.
    bug = RuntimeError("a bug while a timeout was being handled")
    bug.__context__, bug.__suppress_context__ = TimeoutError(), True
    assert to_error_response(request, bug).status_code == 500
