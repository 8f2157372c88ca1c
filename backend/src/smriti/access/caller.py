"""Who is asking: the person, or an agent with a key. The one way every domain learns it.

The guard (`access/guard.py`) puts the caller of each API request here before the handler runs;
a handler declares `caller: NamedDependency[Caller]`, and anything below it that must know (a
store vouching for authorship, a check on a Space) is handed that value. An agent sees only its
Spaces: every other one answers exactly as a Space that does not exist (404), so a key never
tells whether a Space is there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final
from uuid import UUID

from smriti.core.errors import Forbidden, NotFound

READ_ONLY = "This agent key may only read; ask the person for a key that may write."


@dataclass(frozen=True, slots=True)
class Agent:
    """A caller with an agent key (`smr_…`)."""

    id: UUID
    name: str
    # The Spaces it may reach; None: every Space (and it may create Spaces).
    spaces: frozenset[UUID] | None
    write: bool

    def sees(self, repo_id: UUID) -> bool:
        return self.spaces is None or repo_id in self.spaces

    def author(self) -> dict[str, Any]:
        """What the server writes as a Checkpoint's `metadata.author`, whatever the agent claims."""
        return {"kind": "agent", "id": str(self.id), "name": self.name}


def space_not_found(repo_id: UUID | str, *, field: str | None = "repo_id", source: str = "path") -> NotFound:
    """The answer for a Space that does not exist, and so for one the caller may not see."""
    return NotFound(f"No Space with id {repo_id}.", field=field, source=source)


class Caller:
    """The person (`agent` None: `SMRITI_API_TOKEN`, or anyone when it is unset) or an agent.

    One class rather than a union: Litestar checks a dependency's value against its type, and
    an instance check of one class is all that costs."""

    __slots__ = ("agent", "space_of_session")

    def __init__(
        self, agent: Agent | None = None, space_of_session: Callable[[UUID], Awaitable[UUID | None]] | None = None
    ) -> None:
        self.agent: Final = agent
        # How an agent's request learns which Space a Session is in (`access/scope.py`): given by
        # the keys that made this caller, so no one passes a pool around to ask.
        self.space_of_session: Final = space_of_session

    def __repr__(self) -> str:
        return "Caller(person)" if self.agent is None else f"Caller(agent {self.agent.id})"

    @property
    def agent_id(self) -> UUID | None:
        """What `created_by` records: the agent's id, or None for the person."""
        return None if self.agent is None else self.agent.id

    def require_person(self, what: str) -> None:
        """403 unless the person is asking: `what` says what only the person does."""
        if self.agent is not None:
            raise Forbidden(f"Only the person {what}; an agent key cannot.")


PERSON: Final = Caller()

_CURRENT: ContextVar[Caller] = ContextVar("smriti_caller")


def current_caller() -> Caller:
    """The caller of the request being handled (the provider of the `caller` dependency). Outside
    a request (start-up, the benchmarks' direct calls) there is none, and asking is a bug."""
    return _CURRENT.get()
