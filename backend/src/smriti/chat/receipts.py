"""A receipt for every reply (docs/api.md, "Sending and the exact context"): what the provider was sent, as one hash.

`context_sha256` is the SHA-256 (hex) of the RFC 8785 canonical JSON of `{provider, model,
system, messages}`: the provider's name, the model the message was sent to, the system text (the
Checkpoint in context, or null) and the messages as `{role, content}`, oldest first, the new
message last. Each adapter then renders that for its API (OpenAI puts the system text first
among the messages, Anthropic beside them); the receipt is of what Smriti decided to send, which
every adapter sends as it is.

The same function makes the receipt a send stores on its reply, the hash the context preview
answers, and the hash of a past reply's rebuilt context, so "what did the model see when it
said this?" has an answer anyone can check: rebuild, hash, compare.

Canonical JSON for these values (strings, null, arrays, objects with ASCII keys) is sorted keys,
no whitespace, and JSON's minimal escapes, which msgspec writes in C (`order="sorted"`);
`tests/chat/test_receipts.py` holds it byte for byte to the `rfc8785` package, a control
character, a quote and every other code point up to U+2FFF included.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Hashable, Iterable, Sequence
from typing import Any
from uuid import UUID

import msgspec

from smriti.core.lru import SizedLru
from smriti.providers.base import ChatMessage

_canonical = msgspec.json.Encoder(order="sorted").encode
# The keys in RFC 8785's order (sorted): the messages come first, so the hash of a Session's
# history is a prefix that every later send of it shares (`ReceiptCache`).
_OPEN = b'{"messages":['
# A message is {"content":…,"role":…}; the roles a context holds are these, made once.
_ROLE_ENDS = {role: b',"role":' + _canonical(role) + b"}" for role in ("user", "assistant")}


def _message(message: ChatMessage) -> bytes:
    end = _ROLE_ENDS.get(message.role) or b',"role":' + _canonical(message.role) + b"}"
    return b'{"content":' + _canonical(message.content) + end


# A mounted Session sends the same system text (its Checkpoint, ~4 KB) with every message:
# encoding it once per Checkpoint and model, not on every send, saves ~5 µs a mounted send.
@functools.lru_cache(maxsize=32)
def _close(model: str, provider: str, system: str | None) -> bytes:
    return (
        b'],"model":'
        + _canonical(model)
        + b',"provider":'
        + _canonical(provider)
        + b',"system":'
        + _canonical(system)
        + b"}"
    )


def canonical_context(provider: str, model: str, system: str | None, messages: Iterable[ChatMessage]) -> bytes:
    """The canonical JSON a receipt hashes."""
    return _OPEN + b",".join(map(_message, messages)) + _close(model, provider, system)


def context_sha256(provider: str, model: str, system: str | None, messages: Iterable[ChatMessage]) -> str:
    return hashlib.sha256(canonical_context(provider, model, system, messages)).hexdigest()


class _Prefix(msgspec.Struct):
    """The hash state after a history's first `count` messages, the last of them Turn `last_seq`."""

    state: Any  # a hashlib sha256 object
    count: int
    last_seq: int


def receipt_key(
    session_id: UUID, checkpoint_id: UUID | None, history_base_seq: int | None, *, leaves_out: bool
) -> Hashable:
    """A Session's context under one mount, as `ReceiptCache` keys it: by the ids' integers, which
    hash in C (a UUID hashes in Python, uuid.py's `__hash__`, on every look-up). `leaves_out`:
    whether the offline provider's replies are left out (`context.left_out_for`); a Session sent
    to both kinds of provider keeps a history for each, every one of which only ever loses pairs
    to retries, as the cache requires."""
    return (session_id.int, None if checkpoint_id is None else checkpoint_id.int, history_base_seq, leaves_out)


class ReceiptCache:
    """A send's receipt without hashing its whole history again.

    Hashing a Session's whole context on every send cost ~20% of a send's CPU at 60 Turns, and
    it grows with the Session. The canonical JSON opens with the messages, and a Session's next
    context is this one's history, its new pair, and a new message; so the hash state after the
    history is kept per (Session, mount), and the next send feeds it only what came since. It
    is reused only when the history still begins with the same messages: the same count up to
    the same last Turn. Turns never change, and a retry only ever takes pairs out, which changes
    that count, so equal counts and last Turns mean equal prefixes; anything else hashes afresh.
    """

    def __init__(self, entries: int = 10_000) -> None:
        self._prefixes: SizedLru[Hashable, _Prefix] = SizedLru(entries, _one)

    def receipt(self, key: Hashable, request: tuple[str, str, str | None], messages: Sequence[Any]) -> str:
        """The receipt of `messages` (the history's HistoryTurns, with a `sequence_number`, then
        the new message last) sent as `request` = (provider, model, system). Works on indices:
        copying a long history would cost more than hashing what is new in it."""
        provider, model, system = request
        count = len(messages) - 1  # the history's; the last message is the one being sent
        kept = self._prefixes.get(key)
        if kept is None or not (0 < kept.count <= count and messages[kept.count - 1].sequence_number == kept.last_seq):
            kept = _Prefix(hashlib.sha256(_OPEN), 0, 0)
            if count:
                self._prefixes.put(key, kept)
        if kept.count < count:
            # The kept state moves on in place: this history begins with it, and so will the next.
            rest = b",".join([_message(messages[i]) for i in range(kept.count, count)])
            kept.state.update(b"," + rest if kept.count else rest)
            kept.count, kept.last_seq = count, messages[count - 1].sequence_number
        digest = kept.state.copy()
        digest.update((b"," if count else b"") + _message(messages[count]) + _close(model, provider, system))
        return str(digest.hexdigest())


def _one(_: _Prefix) -> int:
    return 1
