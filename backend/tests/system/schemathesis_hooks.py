"""Loaded by schemathesis (SCHEMATHESIS_HOOKS) in the contract test: a Space bundle's body is
ndjson, which schemathesis has no serializer for; it is sent as the text it generates, so the
import is fuzzed with what is not a bundle like every other body."""

from __future__ import annotations

import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
