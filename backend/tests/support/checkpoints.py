"""A Checkpoint as the API returns it, built in memory for the pure tests."""

from __future__ import annotations

import datetime
import uuid

from smriti.checkpoints.schemas import Checkpoint


def build_checkpoint(**fields: object) -> Checkpoint:
    base: dict[str, object] = {
        "id": uuid.uuid4(),
        "repo_id": uuid.uuid4(),
        "parent_commit_id": None,
        "merge_parent_id": None,
        "commit_hash": "abcdef0123" + "0" * 54,
        "message": "State",
        "summary": "",
        "decisions": [],
        "assumptions": [],
        "tasks": [],
        "open_questions": [],
        "entities": [],
        "artifacts": [],
        "metadata": {},
        "created_at": datetime.datetime.now(datetime.UTC),
    }
    base.update(fields)
    return Checkpoint(**base)  # type: ignore[arg-type]
