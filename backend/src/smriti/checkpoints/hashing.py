"""`commit_hash`: SHA-256 over the RFC 8785 canonical JSON of a Checkpoint and its parent's hash.

The hash is computed from the values as the client sent them (after defaults are filled in),
never from JSON that PostgreSQL re-serialised. JSONB reorders keys and re-spells numbers, which
canonicalisation undoes, so `verify` recomputing from the stored values gets the same hash as
long as nothing was changed.
"""

from __future__ import annotations

import datetime
import hashlib
import math
from collections.abc import Mapping
from typing import Any
from uuid import UUID

import msgspec
import rfc8785

from smriti.checkpoints.schemas import CheckpointContent
from smriti.errors import BadRequest

CONTENT_FIELDS = (
    "message",
    "summary",
    "decisions",
    "assumptions",
    "tasks",
    "open_questions",
    "entities",
    "artifacts",
    "metadata",
)

# RFC 8785 numbers are IEEE doubles: integers beyond 2^53 cannot be represented exactly.
_MAX_SAFE_INTEGER = 2**53 - 1
_MAX_DEPTH = 32


def content_of(checkpoint: CheckpointContent) -> dict[str, Any]:
    """The hashed fields as plain JSON values, defaults filled in, ready to store as JSONB."""
    content = {name: msgspec.to_builtins(getattr(checkpoint, name)) for name in CONTENT_FIELDS}
    check_storable(content["metadata"], "metadata")
    return content


def check_storable(value: Any, path: str) -> None:
    """Reject free-form JSON that PostgreSQL or RFC 8785 cannot hold exactly, naming the place."""
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise BadRequest(f"{path} is nested more than {_MAX_DEPTH} levels deep", field=where)
        if isinstance(item, Mapping):
            for key, child in item.items():
                _check_text(key, where, "keys")
                stack.append((child, f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{index}]", depth + 1) for index, child in enumerate(item))
        else:
            _check_scalar(item, where)


def _check_text(text: str, where: str, what: str = "text") -> None:
    if "\x00" in text:
        raise BadRequest(f"{what} must not contain NUL (\\u0000) characters", field=where)


def _check_scalar(item: Any, where: str) -> None:
    if isinstance(item, str):
        _check_text(item, where)
    elif isinstance(item, bool) or item is None:
        return
    elif isinstance(item, int) and abs(item) > _MAX_SAFE_INTEGER:
        raise BadRequest("integers must lie within ±(2^53 − 1)", field=where)
    elif isinstance(item, float) and (not math.isfinite(item) or abs(item) > _MAX_SAFE_INTEGER):
        raise BadRequest("numbers must be finite and within ±(2^53 − 1)", field=where)


def format_timestamp(moment: datetime.datetime) -> str:
    """Always the same spelling: UTC, microseconds, `Z`."""
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def compute_commit_hash(
    *,
    commit_id: UUID,
    repo_id: UUID,
    parent_hash: str | None,
    created_at: datetime.datetime,
    content: Mapping[str, Any],
) -> str:
    document = {
        "id": str(commit_id),
        "repo_id": str(repo_id),
        "parent_hash": parent_hash,
        "created_at": format_timestamp(created_at),
        **{name: content[name] for name in CONTENT_FIELDS},
    }
    return hashlib.sha256(rfc8785.dumps(document)).hexdigest()
