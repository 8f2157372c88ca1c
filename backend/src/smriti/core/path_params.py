"""Path parameters taken as text and checked by the handler (for a 400 that names them in our
words), described in the OpenAPI document by the limits the handler holds them to."""

from __future__ import annotations

from typing import Annotated

from litestar.params import PathParameter

from smriti.core.schemas import MAX_INT4, MAX_LINE_NAME

MAX_REF = 64
"""A Checkpoint ref: an id (36 characters, or 45 as `urn:uuid:…`) or a hash or its prefix (≤ 64)."""

CheckpointRefPath = Annotated[
    str,
    PathParameter(
        description="A Checkpoint's id, its full hash, or a unique prefix of the hash (at least 7 hex digits).",
        schema_extra={"minLength": 1, "maxLength": MAX_REF},
    ),
]
LineNamePath = Annotated[
    str,
    PathParameter(
        description="A line's name, matched whatever its case, Unicode form or spacing (a name may hold `/`; "
        "no line has a longer one, so a longer name is a 404).",
        schema_extra={"minLength": 1, "maxLength": MAX_LINE_NAME},
    ),
]
SequenceNumberPath = Annotated[
    str,
    PathParameter(
        description="A Turn's sequence number in its Session.",
        schema_extra={"type": "integer", "minimum": 1, "maximum": MAX_INT4},
    ),
]
ProposalNumberPath = Annotated[
    str,
    PathParameter(
        description="A proposal's number in its Space (from 1).",
        schema_extra={"type": "integer", "minimum": 1, "maximum": MAX_INT4},
    ),
]
