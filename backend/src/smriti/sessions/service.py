"""Sessions through advanced-alchemy's repository service; Turns on the lean path (they are many)."""

from __future__ import annotations

from uuid import UUID

import asyncpg
from advanced_alchemy.exceptions import IntegrityError
from advanced_alchemy.repository import SQLAlchemyAsyncRepository
from sqlalchemy import func, select, update

from smriti.core.errors import BadRequest, NotFound, caused_by
from smriti.core.pagination import PageParams
from smriti.core.schemas import Page, Usage
from smriti.db.models import CommitModel, RepoModel, SessionModel
from smriti.db.services import EntityService
from smriti.sessions.schemas import ForkedFrom, Session, SessionCreate, SessionUpdate


def to_session(model: SessionModel) -> Session:
    return Session(
        id=model.id,
        repo_id=model.repo_id,
        title=model.title,
        provider=model.provider,
        model=model.model,
        turn_count=model.last_seq,
        base_commit_id=model.base_commit_id,
        forked_from=(
            ForkedFrom(session_id=model.forked_from_session_id, sequence_number=model.forked_from_seq)
            if model.forked_from_session_id is not None and model.forked_from_seq is not None
            else None
        ),
        created_at=model.created_at,
        updated_at=model.updated_at,
        usage=Usage(
            input_tokens=model.input_tokens,
            output_tokens=model.output_tokens,
            uncounted_replies=model.uncounted_replies,
        ),
    )


class SessionService(EntityService[SessionModel]):
    class Repository(SQLAlchemyAsyncRepository[SessionModel]):
        model_type = SessionModel

    repository_type = Repository
    noun = "Session"

    async def add(self, repo_id: UUID, data: SessionCreate, *, model: str | None) -> Session:
        if data.base_commit_id is not None:
            if await self.repository.session.get(RepoModel, repo_id) is None:
                raise NotFound(f"No Space with id {repo_id}.")
            await self._check_base(repo_id, data.base_commit_id, field="base_commit_id")
        try:
            created = await self.create(
                SessionModel(
                    repo_id=repo_id,
                    title=data.title.strip(),
                    provider=data.provider,
                    model=model,
                    base_commit_id=data.base_commit_id,
                ),
                auto_commit=True,
            )
        except IntegrityError as exc:
            if not caused_by(exc, asyncpg.ForeignKeyViolationError):
                raise
            raise NotFound(f"No Space with id {repo_id}.") from None
        return to_session(created)

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
            raise NotFound(f"No Session with id {session_id}.")
        await self.repository.session.commit()
        return to_session(renamed)

    async def _check_base(self, repo_id: UUID, commit_id: UUID, *, field: str) -> None:
        """A 400 naming `field` unless `commit_id` is a Checkpoint of the Space."""
        owner = await self.repository.session.scalar(select(CommitModel.repo_id).where(CommitModel.id == commit_id))
        # A 400 either way: the Checkpoint is named in the body, and the Space or Session in the
        # path does exist (a 404 would say it did not).
        if owner is None:
            raise BadRequest(f"{field}: no Checkpoint with id {commit_id}.", field=field)
        if owner != repo_id:
            raise BadRequest(f"{field} belongs to another Space than this Session.", field=field)

    async def page(self, repo_id: UUID, page: PageParams) -> Page[Session]:
        session = self.repository.session
        if await session.get(RepoModel, repo_id) is None:
            raise NotFound(f"No Space with id {repo_id}.")
        return await self.page_of(
            page,
            to_session,
            SessionModel.repo_id == repo_id,
            order_by=(SessionModel.created_at.desc(), SessionModel.id),
        )
