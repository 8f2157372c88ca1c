"""Settings, read from the environment when the app is built (never at import time)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_OPENAI_MODEL = "gpt-5-mini"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
DEFAULT_MAX_BODY_BYTES = 1_048_576
DEFAULT_MAX_REPLY_BYTES = 1_048_576


class ConfigError(ValueError):
    """An environment variable holds a value Smriti cannot use."""


@dataclass(frozen=True, slots=True)
class ProviderSettings:
    """Where a remote provider lives and how it is reached. Keys never leave the server."""

    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    default_model: str = ""
    models: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = field(default=None, repr=False)
    data_dir: Path = Path(".smriti")
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    """`SMRITI_MAX_BODY_BYTES`: the largest request body read (1 MiB), and the largest Checkpoint any
    write makes (its content as the canonical JSON its hash covers), so that apply, restore and
    merges cannot build one larger than a commit could send (`checkpoints/size.py`)."""
    max_import_bytes: int = 268_435_456
    """`SMRITI_MAX_IMPORT_BYTES`: the largest Space bundle `POST /v5/repos/import` reads (256 MiB)."""
    max_bundle_line_bytes: int = 8_388_608
    """`SMRITI_MAX_BUNDLE_LINE_BYTES`: the longest line of a bundle, and the largest conversation of a
    conversation import (8 MiB). An import holds one such item at a time, so this, not the body's
    size, bounds its memory; 8 × the default body limit, so that whatever a server stores under the
    default limits fits in one line, JSON escapes included."""
    db_pool_size: int = 10
    db_acquire_timeout_s: float = 10.0
    """How long a request waits for a free database connection before it is answered 503."""
    db_statement_timeout_s: float = 30.0
    """How long one database statement may take (a lock wait included) before it is a 503."""
    migration_lock_timeout_s: float = 5.0
    """How long a migration waits for a table lock per attempt; requests on that table queue behind it."""
    openai: ProviderSettings = field(default_factory=ProviderSettings)
    anthropic: ProviderSettings = field(default_factory=ProviderSettings)
    default_provider: str | None = None
    provider_timeout_s: float = 60.0
    provider_max_retries: int = 2
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    """`SMRITI_MAX_REPLY_BYTES`: the longest reply a provider may give, in bytes of UTF-8 (1 MiB), for
    a send (plain or streamed), a draft and a review alike: past it the provider's call is stopped,
    the answer is a 502 (a streamed send's `error` event), and nothing is stored (`providers/guard.py`)."""
    max_reply_tokens: int | None = None
    """`SMRITI_MAX_REPLY_TOKENS`: the most tokens a reply is asked for, and the room a send keeps for
    it in a known window (a quarter of the window if less). Unset: 1,024 for OpenAI and
    OpenAI-compatible servers, 4,096 for Anthropic (`providers/windows.reply_room`)."""
    nudge_after_turns: int = 12
    shutdown_grace_s: float = 10.0
    """How long a streamed reply may go on once the server is told to stop (SIGTERM); one still
    streaming then ends with an `error` event and stores nothing."""
    context_windows: Mapping[str, int] = field(default_factory=dict)
    """`SMRITI_CONTEXT_WINDOWS`: model → tokens, over `providers/windows.KNOWN_CONTEXT_WINDOWS`."""
    max_page_size: int = 200
    event_retention_days: int = 30
    """`SMRITI_EVENT_RETENTION_DAYS`: how long events are kept (`events/retention.py`); an `after`
    some of whose following events were removed is a 410."""
    max_event_streams: int = 2000
    """`SMRITI_MAX_EVENT_STREAMS`: event streams (SSE) one server process holds at once; an agent
    key a tenth of them (`events/hub.py`). Past it, opening one is a 503."""
    migrate_on_start: bool = True
    web_dir: Path | None = None
    api_token: str | None = field(default=None, repr=False)
    """When set, every API route (and /mcp) requires `Authorization: Bearer <token>`."""
    cors_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    debug: bool = False
    log_level: str = "INFO"
    log_json: bool = False
    webhook_retry_hours: float = 24.0
    """`SMRITI_WEBHOOK_RETRY_HOURS`: how long a webhook's receiver may keep failing one event (24 hours;
    fractions allowed) before the webhook is disabled with the reason (`webhooks/schedule.py`)."""
    webhook_allow_private: bool = False
    """`SMRITI_WEBHOOK_ALLOW_PRIVATE`: let webhooks reach loopback, private, link-local and other
    non-public addresses (`webhooks/addresses.py`); off, such a URL is refused at creation and at
    every delivery."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            database_url=_text(env, "DATABASE_URL"),
            data_dir=Path(env.get("SMRITI_DATA_DIR") or ".smriti"),
            max_body_bytes=_int(env, "SMRITI_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES, minimum=1024),
            max_import_bytes=_int(env, "SMRITI_MAX_IMPORT_BYTES", 268_435_456, minimum=1024),
            max_bundle_line_bytes=_int(env, "SMRITI_MAX_BUNDLE_LINE_BYTES", 8_388_608, minimum=1024),
            db_pool_size=_int(env, "SMRITI_DB_POOL_SIZE", 10, minimum=1),
            db_acquire_timeout_s=_float(env, "SMRITI_DB_ACQUIRE_TIMEOUT", 10.0),
            # PostgreSQL's statement_timeout is an int of milliseconds.
            db_statement_timeout_s=_float(env, "SMRITI_DB_STATEMENT_TIMEOUT", 30.0, maximum=2_147_483),
            migration_lock_timeout_s=_float(env, "SMRITI_MIGRATION_LOCK_TIMEOUT", 5.0, maximum=2_147_483),
            openai=ProviderSettings(
                api_key=_text(env, "OPENAI_API_KEY"),
                base_url=_text(env, "OPENAI_BASE_URL"),
                default_model=env.get("SMRITI_OPENAI_MODEL") or DEFAULT_OPENAI_MODEL,
                models=_list(env, "SMRITI_OPENAI_MODELS", (DEFAULT_OPENAI_MODEL, "gpt-5", "gpt-4.1", "gpt-4o-mini")),
            ),
            anthropic=ProviderSettings(
                api_key=_text(env, "ANTHROPIC_API_KEY"),
                base_url=_text(env, "ANTHROPIC_BASE_URL"),
                default_model=env.get("SMRITI_ANTHROPIC_MODEL") or DEFAULT_ANTHROPIC_MODEL,
                models=_list(
                    env,
                    "SMRITI_ANTHROPIC_MODELS",
                    (DEFAULT_ANTHROPIC_MODEL, "claude-opus-4-1", "claude-haiku-4-5"),
                ),
            ),
            default_provider=_text(env, "SMRITI_DEFAULT_PROVIDER"),
            provider_timeout_s=_float(env, "SMRITI_PROVIDER_TIMEOUT", 60.0),
            provider_max_retries=_int(env, "SMRITI_PROVIDER_MAX_RETRIES", 2, minimum=0),
            max_reply_bytes=_int(env, "SMRITI_MAX_REPLY_BYTES", DEFAULT_MAX_REPLY_BYTES, minimum=1024),
            # 0 (the default here) is "unset": each provider's own limit.
            max_reply_tokens=_int(env, "SMRITI_MAX_REPLY_TOKENS", 0, minimum=1) or None,
            nudge_after_turns=_int(env, "SMRITI_NUDGE_AFTER_TURNS", 12, minimum=2),
            shutdown_grace_s=_float(env, "SMRITI_SHUTDOWN_GRACE", 10.0),
            context_windows=parse_context_windows(env.get("SMRITI_CONTEXT_WINDOWS")),
            max_page_size=_int(env, "SMRITI_MAX_PAGE_SIZE", 200, minimum=1),
            event_retention_days=_int(env, "SMRITI_EVENT_RETENTION_DAYS", 30, minimum=1),
            max_event_streams=_int(env, "SMRITI_MAX_EVENT_STREAMS", 2000, minimum=1),
            migrate_on_start=not _bool(env, "SMRITI_SKIP_MIGRATIONS"),
            web_dir=Path(env["SMRITI_WEB_DIR"]) if env.get("SMRITI_WEB_DIR") else None,
            api_token=_text(env, "SMRITI_API_TOKEN"),
            cors_origins=_list(env, "SMRITI_CORS_ORIGINS", ()),
            allowed_hosts=_list(env, "SMRITI_ALLOWED_HOSTS", ()),
            debug=_bool(env, "SMRITI_DEBUG"),
            log_level=(env.get("SMRITI_LOG_LEVEL") or "INFO").upper(),
            log_json=_bool(env, "SMRITI_LOG_JSON"),
            webhook_retry_hours=_float(env, "SMRITI_WEBHOOK_RETRY_HOURS", 24.0, maximum=24 * 365, unit="hours"),
            webhook_allow_private=_bool(env, "SMRITI_WEBHOOK_ALLOW_PRIVATE"),
        )


def _text(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _list(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    raw = _text(env, name)
    if raw is None:
        return default
    return tuple(item.strip() for item in raw.split(",") if item.strip())


def _int(env: Mapping[str, str], name: str, default: int, *, minimum: int) -> int:
    raw = _text(env, name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def _float(
    env: Mapping[str, str], name: str, default: float, *, maximum: float = 86_400 * 365, unit: str = "seconds"
) -> float:
    raw = _text(env, name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of {unit}, got {raw!r}") from None
    if not 0 < value <= maximum:  # also refuses nan and inf
        raise ConfigError(f"{name} must be a positive number of {unit} up to {maximum:,.0f}, got {raw}")
    return value


def _bool(env: Mapping[str, str], name: str) -> bool:
    return (env.get(name) or "").strip().lower() in {"1", "true", "yes", "on"}


def parse_context_windows(raw: str | None) -> dict[str, int]:
    """`SMRITI_CONTEXT_WINDOWS`: `model=tokens` entries separated by commas; a bad entry is a
    ConfigError naming it (a window silently ignored would let a send overflow)."""
    windows: dict[str, int] = {}
    for entry in (raw or "").split(","):
        if not entry.strip():
            continue
        model, equals, tokens = entry.partition("=")
        if not equals or not model.strip():
            raise ConfigError(f"SMRITI_CONTEXT_WINDOWS: {entry.strip()!r} is not model=tokens")
        try:
            count = int(tokens.strip())
        except ValueError:
            raise ConfigError(
                f"SMRITI_CONTEXT_WINDOWS: the window of {model.strip()!r} must be a whole number of tokens, "
                f"got {tokens.strip()!r}"
            ) from None
        if count < 1:
            raise ConfigError(f"SMRITI_CONTEXT_WINDOWS: the window of {model.strip()!r} must be at least 1")
        windows[model.strip()] = count
    return windows
