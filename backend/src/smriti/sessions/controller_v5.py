"""The Session operations of API v5: fork.

No `from __future__ import annotations` here: advanced-alchemy puts SQLAlchemy's own `Session` into
Litestar's signature namespace, which would win over ours in a string annotation (the OpenAPI
document then describes the fork's answer as anything).
"""

from uuid import UUID

from litestar import Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.routes import WRITES, access
from smriti.sessions.forks import SessionForks
from smriti.sessions.schemas import ForkRequest, Session, session_location


@post(
    "/sessions/{session_id:str}/fork",
    operation_id="forkSession",
    summary="Continue from a Checkpoint in a new Session",
    description=(
        "A new Session of the same Space whose base is `checkpoint_id` (a Checkpoint of that Space), "
        "with `forked_from` naming this Session and its last Turn. No Turn is copied."
    ),
    tags=["Sessions"],
    responses=error_responses(404),
    opt=access(WRITES),
)
async def fork_session(
    session_id: FromPath[UUID],
    data: JSONBody[ForkRequest],
    forks: NamedDependency[SessionForks],
    caller: NamedDependency[Caller],
) -> Response[Session]:
    fork = await forks.fork(session_id, data, agent=caller.agent)
    return Response(fork, headers={"Location": session_location(fork.id)})
