"""The shapes of agent keys on the wire (SYSTEM.md §13)."""

from __future__ import annotations

import datetime
from typing import Annotated
from uuid import UUID

import msgspec

from smriti.core.schemas import NON_EMPTY_PATTERN, Request

AgentName = Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=NON_EMPTY_PATTERN)]
"""1–100 characters, not only white space, no NUL (PostgreSQL text cannot hold one)."""


class AgentCreate(Request):
    name: AgentName
    # The Spaces it may reach; null: every Space, and it may create Spaces.
    spaces: Annotated[list[UUID], msgspec.Meta(max_length=1000)] | None
    write: bool = True


class AgentKey(msgspec.Struct):
    """An agent key as listed: never the key itself."""

    id: UUID
    name: str
    spaces: list[UUID] | None
    write: bool
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None
    revoked_at: datetime.datetime | None


class NewAgentKey(AgentKey):
    """The answer to creating a key: the only time `token` is shown."""

    token: str


class Author(msgspec.Struct, omit_defaults=True):
    """Who made a line, a Session, a Turn or a proposal: the person, or a named agent."""

    kind: str  # "person" | "agent"
    id: UUID | None = None
    name: str | None = None


class Me(msgspec.Struct, omit_defaults=True):
    """Who the server takes the caller to be: the person, or an agent with what its key reaches."""

    kind: str  # "person" | "agent"
    write: bool
    id: UUID | None = None
    name: str | None = None
    spaces: list[UUID] | None = None
    """An agent's Spaces; absent: every Space."""
