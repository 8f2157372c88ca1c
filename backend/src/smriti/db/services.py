"""What the ordinary (ORM) paths of Spaces and Sessions share: fetch one or 404, and a page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from advanced_alchemy.service import SQLAlchemyAsyncRepositoryService
from sqlalchemy import func, select

from smriti.core.errors import NotFound
from smriti.core.pagination import PageParams
from smriti.core.schemas import Page
from smriti.db.models import MutableEntity

M = TypeVar("M", bound=MutableEntity)
T = TypeVar("T")


class EntityService(SQLAlchemyAsyncRepositoryService[M]):
    """An advanced-alchemy service whose rows are called `noun` in what a person reads."""

    noun: ClassVar[str]
    id_parameter: ClassVar[str]
    """The path parameter that names one (`repo_id`, `session_id`): a 404 names it."""

    async def fetch(self, entity_id: UUID) -> M:
        model = await self.get_one_or_none(self.repository.model_type.id == entity_id)
        if model is None:
            raise NotFound(f"No {self.noun} with id {entity_id}.", field=self.id_parameter, source="path")
        return model

    async def page_of(self, page: PageParams, to_item: Callable[[M], T], *where: Any, order_by: Any) -> Page[T]:
        """The rows matching `where`, in `order_by` order (newest first, say), one page of them."""
        model_type = self.repository.model_type
        session = self.repository.session
        total = await session.scalar(select(func.count()).select_from(model_type).where(*where))
        models = await session.scalars(
            select(model_type).where(*where).order_by(*order_by).limit(page.limit).offset(page.offset)
        )
        return Page(items=[to_item(m) for m in models], total=total or 0, limit=page.limit, offset=page.offset)
