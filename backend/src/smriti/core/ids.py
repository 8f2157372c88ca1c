"""Time-ordered ids for every row Smriti creates: Spaces, Sessions and Checkpoints.

An id is a UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, then 74 random
bits. Ids made in a later millisecond sort later (within one millisecond the order is random), so
a new row's id goes near the right-hand end of the indexes that start with it instead of on a
random page of each: for a Checkpoint, the primary key, the per-Space index (at the end of its
Space's range) and usually the parent index; for a Session, also the Turns' primary key, which
starts with the Session's id. After every PostgreSQL checkpoint, the first change to a page writes
the whole page to the WAL, so random ids cost extra full-page images; `make bench-wal` measures
how many for Checkpoints.

Nothing reads meaning into the order of ids: the log orders by `created_at`, which the commit
statement takes after it locks the Space.
"""

from __future__ import annotations

import os
import re
import time
from uuid import UUID

_VERSION_7 = 0x7 << 76
_VARIANT_RFC = 0b10 << 62
_RAND_A = (1 << 12) - 1
_RAND_B = (1 << 62) - 1


def uuid7() -> UUID:
    """A new UUID version 7 (Python's own `uuid.uuid7` arrives in 3.14)."""
    milliseconds = time.time_ns() // 1_000_000
    random = int.from_bytes(os.urandom(10))
    return UUID(
        int=(milliseconds << 80) | _VERSION_7 | ((random >> 62) & _RAND_A) << 64 | _VARIANT_RFC | (random & _RAND_B)
    )


HASH_REF = re.compile(r"^[0-9a-f]{7,64}$")
"""A Checkpoint's hash, or a prefix of it long enough to name one (in lower case)."""


def could_be_checkpoint_ref(text: str) -> bool:
    """Whether `text` has the shape of a Checkpoint ref as `GET /v4/commits/{ref}` reads one
    (around white space dropped, either case): 7 to 64 hex digits (a hash or a prefix of one), or
    an id (a UUID, spelled any way `UUID()` reads one: with or without dashes or braces)."""
    ref = text.strip().lower()
    if HASH_REF.match(ref):
        return True
    try:
        UUID(ref)
    except ValueError:
        return False
    return True
