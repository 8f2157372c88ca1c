"""Secrets and signatures as the Standard Webhooks specification says (standardwebhooks.com), so
a receiver can verify with its libraries or ten lines of HMAC (docs/api.md)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

SECRET_PREFIX: Final = "whsec_"  # noqa: S105  (the prefix, not a secret)
_SECRET_BYTES: Final = 32


def new_secret() -> bytes:
    return secrets.token_bytes(_SECRET_BYTES)


def shown_secret(secret: bytes) -> str:
    """The secret as the receiver is given it: `whsec_` + base64 of its bytes."""
    return SECRET_PREFIX + base64.b64encode(secret).decode()


def signed_headers(secret: bytes, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """`webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of
    "id.timestamp.body")."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    signature = base64.b64encode(hmac.new(secret, signed, hashlib.sha256).digest()).decode()
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp), "webhook-signature": f"v1,{signature}"}
