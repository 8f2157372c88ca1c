"""Sessions, for both agent transports: mounting a Checkpoint, forking, finding a Session by id.

Mounting is server state (docs/api.md, "A Session's context lives on the server"): a mount starts
a new Session based on the Checkpoint,
so what its next message receives (that Checkpoint plus the new Session's own Turns) is the same
from every client. From an existing Session it is a fork, linked both ways (`forked_from` on the
new one, `continued_in` on the old); from a Space alone it is a new Session with that base. The
v4 per-request mount (`checkpoint_id` + `history_base_seq` on each send) stays in the API for the
clients that use it; these verbs do not.
"""

from __future__ import annotations

from uuid import UUID

from smriti.client.api import SmritiClient
from smriti.client.errors import InvalidInput
from smriti.client.operations import resolve_commit_id
from smriti.client.refs import resolve_ref
from smriti.sessions.schemas import Session


def session_id(text: str) -> UUID:
    """A Session's id as a person or agent typed it, or a usage error saying what it should be."""
    try:
        return UUID(text.strip())
    except ValueError:
        raise InvalidInput(
            f"{text!r} is not a Session id (a UUID, as `smriti sessions SPACE`, the web app and the API show it)."
        ) from None


async def fork(client: SmritiClient, session: str, checkpoint_ref: str, *, title: str | None = None) -> Session:
    """A new Session based on the Checkpoint, remembering the Session and Turn it came from."""
    origin = session_id(session)
    checkpoint_id = await resolve_commit_id(client, checkpoint_ref)
    return await client.fork_session(origin, checkpoint_id, title)


async def mount(
    client: SmritiClient,
    space_ref: str,
    checkpoint_ref: str,
    *,
    line: str | None = None,
    session: str | None = None,
    title: str | None = None,
) -> Session:
    """Mount a Checkpoint of the Space: a new Session based on it. `checkpoint_ref` may be
    `HEAD`, `HEAD~N` or `HEAD^` of the Space (of `line`, if named). With `session`, the new
    Session continues that one (a fork, titled as the server titles forks); without, it stands on
    its own, titled after the Checkpoint's message."""
    space = await client.resolve_space(space_ref)
    exact = await resolve_ref(client, checkpoint_ref, space=str(space.id), line=line)
    checkpoint = await client.get_checkpoint(exact)
    if checkpoint.repo_id != space.id:
        raise InvalidInput(
            f"{checkpoint_ref.strip()} is a Checkpoint of another Space than {space.name!r}: a Session is based "
            "on a Checkpoint of its own Space."
        )
    if session is not None:
        origin = await client.get_session(session_id(session))
        if origin.repo_id != space.id:
            raise InvalidInput(f"Session {origin.id} belongs to another Space than {space.name!r}.")
        return await client.fork_session(origin.id, checkpoint.id, title)
    default = f"From “{checkpoint.message if len(checkpoint.message) <= 80 else checkpoint.message[:79] + '…'}”"
    return await client.create_session(space.id, base_commit_id=checkpoint.id, title=title or default)
