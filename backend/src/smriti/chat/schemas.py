from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

import msgspec

from smriti.core.schemas import MAX_INT4, NonEmptyText, Request, RequestId, SequenceNumber, ShortName
from smriti.sessions.schemas import Turn

TOKEN_ESTIMATE = "about 4 characters per token"  # noqa: S105 (not a secret)
"""How a count is made where the model's tokenizer cannot be had offline."""


class ContextRequest(Request, kw_only=True):
    """What to build a context for: a Session, optionally a mounted Checkpoint and its boundary."""

    session_id: UUID
    provider: ShortName | None = None
    model: ShortName | None = None
    checkpoint_id: UUID | None = None
    history_base_seq: SequenceNumber | None = None
    """With `checkpoint_id`: only Turns with `sequence_number` above this are in context. A
    Session with a base needs neither: its base and all its Turns are in context."""
    content: NonEmptyText | None = None
    """Preview only: the message about to be sent. `messages` then ends with it, and
    `context_sha256` is the receipt its reply will carry."""


class SendRequest(ContextRequest, kw_only=True):
    content: NonEmptyText  # required here: what is sent
    request_id: RequestId | None = None
    """Makes a resend idempotent: the same key in the same Session returns the stored pair."""
    retry_of: Annotated[int, msgspec.Meta(ge=1, le=MAX_INT4)] | None = None
    """Ask the last exchange again: the `sequence_number` of its user Turn, whose text `content`
    must be. The model gets the context that exchange had, without the exchange itself; the new
    pair is stored after it, and the retried pair stays in the history, out of every later
    context. Only the Session's last exchange can be retried (409 otherwise, and if another
    exchange is stored while the retry is being answered: nothing is stored then)."""


class Suggestion(msgspec.Struct):
    checkpoint_recommended: bool
    reason: str | None


class SendResponse(msgspec.Struct):
    user_turn: Turn
    assistant_turn: Turn
    suggestion: Suggestion


class ContextMessage(msgspec.Struct):
    role: Literal["user", "assistant"]
    content: str
    sequence_number: int | None
    """None for a message that is not stored yet."""


class ContextSection(msgspec.Struct):
    name: str
    part: Literal["system", "history"]
    items: int
    tokens: int


class LeftOut(msgspec.Struct):
    """Turns in scope that the provider is not sent, and why."""

    sequence_numbers: list[int]
    reason: str


class ContextPreview(msgspec.Struct, kw_only=True):
    """Exactly what the provider will receive with the next message (before that message)."""

    session_id: UUID
    provider: str
    model: str
    checkpoint_id: UUID | None
    """The Checkpoint in context: the mounted one, else the Session's base."""
    history_base_seq: int | None
    """The mount's boundary; null for a Session's base (all its Turns are after it)."""
    checkpoint_from: Literal["mount", "base"] | None
    """Where the Checkpoint in context comes from: the request's mount or the Session's base."""
    system: str | None
    messages: list[ContextMessage]
    sections: list[ContextSection]
    total_tokens: int
    context_window: int | None = None
    """The model's window in tokens (`GET /v4/providers`); null when unknown."""
    tokenizer: str | None = None
    """The encoding the counts were made with, the model's own (`o200k_base`, `cl100k_base`);
    null when they are the estimate."""
    token_estimate: str = TOKEN_ESTIMATE
    """How the counts were made, in words (the estimate's rule, or the tokenizer that counted)."""
    context_sha256: str = ""
    """SHA-256 of the RFC 8785 canonical JSON of `{provider, model, system, messages}` as shown:
    with `content`, the receipt the reply will carry (`Turn.context_sha256`)."""
    left_out: LeftOut | None = None
    """The Turns in scope that are not in `messages` because this provider is not sent them (the
    offline provider's replies, to any other provider); null when every Turn in scope is sent."""


class AnsweredContext(msgspec.Struct, kw_only=True):
    """`GET /v4/sessions/{session_id}/turns/{sequence_number}/context`: the context a reply was
    answered from, rebuilt from the Checkpoint and Turns it was sent with (neither ever
    changes), and its hash beside the receipt the reply recorded."""

    session_id: UUID
    sequence_number: int
    """The reply's."""
    provider: str | None
    model: str | None
    """The model the message was sent to (its user Turn's)."""
    checkpoint_id: UUID | None
    history_base_seq: int | None
    system: str | None
    messages: list[ContextMessage]
    """Oldest first; the last is the message this reply answered."""
    context_sha256: str
    """The hash of this rebuilt context."""
    recorded_sha256: str | None
    """The receipt the reply recorded when it was answered; null for a reply stored before
    receipts existed, or imported."""
    matches: bool | None
    """Whether the two are the same; null when there is no receipt to compare."""
    left_out: LeftOut | None = None
    """The Turns in scope that the provider was not sent (as in `ContextPreview.left_out`); null
    when none were, as for a reply answered before the offline provider's replies were left out,
    whose receipt proves it was sent them."""
