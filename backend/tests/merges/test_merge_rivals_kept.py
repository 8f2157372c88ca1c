"""The search for rival choices is kept by the two Checkpoints merged: a proposal's page or a
merge preview read again costs no second search (~200 ms of CPU for two 1,000-item states), and a
line that moves gets a search of its own."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import smriti.merges.service as merge_service
from smriti.merges.rivals import merge_rivals
from tests.support.api import commit, create_space


async def test_a_second_preview_of_the_same_checkpoints_searches_once(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[int] = []
    search = merge_rivals

    def counting(*args: Any) -> Any:
        searched.append(1)
        return search(*args)

    monkeypatch.setattr(merge_service, "merge_rivals", counting)
    space = await create_space(client, "rivals kept")
    base = await commit(client, space["id"], "base", decisions=["Plan the trip"])
    response = await client.post(f"/v4/repos/{space['id']}/branches", json={"name": "other", "from_ref": base["id"]})
    assert response.status_code == 201
    await commit(client, space["id"], "ours", decisions=["Plan the trip", "Stay in Baixa"])
    await commit(client, space["id"], "theirs", branch="other", decisions=["Plan the trip", "Stay in Graca"])
    path = f"/v5/repos/{space['id']}/merge"
    first = (await client.get(path, params={"ours": "main", "theirs": "other"})).json()
    second = (await client.get(path, params={"ours": "main", "theirs": "other"})).json()
    assert first["rivals"], "the two stays are rival choices"
    assert second == first
    assert len(searched) == 1
    await commit(client, space["id"], "moved", branch="other", decisions=["Plan the trip", "Stay in Graca", "Walk"])
    third = (await client.get(path, params={"ours": "main", "theirs": "other"})).json()
    assert third["theirs_commit_id"] != first["theirs_commit_id"]
    assert third["rivals"] == first["rivals"]
    assert len(searched) == 2
