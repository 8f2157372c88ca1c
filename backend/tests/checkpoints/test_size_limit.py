"""Every Checkpoint a write makes is held to one size limit (SMRITI_MAX_BODY_BYTES), measured as
the canonical JSON its hash covers: a commit, and apply, restore and merges, which build theirs
from stored state and could grow a Space's Checkpoints without bound (issue 42, item 5)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest

from smriti.checkpoints.hashing import encode_content
from smriti.checkpoints.schemas import CheckpointContent
from smriti.core.config import Settings
from tests.conftest import make_client
from tests.support.api import commit, create_space

LIMIT = 8192
ARTIFACT = "x" * 3000
"""Three of these fit a Checkpoint of LIMIT bytes, not four with the rest of it."""


@pytest.fixture
async def small(settings: Settings, db: asyncpg.Connection) -> AsyncIterator[httpx.AsyncClient]:
    """A server whose body limit, and so its Checkpoint limit, is LIMIT bytes."""
    async with make_client(settings, max_body_bytes=LIMIT) as client:
        yield client


def _refused(response: httpx.Response) -> None:
    assert response.status_code == 413, response.text
    problem = response.json()
    assert problem["limit_bytes"] == LIMIT
    assert f"{LIMIT:,} bytes" in problem["detail"]
    assert "SMRITI_MAX_BODY_BYTES" in problem["detail"]
    assert "Nothing was written" in problem["detail"]


async def _count(db: asyncpg.Connection, space: dict[str, Any]) -> int:
    count: int = await db.fetchval("SELECT count(*) FROM commits WHERE repo_id = $1", uuid.UUID(space["id"]))
    return count


async def _head(client: httpx.AsyncClient, space: dict[str, Any]) -> str:
    head: str = (await client.get(f"/v4/repos/{space['id']}/head")).json()["id"]
    return head


@pytest.mark.parametrize("pinned", [False, True])
async def test_apply_cannot_grow_a_checkpoint_past_the_limit(
    small: httpx.AsyncClient, db: asyncpg.Connection, pinned: bool
) -> None:
    """Each apply's request is small, but the Checkpoint it builds carries everything before it:
    the fourth is refused, with nothing written, whether HEAD is read under the line's lock or
    the parent is named."""
    space = await create_space(small)

    async def apply(index: int, **body: Any) -> httpx.Response:
        parent = {"parent_commit_id": await _head(small, space)} if pinned and index else {}
        return await small.post(
            "/v5/checkpoints/apply",
            json={"repo_id": space["id"], "message": f"add a{index}", **parent, **body},
        )

    for index in range(2):
        added = await apply(index, add={"artifacts": [{"name": f"a{index}", "content": ARTIFACT}]})
        assert added.status_code == 201, added.text
    head = await _head(small, space)
    refused = await apply(2, add={"artifacts": [{"name": "a2", "content": ARTIFACT * 2}]})
    _refused(refused)
    assert "largest field is artifacts" in refused.json()["detail"]
    assert (await _count(db, space), await _head(small, space)) == (2, head)
    # Dropping what the parent carries makes room again.
    lighter = await apply(2, remove={"artifacts": ["a0"]}, add={"artifacts": [{"name": "a2", "content": ARTIFACT}]})
    assert lighter.status_code == 201, lighter.text
    assert [artifact["name"] for artifact in lighter.json()["artifacts"]] == ["a1", "a2"]


async def test_a_commit_is_measured_as_stored_not_as_sent(small: httpx.AsyncClient, db: asyncpg.Connection) -> None:
    """A body under the limit whose Checkpoint is over it (each task gains `"done":false`) is
    refused like any other, alone or among commits written together (group commit)."""
    space = await create_space(small)
    tasks = [{"text": "t"} for _ in range(400)]
    body = {"repo_id": space["id"], "message": "many tasks", "tasks": tasks}
    assert len(httpx.Request("POST", "/", json=body).content) < LIMIT
    _refused(await small.post("/v4/chat/commit", json=body))
    others = [await create_space(small, f"other {n}") for n in range(6)]
    answers = await asyncio.gather(
        small.post("/v4/chat/commit", json=body),
        *(small.post("/v4/chat/commit", json={"repo_id": other["id"], "message": "small"}) for other in others),
    )
    _refused(answers[0])
    assert [answer.status_code for answer in answers[1:]] == [201] * len(others)
    assert await _count(db, space) == 0


async def test_the_limit_is_the_canonical_contents_size_to_the_byte(
    small: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    space = await create_space(small)
    fixed: dict[str, Any] = {
        "message": "at the limit",
        "decisions": ["é and \u2028"],
        "metadata": {"b": 1, "a": [True, None]},
    }
    frame = encode_content(CheckpointContent(**fixed, summary="")).size
    summary = "s" * (LIMIT - frame)
    _refused(await small.post("/v4/chat/commit", json={"repo_id": space["id"], **fixed, "summary": summary + "s"}))
    saved = await commit(small, space["id"], **fixed, summary=summary)
    assert saved["summary"] == summary
    assert await _count(db, space) == 1


async def test_restore_and_merges_are_held_to_the_limit(
    settings: Settings, small: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """A Checkpoint larger than this server's limit (made where the limit was higher, or imported
    with the history it had) cannot be made again by a restore, nor joined into one by a merge."""
    async with make_client(settings, max_body_bytes=4 * LIMIT) as roomy:
        space = await create_space(roomy)
        base = await commit(roomy, space["id"], "base")
        large = await commit(roomy, space["id"], "large", artifacts=[{"name": "big", "content": ARTIFACT * 3}])
        await roomy.post(f"/v4/repos/{space['id']}/branches", json={"name": "side", "from_ref": base["id"]})
        side = await commit(
            roomy, space["id"], "side", artifacts=[{"name": "half", "content": ARTIFACT}], branch="side"
        )
    _refused(await small.post(f"/v5/commits/{large['id']}/restore", json={}))
    _refused(await small.post(f"/v5/commits/{large['id']}/restore", json={"branch": "side"}))
    # The merge of side into main by apply: main's HEAD carries the large artifact already.
    _refused(
        await small.post(
            "/v5/checkpoints/apply",
            json={
                "repo_id": space["id"],
                "message": "merge side",
                "merge_parent_id": side["id"],
                "add": {"artifacts": [{"name": "half", "content": ARTIFACT}]},
            },
        )
    )
    # A merge commit a client resolved, into side: measured as stored, like any commit.
    merged = {"repo_id": space["id"], "message": "merge main", "branch": "side", "merge_parent_id": large["id"]}
    _refused(await small.post("/v4/chat/commit", json={**merged, "tasks": [{"text": "t"} for _ in range(400)]}))
    assert await _count(db, space) == 3
    # Within the limit, each of them is written as before.
    assert (await small.post(f"/v5/commits/{side['id']}/restore", json={})).status_code == 201
