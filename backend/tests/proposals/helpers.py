"""Driving proposals the way a client would."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.api import commit, create_space

BASE: dict[str, Any] = {"decisions": ["Stay in Baixa"], "summary": "A trip to Lisbon."}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def make_agent(client: httpx.AsyncClient, name: str = "bot", **body: Any) -> dict[str, Any]:
    response = await client.post("/v5/agents", json={"name": name, "spaces": None, **body})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


async def line(client: httpx.AsyncClient, space_id: str, name: str, from_ref: str) -> None:
    response = await client.post(f"/v4/repos/{space_id}/branches", json={"name": name, "from_ref": from_ref})
    assert response.status_code == 201, response.text


async def space_with_line(client: httpx.AsyncClient, name: str = "work") -> tuple[str, dict[str, Any]]:
    """A Space whose `main` has a base Checkpoint, and a line `name` started from it."""
    space = await create_space(client, "proposals")
    base = await commit(client, space["id"], "base", **BASE)
    await line(client, space["id"], name, base["id"])
    return space["id"], base


async def propose(
    client: httpx.AsyncClient,
    space_id: str,
    body: dict[str, Any],
    expect: int = 201,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    response = await client.post(f"/v5/repos/{space_id}/proposals", json=body, headers=headers)
    assert response.status_code == expect, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def merge(
    client: httpx.AsyncClient, space_id: str, number: int, status: int = 200, **body: Any
) -> dict[str, Any]:
    response = await client.post(f"/v5/repos/{space_id}/proposals/{number}/merge", json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def field_of(problem: dict[str, Any]) -> list[str]:
    return [error["field"] for error in problem.get("errors", [])]
