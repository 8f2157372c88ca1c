# No `from __future__ import annotations`: advanced-alchemy adds SQLAlchemy's `Session` to the
# names Litestar resolves string annotations with, so "Session" would name the wrong type.
# Real annotation objects leave no doubt.

from uuid import UUID

from advanced_alchemy.extensions.litestar.providers import create_service_provider
from litestar import Controller, Response, get, patch, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody

from smriti.core.error_docs import error_responses
from smriti.core.pagination import PageParams, int_query, query_int
from smriti.core.schemas import MAX_INT4, Page
from smriti.providers.registry import ProviderRegistry
from smriti.sessions.schemas import Session, SessionCreate, SessionUpdate, Turn, session_location
from smriti.sessions.service import SessionService, to_session
from smriti.sessions.turns import TurnStore

TURN_PAGE_LIMIT = 1000


class SessionController(Controller):
    tags = ["Sessions"]

    dependencies = {
        "sessions": Provide(create_service_provider(SessionService)),
    }

    @post(
        "/repos/{repo_id:str}/sessions",
        operation_id="createSession",
        summary="Start a Session in a Space",
        description=(
            "With `base_commit_id` (a Checkpoint of this Space), every message sent in the Session gets "
            "that Checkpoint's state plus the Session's own Turns: the boundary is the Session itself."
        ),
        responses=error_responses(404),
    )
    async def create_session(
        self,
        repo_id: FromPath[UUID],
        data: JSONBody[SessionCreate],
        sessions: NamedDependency[SessionService],
        providers: NamedDependency[ProviderRegistry],
    ) -> Response[Session]:
        model = data.model
        if data.provider is not None:
            model = providers.choose(data.provider, data.model).model
        session = await sessions.add(repo_id, data, model=model)
        return Response(session, headers={"Location": session_location(session.id)})

    @get(
        "/repos/{repo_id:str}/sessions",
        operation_id="listSessions",
        summary="Sessions of a Space, newest first",
        responses=error_responses(404),
    )
    async def list_sessions(
        self,
        repo_id: FromPath[UUID],
        sessions: NamedDependency[SessionService],
        page: NamedDependency[PageParams],
    ) -> Page[Session]:
        return await sessions.page(repo_id, page)

    @get(
        "/sessions/{session_id:str}",
        operation_id="getSession",
        summary="One Session",
        responses=error_responses(404),
    )
    async def get_session(self, session_id: FromPath[UUID], sessions: NamedDependency[SessionService]) -> Session:
        return to_session(await sessions.fetch(session_id))

    @patch(
        "/sessions/{session_id:str}",
        operation_id="updateSession",
        summary="Rename a Session",
        responses=error_responses(404),
    )
    async def update_session(
        self, session_id: FromPath[UUID], data: JSONBody[SessionUpdate], sessions: NamedDependency[SessionService]
    ) -> Session:
        return await sessions.rename(session_id, data)

    @get(
        "/sessions/{session_id:str}/turns",
        operation_id="listTurns",
        summary="A Session's Turns in sequence_number order",
        description="`after_seq` returns only Turns with a higher sequence_number (keyset paging).",
        responses=error_responses(404),
    )
    async def list_turns(
        self,
        session_id: FromPath[UUID],
        turns: NamedDependency[TurnStore],
        after_seq: int_query(0, MAX_INT4, 0) = "0",  # type: ignore[valid-type]
        limit: int_query(1, TURN_PAGE_LIMIT, 200) = "200",  # type: ignore[valid-type]
        offset: int_query(0, MAX_INT4, 0) = "0",  # type: ignore[valid-type]
    ) -> Page[Turn]:
        return await turns.page(
            session_id,
            after_seq=query_int("after_seq", after_seq, minimum=0, maximum=MAX_INT4),
            limit=query_int("limit", limit, minimum=1, maximum=TURN_PAGE_LIMIT),
            offset=query_int("offset", offset, minimum=0, maximum=MAX_INT4),
        )
