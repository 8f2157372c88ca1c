"""Log lines and redaction (core/logging.py)."""

from __future__ import annotations

import pytest
import structlog

from smriti.core.config import ProviderSettings, Settings
from smriti.core.logging import configure_logging


def test_log_lines_lose_the_api_token_however_short_but_keep_placeholder_keys(
    capfd: pytest.CaptureFixture[str],
) -> None:
    settings = Settings(api_token="tok1", openai=ProviderSettings(api_key="x"))
    configure_logging(settings)
    structlog.get_logger("test").info("event", detail="Bearer tok1 sent; maximum context exceeded")
    logged = capfd.readouterr().err
    assert "tok1" not in logged
    assert "Bearer [redacted] sent; maximum context exceeded" in logged
