"""Spaces through advanced-alchemy's repository service (ordinary, not hot, paths)."""

from __future__ import annotations

from uuid import UUID

import asyncpg
from advanced_alchemy.exceptions import IntegrityError
from advanced_alchemy.repository import SQLAlchemyAsyncRepository
from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError as SQLAlchemyIntegrityError

from smriti.access.caller import Agent
from smriti.access.scope import visible_spaces
from smriti.core.errors import Conflict, NotFound, caused_by
from smriti.core.pagination import PageParams
from smriti.core.schemas import Page, Usage
from smriti.db.models import RepoModel
from smriti.db.services import EntityService
from smriti.events.record import record_orm
from smriti.spaces.schemas import Space, SpaceCreate, SpaceUpdate


def to_space(model: RepoModel) -> Space:
    return Space(
        id=model.id,
        name=model.name,
        description=model.description,
        head_commit_id=model.head_commit_id,
        head_commit_hash=model.head_commit_hash,
        head_message=model.head_message,
        created_at=model.created_at,
        updated_at=model.updated_at,
        usage=Usage(
            input_tokens=model.input_tokens,
            output_tokens=model.output_tokens,
            uncounted_replies=model.uncounted_replies,
        ),
    )


class SpaceService(EntityService[RepoModel]):
    class Repository(SQLAlchemyAsyncRepository[RepoModel]):
        model_type = RepoModel

    repository_type = Repository
    noun = "Space"
    id_parameter = "repo_id"

    async def page(self, page: PageParams) -> Page[Space]:
        """The Spaces this request's caller may see (an agent's key may reach only some)."""
        visible = visible_spaces()
        where = () if visible is None else (RepoModel.id.in_(visible),)
        return await self.page_of(page, to_space, *where, order_by=(RepoModel.updated_at.desc(), RepoModel.id))

    async def add(self, data: SpaceCreate, *, agent: Agent | None) -> Space:
        try:
            model = await self.create(RepoModel(name=data.name.strip(), description=data.description))
        except IntegrityError as exc:
            if not caused_by(exc, asyncpg.UniqueViolationError):
                raise
            raise Conflict(f"A Space named {data.name.strip()!r} already exists.", field="name") from None
        await record_orm(self.repository.session, model.id, "space.created", {"name": model.name}, agent=agent)
        await self.repository.session.commit()
        return to_space(model)

    async def change(self, space_id: UUID, data: SpaceUpdate, *, agent: Agent | None) -> Space:
        changes = {
            name: value.strip() if name == "name" else value
            for name, value in (("name", data.name), ("description", data.description))
            if isinstance(value, str)
        }
        if changes:
            # One UPDATE … RETURNING, not read-modify-write: a Space deleted meanwhile is a 404,
            # never a stale-data error.
            statement = (
                update(RepoModel)
                .where(RepoModel.id == space_id)
                .values(**changes, updated_at=func.clock_timestamp())
                .returning(RepoModel.name)
            )
            try:
                name = await self.repository.session.scalar(statement)
                if name is not None:
                    # The name after the change, whichever field changed: what a listener shows.
                    await record_orm(self.repository.session, space_id, "space.updated", {"name": name}, agent=agent)
                await self.repository.session.commit()
            except SQLAlchemyIntegrityError as exc:
                await self.repository.session.rollback()
                if not caused_by(exc, asyncpg.UniqueViolationError):
                    raise
                raise Conflict(f"A Space named {changes['name']!r} already exists.", field="name") from None
            if name is None:
                raise NotFound(f"No Space with id {space_id}.", field="repo_id", source="path")
        return to_space(await self.fetch(space_id))

    async def remove(self, space_id: UUID, *, agent: Agent | None) -> None:
        # Sessions, Turns and Checkpoints go with it (ON DELETE CASCADE). One DELETE … RETURNING:
        # its event keeps the name of the Space it deleted, and one deleted meanwhile is a 404.
        session = self.repository.session
        name = await session.scalar(delete(RepoModel).where(RepoModel.id == space_id).returning(RepoModel.name))
        if name is None:
            raise NotFound(f"No Space with id {space_id}.", field="repo_id", source="path")
        await record_orm(session, space_id, "space.deleted", {"name": name}, agent=agent)
        await session.commit()
