# No `from __future__ import annotations`: advanced-alchemy adds SQLAlchemy's `Session` to the
# names Litestar resolves string annotations with, so "Session" would name the wrong type.
# Real annotation objects leave no doubt.

from typing import Annotated
from uuid import UUID

from advanced_alchemy.extensions.litestar.providers import create_service_provider
from litestar import Controller, Response, delete, get, patch, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.errors import BadRequest
from smriti.core.pagination import PAGE_LINKS, PageParams, int_query, paged, query_int
from smriti.core.routes import WRITES, access
from smriti.core.schemas import MAX_INT4, Page
from smriti.providers.registry import ProviderRegistry
from smriti.sessions.schemas import MAX_TITLE_FILTER, Session, SessionCreate, SessionUpdate, Turn, session_location
from smriti.sessions.service import SessionService
from smriti.sessions.turns import TurnStore

TURN_PAGE_LIMIT = 1000

_TITLE_FILTER = Annotated[
    str | None,
    QueryParameter(
        description="Only the Sessions whose title contains this text, ignoring case (a plain substring: "
        "`%` and `_` are characters). Blank: every Session.",
        max_length=MAX_TITLE_FILTER,
    ),
]
_FORKED_FROM = Annotated[
    UUID | None,
    QueryParameter(description="Only the Sessions continued from (forked from) this Session."),
]


def _title_filter(q: str | None) -> str | None:
    """`?q=` as the filter compares it: trimmed, None when blank; NUL is refused (no title holds it)."""
    if q is None or not q.strip():
        return None
    if "\x00" in q:
        rule = "Expected text without NUL (\\u0000) characters"
        raise BadRequest(f"Invalid request. q: {rule}", field="q", source="query", field_message=rule)
    return q.strip()


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
            "that Checkpoint's state plus the Session's own Turns: the boundary is the Session itself. Without a "
            "`title`, the Session takes one from its first message when that exchange is stored (its first words, "
            "at most 6 words and 60 characters); a title given here or by a rename is never replaced."
        ),
        responses=error_responses(404),
        opt=access(WRITES),
    )
    async def create_session(
        self,
        repo_id: FromPath[UUID],
        data: JSONBody[SessionCreate],
        sessions: NamedDependency[SessionService],
        providers: NamedDependency[ProviderRegistry],
        caller: NamedDependency[Caller],
    ) -> Response[Session]:
        model = data.model
        if data.provider is not None:
            model = providers.choose(data.provider, data.model).model
        session = await sessions.add(repo_id, data, model=model, agent=caller.agent)
        return Response(session, headers={"Location": session_location(session.id)})

    @get(
        "/repos/{repo_id:str}/sessions",
        operation_id="listSessions",
        summary="Sessions of a Space, newest first",
        description=(
            "Each with its lineage: `forked_from` (and whether that Session was deleted since), `continued_in` "
            "and `continued_count`, and `last_saved`. `q` keeps the Sessions whose title contains it, ignoring "
            "case; `forked_from` keeps those continued from one Session."
        ),
        responses=error_responses(400, 404),
        response_headers=[PAGE_LINKS],
    )
    async def list_sessions(
        self,
        *,
        repo_id: FromPath[UUID],
        sessions: NamedDependency[SessionService],
        page: NamedDependency[PageParams],
        scope: Scope,
        q: _TITLE_FILTER = None,
        forked_from: _FORKED_FROM = None,
    ) -> Response[Page[Session]]:
        return paged(await sessions.page(repo_id, page, title=_title_filter(q), forked_from=forked_from), scope)

    @get(
        "/sessions/{session_id:str}",
        operation_id="getSession",
        summary="One Session, and what its next message and its next save start from",
        description=(
            "What the next message sent in it receives: its base Checkpoint (`base_commit_id`, if any) plus all of "
            "its Turns. A save from it starts from `last_saved`, the Checkpoint saved from it last (the newest "
            "whose `metadata.source.session_id` is this Session), on the line it went to (`branch`). "
            "`forked_from` and `continued_in` link it to the Sessions it came from and went on in."
        ),
        responses=error_responses(404),
    )
    async def get_session(self, session_id: FromPath[UUID], sessions: NamedDependency[SessionService]) -> Session:
        return await sessions.shown(session_id)

    @delete(
        "/sessions/{session_id:str}",
        operation_id="deleteSession",
        summary="Delete a Session with its Turns",
        description=(
            "Its Turns go with it; no Checkpoint is touched (one saved from it keeps naming it in "
            "`metadata.source`, as history). A Session forked from it keeps working, and its `forked_from` says "
            "`deleted: true`. A message being answered in it when it is deleted is not stored (404)."
        ),
        responses=error_responses(404),
        opt=access(WRITES),
    )
    async def delete_session(
        self, session_id: FromPath[UUID], sessions: NamedDependency[SessionService], caller: NamedDependency[Caller]
    ) -> None:
        await sessions.remove(session_id, agent=caller.agent)

    @patch(
        "/sessions/{session_id:str}",
        operation_id="updateSession",
        summary="Rename a Session",
        responses=error_responses(404),
        opt=access(WRITES),
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
        response_headers=[PAGE_LINKS],
    )
    async def list_turns(
        self,
        *,
        session_id: FromPath[UUID],
        turns: NamedDependency[TurnStore],
        scope: Scope,
        after_seq: int_query(0, MAX_INT4, 0) = "0",  # type: ignore[valid-type]
        limit: int_query(1, TURN_PAGE_LIMIT, 200) = "200",  # type: ignore[valid-type]
        offset: int_query(0, MAX_INT4, 0) = "0",  # type: ignore[valid-type]
    ) -> Response[Page[Turn]]:
        page = await turns.page(
            session_id,
            after_seq=query_int("after_seq", after_seq, minimum=0, maximum=MAX_INT4),
            limit=query_int("limit", limit, minimum=1, maximum=TURN_PAGE_LIMIT),
            offset=query_int("offset", offset, minimum=0, maximum=MAX_INT4),
        )
        return paged(page, scope)
