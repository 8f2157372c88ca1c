"""Who made a Checkpoint, as the server vouches for it (SYSTEM.md §13).

A Checkpoint made with an agent key says so in `metadata.author` whatever the agent sent: the
server writes `{kind: "agent", id, name}` there, and keeps the `author` the client sent, if
any, as `metadata.claimed_author`. Neither key is the agent's to set: a `claimed_author` it sent
itself is replaced (by its `author`, or dropped when it sent none), so no agent can make a
Checkpoint look vouched for by the server, nor put words in the server's mouth about what it
claimed. The person's Checkpoints are written as sent.

Both keys are content like any other metadata: hashed into the chain, exported and imported.
"""

from __future__ import annotations

from typing import Any

import msgspec

from smriti.access.caller import Agent
from smriti.checkpoints.schemas import CommitCreate

AUTHOR = "author"
CLAIMED_AUTHOR = "claimed_author"


def vouched_metadata(metadata: dict[str, Any], agent: Agent) -> dict[str, Any]:
    """`metadata` with the server's `author` for `agent`, the sent `author` kept as `claimed_author`."""
    kept = {key: value for key, value in metadata.items() if key not in (AUTHOR, CLAIMED_AUTHOR)}
    kept[AUTHOR] = agent.author()
    if AUTHOR in metadata:
        kept[CLAIMED_AUTHOR] = metadata[AUTHOR]
    return kept


def vouched(data: CommitCreate, agent: Agent | None) -> CommitCreate:
    """The commit as the server writes it: an agent's with vouched metadata, the person's as sent."""
    if agent is None:
        return data
    return msgspec.structs.replace(data, metadata=vouched_metadata(data.metadata, agent))
