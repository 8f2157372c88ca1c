"""What an agent key reaches (SYSTEM.md §13): its Spaces only, and only to read if it may not write.

Every other Space answers exactly as one that does not exist: the same status, detail and field
as a random id, so a key never learns whether a Space, Session or Checkpoint is there.

- A route's path is checked here, by the guard, before the handler runs (`check_route`): a
  `repo_id` in memory against the key's Spaces (no query: HEAD with a key costs what it costs the
  person), a `session_id` by one small query, and only for a key limited to some Spaces. What the
  route does (`core/routes.ACCESS`, declared on its handler) decides whether a read-only key may
  use it, and whether a limited key may (make a Space).
- A Checkpoint named by id, hash or prefix (a path's `ref`, a line's `from_ref`, a merge's `ours`)
  is looked up among the caller's Spaces only (`visible_spaces`, in `checkpoints/store.py`), so a
  prefix shared with another Space's Checkpoint is not "ambiguous".
- What a body names (`repo_id`, `session_id`) is checked by the handler with `require_space` /
  `require_session`, which answer what the domain answers for one that does not exist.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from smriti.access.caller import _CURRENT, PERSON, READ_ONLY, Caller, space_not_found
from smriti.core.errors import Forbidden, NotFound
from smriti.core.routes import ACCESS, CREATES_SPACES, READS, WRITES

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ONLY_ALL_SPACES = "Only the person, or an agent whose key reaches every Space (spaces: null), may create a Space."


def visible_spaces() -> frozenset[UUID] | None:
    """The Spaces this request's caller may see; None for every Space (the person, a key with
    `spaces: null`, or code outside a request)."""
    agent = _CURRENT.get(PERSON).agent
    return None if agent is None else agent.spaces


def session_not_found(session_id: UUID | str, *, field: str = "session_id", source: str = "path") -> NotFound:
    """The answer for a Session that does not exist, and so for one the caller may not see."""
    return NotFound(f"No Session with id {session_id}.", field=field, source=source)


def _uuid(value: object) -> UUID | None:
    try:
        return UUID(str(value))
    except ValueError:
        return None  # not an id: the handler answers its own 400 (the same for everyone)


def declared_access(handler: Any, method: str) -> str:
    """What the route does (`core/routes.ACCESS` in its `opt`); a route that says nothing reads if
    its method is safe and writes otherwise (and the scope test fails on it)."""
    declared: str | None = handler.opt.get(ACCESS) if handler is not None else None
    if declared is not None:
        return declared
    return READS if method in _SAFE_METHODS else WRITES


async def check_route(caller: Caller, scope: Any) -> None:
    """404 for a path naming what this agent may not see; 403 for a write by a read-only key, or a
    new Space by a key limited to some. Called for agents only: the person's requests skip it."""
    agent = caller.agent
    assert agent is not None
    method = scope.get("method", "GET")
    if method == "OPTIONS":
        return  # `Allow` is what the path takes, for any id, as the person is told: it reads nothing
    params: dict[str, Any] = scope.get("path_params") or {}
    if agent.spaces is not None and params:
        repo_id = _uuid(params["repo_id"]) if "repo_id" in params else None
        if repo_id is not None and repo_id not in agent.spaces:
            raise space_not_found(repo_id)
        session_id = _uuid(params["session_id"]) if "session_id" in params else None
        if session_id is not None:
            await _require_session(caller, agent.spaces, session_id, field="session_id", source="path")
    what = declared_access(scope.get("route_handler"), method)
    if what == READS:
        return
    if not agent.write:
        raise Forbidden(READ_ONLY)
    if what == CREATES_SPACES and agent.spaces is not None:
        raise Forbidden(ONLY_ALL_SPACES)


def require_space(repo_id: UUID, *, field: str = "repo_id", source: str = "body") -> None:
    """404, as for a Space that does not exist, when this request's caller may not see it."""
    spaces = visible_spaces()
    if spaces is not None and repo_id not in spaces:
        raise space_not_found(repo_id, field=field, source=source)


async def require_session(session_id: UUID, *, field: str = "session_id", source: str = "body") -> None:
    """404, as for a Session that does not exist, when this request's caller may not see it (one
    query, only for a key limited to some Spaces)."""
    caller = _CURRENT.get(PERSON)
    if caller.agent is not None and caller.agent.spaces is not None:
        await _require_session(caller, caller.agent.spaces, session_id, field=field, source=source)


async def _require_session(
    caller: Caller, spaces: frozenset[UUID], session_id: UUID, *, field: str, source: str
) -> None:
    assert caller.space_of_session is not None  # an agent's caller is made by its keys, which say
    space = await caller.space_of_session(session_id)
    if space is None or space not in spaces:
        raise session_not_found(session_id, field=field, source=source)


def limited() -> bool:
    """Whether this request's caller reaches only some Spaces: then a Checkpoint found in another
    Space than the one a request is about is answered as absent, whichever Space holds it."""
    return visible_spaces() is not None


def hides(repo_id: UUID) -> bool:
    """Whether this request's caller may not see the Space `repo_id`: a domain that found what a
    request names in another Space than the one it asked about answers then as if it found nothing."""
    spaces = visible_spaces()
    return spaces is not None and repo_id not in spaces
