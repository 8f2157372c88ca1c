"""Settings read from the environment (core/config.py)."""

from __future__ import annotations

import pytest

from smriti.core.config import ConfigError, Settings


def test_settings_from_env() -> None:
    settings = Settings.from_env({"SMRITI_MAX_BODY_BYTES": "2048", "OPENAI_API_KEY": " sk-1 ", "SMRITI_DEBUG": "yes"})
    assert settings.max_body_bytes == 2048
    assert settings.openai.api_key == "sk-1"
    assert settings.debug is True
    assert settings.database_url is None
    assert "sk-1" not in repr(settings)
    with pytest.raises(ConfigError, match="SMRITI_MAX_BODY_BYTES"):
        Settings.from_env({"SMRITI_MAX_BODY_BYTES": "lots"})
    with pytest.raises(ConfigError, match="SMRITI_PROVIDER_TIMEOUT"):
        Settings.from_env({"SMRITI_PROVIDER_TIMEOUT": "-1"})
    timeouts = Settings.from_env({"SMRITI_DB_ACQUIRE_TIMEOUT": "2.5", "SMRITI_DB_STATEMENT_TIMEOUT": "12"})
    assert (timeouts.db_acquire_timeout_s, timeouts.db_statement_timeout_s) == (2.5, 12.0)
    assert (settings.db_acquire_timeout_s, settings.db_statement_timeout_s) == (10.0, 30.0)
    for unusable in ("0", "inf", "nan", "3000000"):  # PostgreSQL's limit is 2,147,483 s
        with pytest.raises(ConfigError, match="SMRITI_DB_STATEMENT_TIMEOUT"):
            Settings.from_env({"SMRITI_DB_STATEMENT_TIMEOUT": unusable})
        with pytest.raises(ConfigError, match="SMRITI_MIGRATION_LOCK_TIMEOUT"):
            Settings.from_env({"SMRITI_MIGRATION_LOCK_TIMEOUT": unusable})
    assert settings.migration_lock_timeout_s == 5.0
    assert Settings.from_env({"SMRITI_MIGRATION_LOCK_TIMEOUT": "0.5"}).migration_lock_timeout_s == 0.5


def test_the_bundle_line_limit_is_8_mib_unless_set() -> None:
    assert Settings.from_env({}).max_bundle_line_bytes == 8 * 2**20
    assert Settings.from_env({"SMRITI_MAX_BUNDLE_LINE_BYTES": "65536"}).max_bundle_line_bytes == 65536
    with pytest.raises(ConfigError, match="SMRITI_MAX_BUNDLE_LINE_BYTES must be at least 1024"):
        Settings.from_env({"SMRITI_MAX_BUNDLE_LINE_BYTES": "10"})


def test_webhook_settings() -> None:
    default = Settings.from_env({})
    assert (default.webhook_retry_hours, default.webhook_allow_private) == (24.0, False)
    chosen = Settings.from_env({"SMRITI_WEBHOOK_RETRY_HOURS": "0.01", "SMRITI_WEBHOOK_ALLOW_PRIVATE": "1"})
    assert (chosen.webhook_retry_hours, chosen.webhook_allow_private) == (0.01, True)
    for unusable in ("0", "-1", "nan", "a day"):
        with pytest.raises(ConfigError, match=r"SMRITI_WEBHOOK_RETRY_HOURS must be a .*number of hours"):
            Settings.from_env({"SMRITI_WEBHOOK_RETRY_HOURS": unusable})
