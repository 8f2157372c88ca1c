from __future__ import annotations

from uuid import UUID

from litestar import Controller, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.access.keys import AgentKeys
from smriti.access.schemas import AgentCreate, AgentKey, Me, NewAgentKey
from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged
from smriti.core.routes import WRITES, access
from smriti.core.schemas import Page

_MANAGES = "manages agent keys"


class AgentController(Controller):
    """Agent keys (SYSTEM.md §13): only the person makes, lists and revokes them."""

    path = "/agents"
    tags = ["Agents"]

    @post(
        "/",
        operation_id="createAgent",
        summary="Make an agent key",
        description=(
            "`spaces`: the Spaces the agent may reach (others answer 404 to it, as if absent); null: every "
            "Space, and it may create Spaces. `write: false` makes a key that only reads. `token` is in this "
            "answer only: the server keeps its SHA-256."
        ),
        responses=error_responses(403, 404),
        opt=access(WRITES),
    )
    async def create_agent(
        self, data: JSONBody[AgentCreate], agents: NamedDependency[AgentKeys], caller: NamedDependency[Caller]
    ) -> Response[NewAgentKey]:
        caller.require_person(_MANAGES)
        made = await agents.create(data)
        return Response(made, headers={"Location": f"/v5/agents/{made.id}"})

    @get(
        "/",
        operation_id="listAgents",
        summary="The agent keys, newest first (never the keys themselves)",
        responses=error_responses(403),
        response_headers=[PAGE_LINKS],
    )
    async def list_agents(
        self,
        agents: NamedDependency[AgentKeys],
        caller: NamedDependency[Caller],
        page: NamedDependency[PageParams],
        scope: Scope,
    ) -> Response[Page[AgentKey]]:
        caller.require_person(_MANAGES)
        items, total = await agents.page(limit=page.limit, offset=page.offset)
        return paged(Page(items=items, total=total, limit=page.limit, offset=page.offset), scope)

    @delete(
        "/{agent_id:str}",
        operation_id="revokeAgent",
        summary="Revoke an agent key",
        description=(
            "Within a second every request with it, on any server process, is a 401. What the agent made "
            "still names it. Revoking a revoked key changes nothing."
        ),
        responses=error_responses(403, 404),
        opt=access(WRITES),
    )
    async def revoke_agent(
        self, agent_id: FromPath[UUID], agents: NamedDependency[AgentKeys], caller: NamedDependency[Caller]
    ) -> None:
        caller.require_person(_MANAGES)
        await agents.revoke(agent_id)


class MeController(Controller):
    """Who is asking, as the server sees it: a client shows the person's controls (protecting a
    line, agent keys) only to the person, and tells its own changes from other callers'."""

    path = "/me"
    tags = ["Agents"]

    @get(
        "/",
        operation_id="getMe",
        summary="Who the server takes the caller to be",
        responses=error_responses(401),
    )
    async def me(self, caller: NamedDependency[Caller]) -> Me:
        agent = caller.agent
        if agent is None:
            return Me(kind="person", write=True)
        spaces = None if agent.spaces is None else sorted(agent.spaces)
        return Me(kind="agent", write=agent.write, id=agent.id, name=agent.name, spaces=spaces)
