from __future__ import annotations

import datetime
from typing import Literal
from uuid import UUID

import msgspec

from smriti.access.schemas import Author
from smriti.core.schemas import Request, ShortName, Text, Usage


class SessionCreate(Request):
    title: Text = ""
    provider: ShortName | None = None
    model: ShortName | None = None
    base_commit_id: UUID | None = None
    """A Checkpoint of this Space the Session starts from: every message sent in it gets that
    Checkpoint's state plus this Session's Turns, with no `history_base_seq` needed."""


class SessionUpdate(Request, kw_only=True):
    """`PATCH /v4/sessions/{session_id}`: rename a Session. An empty title leaves it untitled."""

    title: Text


class ForkRequest(Request, kw_only=True):
    """`POST /v5/sessions/{session_id}/fork`: a new Session of the same Space, based on
    `checkpoint_id`. No Turn is copied."""

    checkpoint_id: UUID
    title: Text | None = None
    """Default: the origin's title with "(fork)"."""


class ForkedFrom(msgspec.Struct, kw_only=True):
    session_id: UUID
    sequence_number: int
    """The origin's last Turn when the fork was made."""
    deleted: bool
    """The origin has been deleted since: the id is kept, as history, but names no Session now.
    The fork itself works as ever (its context is its base and its own Turns)."""


class LastSaved(msgspec.Struct, kw_only=True):
    """The Checkpoint saved from a Session last, where its next save starts from."""

    commit_id: UUID
    """The newest Checkpoint of the Space whose `metadata.source.session_id` is this Session."""
    commit_hash: str
    """Its hash, as a client shows it (the first 7 characters name it wherever a ref is taken)."""
    branch: str | None
    """The line it went to (the line whose HEAD it became when saved), by its name now; null when
    that line has been deleted, or is not known (a Checkpoint saved before this was recorded and
    no line's HEAD then, or one that came in with an imported Space)."""


class Continuation(msgspec.Struct, kw_only=True):
    """A Session continued from this one: forked from it, based on a Checkpoint."""

    session_id: UUID
    title: str
    base_commit_id: UUID | None
    base_commit_hash: str | None
    created_at: datetime.datetime


class Session(msgspec.Struct, kw_only=True):
    id: UUID
    repo_id: UUID
    title: str
    provider: str | None
    """The provider of the last message sent (or the one chosen at creation)."""
    model: str | None
    turn_count: int
    """Also the highest `sequence_number`: Turns are numbered 1..turn_count with no gaps."""
    base_commit_id: UUID | None
    """The Checkpoint this Session starts from, if any (see `SessionCreate`)."""
    base_commit_hash: str | None
    """Its hash, as a client shows it; null exactly when `base_commit_id` is."""
    forked_from: ForkedFrom | None
    """Where this Session was forked from, if it was."""
    last_saved: LastSaved | None
    """The Checkpoint saved from this Session last and the line it went to: where its next save
    starts from (null: nothing was saved from it). What its next message receives is its base
    (`base_commit_id`, if any) plus all of its Turns."""
    continued_in: list[Continuation]
    """The Sessions continued from this one (forked from it), newest first, at most 10:
    `continued_count` says how many there are, and `GET /v4/repos/{repo_id}/sessions?forked_from={id}`
    lists them all."""
    continued_count: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    usage: Usage
    """Tokens its replies cost, as the providers reported them."""
    created_by: Author | None
    """The agent whose key made the Session (with its current name); null: the person."""


MAX_TITLE_FILTER = 200
"""The longest `?q=` a Session list takes: a title filter, not a document."""

CONTINUED_SHOWN = 10
"""How many of the Sessions continued from one a Session lists (`Session.continued_in`; its
description says the number too)."""


class Turn(msgspec.Struct, kw_only=True):
    session_id: UUID
    sequence_number: int
    role: Literal["user", "assistant"]
    content: str
    provider: str | None
    model: str | None
    checkpoint_id: UUID | None
    """The Checkpoint in context when this Turn was sent: the mounted one, else the Session's base."""
    history_base_seq: int | None
    """The mount boundary this Turn was sent with; null with no mount (a based Session's Turns
    carry their base as `checkpoint_id` and no boundary)."""
    input_tokens: int | None
    output_tokens: int | None
    request_id: str | None
    created_at: datetime.datetime
    retry_of: int | None = None
    """On the user Turn of a retry: the `sequence_number` of the user Turn it asks again. That
    earlier pair stays in the history and is left out of every later context."""
    stopped: bool = False
    """On an assistant Turn: its streamed reply was stopped (the client went away) before it was
    complete; `content` is what had arrived. The pair is in later contexts like any other."""
    context_sha256: str | None = None
    """On an assistant Turn: the receipt, SHA-256 (hex) of the RFC 8785 canonical JSON of exactly
    what the provider was sent for this reply (`{provider, model, system, messages}`); the user
    Turn before it names the model it was sent to. `GET /v4/sessions/{session_id}/turns/
    {sequence_number}/context` rebuilds that context and its hash. Null on Turns stored before
    receipts existed, and on imported ones."""
    context_through_seq: int | None = None
    """On a user Turn: the Session's last Turn when this message's context was read; its
    context held the Turns up to it (after the boundary, less the retried pairs). A send
    answered at the same time as another in the Session does not see that one's pair."""
    at_limit: bool = False
    """On an assistant Turn: the provider ended the reply at its length limit (OpenAI
    `finish_reason: length`, Anthropic `stop_reason: max_tokens`), so it may be cut off
    mid-answer. The limit is `SMRITI_MAX_REPLY_TOKENS` (else the provider's default), at most a
    quarter of a known window."""
    created_by: Author | None
    """The agent whose key sent the message (with its current name); null: the person. Not a
    column of its own name: `turns.created_by` keeps the agent's id (`sessions/turns.py`)."""


def session_location(session_id: UUID) -> str:
    """Where a Session is read: the `Location` of a 201 that made one."""
    return f"/v4/sessions/{session_id}"
