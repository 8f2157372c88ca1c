from __future__ import annotations

from urllib.parse import quote
from uuid import UUID

import msgspec
from litestar import Controller, Response, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged
from smriti.core.path_params import LineNamePath
from smriti.core.routes import WRITES, access
from smriti.core.schemas import Page
from smriti.lines.schemas import Line, LineCreate, LineUpdate
from smriti.lines.store import LineStore


class LineController(Controller):
    """Lines of Checkpoints (internal `branches`): each line has its own HEAD; the default
    line's HEAD is the Space's HEAD.

    A line's name may hold `/` (`feature/login`), so it is the rest of the path; Litestar gives
    a `path` parameter with its leading slash."""

    path = "/repos/{repo_id:str}/branches"
    tags = ["Lines"]

    @get(
        "/",
        operation_id="listLines",
        summary="The Space's lines, the default line first, then by name",
        responses=error_responses(404),
        response_headers=[PAGE_LINKS],
    )
    async def list_lines(
        self,
        repo_id: FromPath[UUID],
        lines: NamedDependency[LineStore],
        page: NamedDependency[PageParams],
        scope: Scope,
    ) -> Response[Page[Line]]:
        return paged(await lines.page(repo_id, limit=page.limit, offset=page.offset), scope)

    @post(
        "/",
        operation_id="createLine",
        summary="Start a line at a Checkpoint of this Space",
        description=(
            "`from_ref` is a Checkpoint id, full hash or unique prefix (≥ 7 hex digits) of this Space; "
            "without it the line starts at the Space's HEAD. Names are trimmed, 1–100 characters, unique "
            "in the Space compared whatever their case, Unicode form or spacing (`café` composed or "
            "decomposed is one name), and not shaped like a Checkpoint ref (7-64 hex digits, or an id). "
            "No Checkpoint is written."
        ),
        responses=error_responses(404, 409),
        opt=access(WRITES),
    )
    async def create_line(
        self,
        repo_id: FromPath[UUID],
        data: JSONBody[LineCreate],
        lines: NamedDependency[LineStore],
        caller: NamedDependency[Caller],
    ) -> Response[Line]:
        line = await lines.create(repo_id, data, agent=caller.agent)
        return Response(line, headers={"Location": f"/v4/repos/{repo_id}/branches/{quote(line.name, safe='/')}"})

    @get("/{name:path}", operation_id="getLine", summary="One line of the Space", responses=error_responses(404))
    async def get_line(self, repo_id: FromPath[UUID], name: LineNamePath, lines: NamedDependency[LineStore]) -> Line:
        return await lines.get(repo_id, name.lstrip("/"))

    @patch(
        "/{name:path}",
        operation_id="updateLine",
        summary="Rename a line, make it the Space's default line, or protect it",
        description=(
            "Making a line the default makes its HEAD the Space's HEAD. No Checkpoint is written. Only the "
            "person sets `protected` (an agent key: 403); an agent can neither change a protected line nor make "
            "another line the default in its place (403 naming `branch`)."
        ),
        responses=error_responses(403, 404, 409),
        opt=access(WRITES),
    )
    async def update_line(
        self,
        repo_id: FromPath[UUID],
        name: LineNamePath,
        data: JSONBody[LineUpdate],
        lines: NamedDependency[LineStore],
        caller: NamedDependency[Caller],
    ) -> Line:
        if data.protected is not msgspec.UNSET:
            caller.require_person("protects a line or stops protecting it")
        return await lines.change(repo_id, name.lstrip("/"), data, agent=caller.agent)

    @delete(
        "/{name:path}",
        operation_id="deleteLine",
        summary="Delete a line; its Checkpoints stay",
        description="The default line cannot be deleted (409); an agent cannot delete a protected line (403).",
        responses=error_responses(403, 404, 409),
        opt=access(WRITES),
    )
    async def delete_line(
        self,
        repo_id: FromPath[UUID],
        name: LineNamePath,
        lines: NamedDependency[LineStore],
        caller: NamedDependency[Caller],
    ) -> None:
        await lines.delete(repo_id, name.lstrip("/"), agent=caller.agent)
