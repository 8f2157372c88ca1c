"""structlog set-up: one line per event, exceptions with tracebacks, secrets scrubbed."""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from smriti.config import Settings
from smriti.redaction import real_secrets, redact


def _scrubber(secrets: tuple[str, ...]) -> structlog.types.Processor:
    """Defence in depth: no log line may carry a configured secret, whatever put it there."""

    def scrub(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        if not secrets:
            return event
        for key, value in event.items():
            if isinstance(value, str) and any(secret in value for secret in secrets):
                event[key] = redact(value, secrets)
        return event

    return scrub


def configure_logging(settings: Settings, *, extra_secrets: tuple[str | None, ...] = ()) -> None:
    secrets = real_secrets((settings.openai.api_key, settings.anthropic.api_key, settings.api_token, *extra_secrets))
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
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
