"""A receipt for every reply (SYSTEM.md §9): what the provider was sent, as one hash.

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

import hashlib
from collections.abc import Iterable

import msgspec

from smriti.providers.base import ChatMessage


class _Message(msgspec.Struct):
    content: str
    role: str


class _Context(msgspec.Struct):
    messages: list[_Message]
    model: str
    provider: str
    system: str | None


_canonical = msgspec.json.Encoder(order="sorted").encode


def canonical_context(provider: str, model: str, system: str | None, messages: Iterable[ChatMessage]) -> bytes:
    """The canonical JSON a receipt hashes."""
    sent = [_Message(message.content, message.role) for message in messages]
    return _canonical(_Context(messages=sent, model=model, provider=provider, system=system))


def context_sha256(provider: str, model: str, system: str | None, messages: Iterable[ChatMessage]) -> str:
    return hashlib.sha256(canonical_context(provider, model, system, messages)).hexdigest()
