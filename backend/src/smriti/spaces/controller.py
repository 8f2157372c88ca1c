from __future__ import annotations

from uuid import UUID

from advanced_alchemy.extensions.litestar.providers import create_service_provider
from litestar import Controller, Response, delete, get, patch, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged
from smriti.core.routes import CREATES_SPACES, WRITES, access
from smriti.core.schemas import Page
from smriti.spaces.schemas import Space, SpaceCreate, SpaceUpdate
from smriti.spaces.service import SpaceService, to_space


class SpaceController(Controller):
    path = "/repos"
    tags = ["Spaces"]
    dependencies = {"spaces": Provide(create_service_provider(SpaceService))}

    @post(
        "/",
        operation_id="createSpace",
        summary="Create a Space",
        responses=error_responses(409),
        opt=access(CREATES_SPACES),
    )
    async def create_space(
        self, data: JSONBody[SpaceCreate], spaces: NamedDependency[SpaceService], caller: NamedDependency[Caller]
    ) -> Response[Space]:
        space = await spaces.add(data, agent=caller.agent)
        return Response(space, headers={"Location": f"/v4/repos/{space.id}"})

    @get(
        "/",
        operation_id="listSpaces",
        summary="List Spaces, most recently changed first",
        responses=error_responses(),
        response_headers=[PAGE_LINKS],
    )
    async def list_spaces(
        self, spaces: NamedDependency[SpaceService], page: NamedDependency[PageParams], scope: Scope
    ) -> Response[Page[Space]]:
        return paged(await spaces.page(page), scope)

    @get("/{repo_id:str}", operation_id="getSpace", summary="Get a Space", responses=error_responses(404))
    async def get_space(self, repo_id: FromPath[UUID], spaces: NamedDependency[SpaceService]) -> Space:
        return to_space(await spaces.fetch(repo_id))

    @patch(
        "/{repo_id:str}",
        operation_id="updateSpace",
        summary="Rename or describe a Space",
        responses=error_responses(404, 409),
        opt=access(WRITES),
    )
    async def update_space(
        self,
        repo_id: FromPath[UUID],
        data: JSONBody[SpaceUpdate],
        spaces: NamedDependency[SpaceService],
        caller: NamedDependency[Caller],
    ) -> Space:
        return await spaces.change(repo_id, data, agent=caller.agent)

    @delete(
        "/{repo_id:str}",
        operation_id="deleteSpace",
        summary="Delete a Space with its Sessions, Turns and Checkpoints",
        description=(
            "The person only: an agent key gets 403 (deleting a Space drops every line the person "
            "protected, with all its state)."
        ),
        responses=error_responses(403, 404),
        opt=access(WRITES),
    )
    async def delete_space(
        self, repo_id: FromPath[UUID], spaces: NamedDependency[SpaceService], caller: NamedDependency[Caller]
    ) -> None:
        caller.require_person("deletes a Space")
        await spaces.remove(repo_id, agent=caller.agent)
