"""Sessions through advanced-alchemy's repository service; Turns on the lean path (they are many).

What a Session's reads add to its row (what its next save starts from, its lineage) is
`lineage.py`'s, one statement per page."""

from __future__ import annotations

from uuid import UUID

import asyncpg
from advanced_alchemy.exceptions import IntegrityError
from advanced_alchemy.repository import SQLAlchemyAsyncRepository
from sqlalchemy import delete, func, select, update

from smriti.access.caller import Agent
from smriti.access.scope import hides
from smriti.core.errors import BadRequest, NotFound, caused_by
from smriti.core.pagination import PageParams
from smriti.core.schemas import Page
from smriti.db.models import CommitModel, RepoModel, SessionModel
from smriti.db.services import EntityService
from smriti.events.record import record_orm
from smriti.sessions.lineage import session_of, sessions_with_context
from smriti.sessions.schemas import Session, SessionCreate, SessionUpdate


class SessionService(EntityService[SessionModel]):
    class Repository(SQLAlchemyAsyncRepository[SessionModel]):
        model_type = SessionModel

    repository_type = Repository
    noun = "Session"
    id_parameter = "session_id"

    async def add(self, repo_id: UUID, data: SessionCreate, *, model: str | None, agent: Agent | None) -> Session:
        base_commit_hash = None
        if data.base_commit_id is not None:
            if await self.repository.session.get(RepoModel, repo_id) is None:
                raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
            base_commit_hash = await self._check_base(repo_id, data.base_commit_id, field="base_commit_id")
        try:
            created = await self.create(
                SessionModel(
                    repo_id=repo_id,
                    title=data.title.strip(),
                    provider=data.provider,
                    model=model,
                    base_commit_id=data.base_commit_id,
                    created_by=None if agent is None else agent.id,
                ),
            )
        except IntegrityError as exc:
            if not caused_by(exc, asyncpg.ForeignKeyViolationError):
                raise
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path") from None
        await record_orm(
            self.repository.session,
            repo_id,
            "session.created",
            {"session_id": created.id, "base_commit_id": data.base_commit_id, "forked_from": None},
            agent=agent,
        )
        await self.repository.session.commit()
        return session_of(created, base_commit_hash, created_by_name=None if agent is None else agent.name)

    async def rename(self, session_id: UUID, data: SessionUpdate) -> Session:
        # One UPDATE … RETURNING, not read-modify-write: a Session deleted meanwhile is a 404.
        statement = (
            update(SessionModel)
            .where(SessionModel.id == session_id)
            .values(title=data.title.strip(), updated_at=func.clock_timestamp())
            .returning(SessionModel)
        )
        renamed = await self.repository.session.scalar(statement)
        if renamed is None:
            raise NotFound(f"No Session with id {session_id}.", field="session_id", source="path")
        await self.repository.session.commit()
        return (await sessions_with_context(self.repository.session, [renamed]))[0]

    async def shown(self, session_id: UUID) -> Session:
        """One Session as the API shows it, with what its next save starts from and its lineage."""
        return (await sessions_with_context(self.repository.session, [await self.fetch(session_id)]))[0]

    async def remove(self, session_id: UUID, *, agent: Agent | None) -> None:
        """Delete a Session; its Turns (and any claim of a send on its way) go with it, by the
        database's ON DELETE CASCADE. No Checkpoint is touched: one saved from it keeps naming it
        in `metadata.source`, as history, and a Session forked from it keeps its `forked_from`."""
        statement = delete(SessionModel).where(SessionModel.id == session_id).returning(SessionModel.repo_id)
        repo_id = await self.repository.session.scalar(statement)
        if repo_id is None:
            raise NotFound(f"No Session with id {session_id}.", field="session_id", source="path")
        await record_orm(self.repository.session, repo_id, "session.deleted", {"session_id": session_id}, agent=agent)
        await self.repository.session.commit()

    async def _check_base(self, repo_id: UUID, commit_id: UUID, *, field: str) -> str:
        """The hash of `commit_id`; a 400 naming `field` unless it is a Checkpoint of the Space."""
        found = (
            await self.repository.session.execute(
                select(CommitModel.repo_id, CommitModel.commit_hash).where(CommitModel.id == commit_id)
            )
        ).one_or_none()
        # A 400 either way: the Checkpoint is named in the body, and the Space or Session in the
        # path does exist (a 404 would say it did not).
        if found is None or hides(found.repo_id):  # another agent's Space is as absent (access/scope.py)
            raise BadRequest(f"{field}: no Checkpoint with id {commit_id}.", field=field)
        if found.repo_id != repo_id:
            raise BadRequest(f"{field} belongs to another Space than this Session.", field=field)
        return str(found.commit_hash)

    async def page(
        self, repo_id: UUID, page: PageParams, *, title: str | None = None, forked_from: UUID | None = None
    ) -> Page[Session]:
        """The Space's Sessions, newest first; with `title`, only those whose title holds it
        (ignoring case); with `forked_from`, only the Sessions continued from that one."""
        session = self.repository.session
        if await session.get(RepoModel, repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.", field="repo_id", source="path")
        where = [SessionModel.repo_id == repo_id]
        if title:
            # strpos, not LIKE: a `%` or `_` in what a person typed is a character, not a pattern.
            where.append(func.strpos(func.lower(SessionModel.title), func.lower(title)) > 0)
        if forked_from is not None:
            where.append(SessionModel.forked_from_session_id == forked_from)
        models = await self.page_of(
            page, lambda model: model, *where, order_by=(SessionModel.created_at.desc(), SessionModel.id)
        )
        items = await sessions_with_context(session, models.items)
        return Page(items=items, total=models.total, limit=models.limit, offset=models.offset)
