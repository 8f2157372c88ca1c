"""structlog set-up: one line per event, exceptions with tracebacks, secrets scrubbed."""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from smriti.core.config import Settings
from smriti.core.redaction import MARK, real_secrets


def _scrubber(secrets: tuple[str, ...]) -> structlog.types.Processor:
    """Defence in depth: no log line may carry a configured secret, whatever put it there."""

    def scrub(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        if not secrets:
            return event
        for key, value in event.items():
            if isinstance(value, str) and any(secret in value for secret in secrets):
                event[key] = _scrubbed(value, secrets)
        return event

    return scrub


def _scrubbed(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:  # longest first, so a secret containing another goes whole
        text = text.replace(secret, MARK)
    return text


class _CurrentStderr:
    """Whatever `sys.stderr` is when a line is written, not when logging was configured: a
    process that swaps it (a test runner's capture, a daemon's redirect) never gets a line
    written to a stream it has closed."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(settings: Settings, *, extra_secrets: tuple[str | None, ...] = ()) -> None:
    # Provider keys shorter than MIN_SECRET_LENGTH are placeholders; the API token is one the
    # operator chose, however short, and stays out of the logs whatever its length.
    token = (settings.api_token,) if settings.api_token else ()
    secrets = tuple(
        sorted(
            {*real_secrets((settings.openai.api_key, settings.anthropic.api_key, *extra_secrets)), *token},
            key=len,
            reverse=True,
        )
    )
    level = logging.getLevelNamesMapping().get(settings.log_level, logging.INFO)
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if settings.log_json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            _scrubber(secrets),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=_CurrentStderr()),  # type: ignore[arg-type]
        cache_logger_on_first_use=False,
    )
