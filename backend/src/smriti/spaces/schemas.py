from __future__ import annotations

import datetime
from uuid import UUID

import msgspec

from smriti.core.schemas import Request, ShortName, Text, Usage


class SpaceCreate(Request):
    name: ShortName
    description: Text = ""


class SpaceUpdate(Request):
    name: ShortName | msgspec.UnsetType = msgspec.UNSET
    description: Text | msgspec.UnsetType = msgspec.UNSET


class Space(msgspec.Struct, kw_only=True):
    """A Space (a `repo` internally): a named line of work with a HEAD Checkpoint."""

    id: UUID
    name: str
    description: str
    head_commit_id: UUID | None
    head_commit_hash: str | None
    head_message: str | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    usage: Usage
    """Tokens the replies of all its Sessions cost, as the providers reported them."""
