"""Helpers for tests of what agents may do: a key, and its header."""

from __future__ import annotations

from typing import Any

import httpx


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def agent_headers(
    client: httpx.AsyncClient, name: str = "bot", **body: Any
) -> tuple[dict[str, Any], dict[str, str]]:
    """A new agent key (made by the person) and the headers that use it."""
    response = await client.post("/v5/agents", json={"name": name, "spaces": None, **body})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made, bearer(made["token"])
