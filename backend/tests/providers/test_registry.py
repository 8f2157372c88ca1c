"""Which provider is the default (providers/registry.py)."""

from __future__ import annotations

import pytest

from smriti.core.config import ConfigError, Settings
from smriti.providers.registry import ProviderRegistry


def test_default_provider_is_offline_only_without_keys() -> None:
    assert ProviderRegistry(Settings.from_env({})).default_name == "offline"
    assert ProviderRegistry(Settings.from_env({"ANTHROPIC_API_KEY": "k"})).default_name == "anthropic"
    assert (
        ProviderRegistry(Settings.from_env({"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"})).default_name == "openai"
    )
    with pytest.raises(ConfigError):
        ProviderRegistry(Settings.from_env({"SMRITI_DEFAULT_PROVIDER": "anthropic"}))
