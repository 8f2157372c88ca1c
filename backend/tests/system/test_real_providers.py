"""Contract tests against the real providers. They run only when a key is in the environment."""

from __future__ import annotations

import os
from typing import Any

import asyncpg
import pytest

from smriti.core.config import DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL, ProviderSettings, Settings
from tests.conftest import make_client
from tests.support.api import commit, create_session, create_space, send

REAL = {
    name: (os.environ.get(f"SMRITI_REAL_{prefix}_API_KEY"), os.environ.get(f"SMRITI_REAL_{prefix}_MODEL"))
    for name, prefix in (("openai", "OPENAI"), ("anthropic", "ANTHROPIC"))
}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_real_provider_answers_with_the_mounted_state(
    provider: str, settings: Settings, db: asyncpg.Connection
) -> None:
    key, model = REAL[provider]
    if not key:
        pytest.skip(f"set SMRITI_REAL_{provider.upper()}_API_KEY to run the {provider} contract test")
    real = ProviderSettings(
        api_key=key,
        default_model=model or (DEFAULT_OPENAI_MODEL if provider == "openai" else DEFAULT_ANTHROPIC_MODEL),
    )
    changes: dict[str, Any] = {"provider_timeout_s": 60.0, "provider_max_retries": 1, provider: real}
    async with make_client(settings, **changes) as client:
        space = await create_space(client)
        decisions = ["The project codename is HELIOTROPE."]
        checkpoint = await commit(client, space["id"], "Codename", decisions=decisions)
        session = await create_session(client, space["id"])
        reply = await send(
            client,
            session["id"],
            "What is the project codename? Answer with the codename only.",
            provider=provider,
            checkpoint_id=checkpoint["id"],
            history_base_seq=0,
        )
    assert "HELIOTROPE" in reply["assistant_turn"]["content"].upper()
    assert reply["assistant_turn"]["provider"] == provider
