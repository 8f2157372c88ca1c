"""API v5: proposals, a request that the person merge one line of a Space into another (SYSTEM.md §13)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.types import Scope

from smriti.access.caller import Caller
from smriti.core.error_docs import error_responses
from smriti.core.pagination import PAGE_LINKS, PageParams, paged, query_int
from smriti.core.path_params import ProposalNumberPath
from smriti.core.routes import WRITES, access
from smriti.core.schemas import MAX_INT4, Page
from smriti.proposals.schemas import (
    Proposal,
    ProposalClose,
    ProposalCreate,
    ProposalDetail,
    ProposalMerge,
    ProposalStatus,
)
from smriti.proposals.service import ProposalService


def _number(value: str) -> int:
    return query_int("number", value, minimum=1, maximum=MAX_INT4, source="path")


class ProposalController(Controller):
    path = "/repos/{repo_id:str}/proposals"
    tags = ["Proposals"]

    @post(
        "/",
        operation_id="openProposal",
        opt=access(WRITES),
        summary="Propose merging one line into another",
        description=(
            "`into` defaults to the Space's default line; `from` and `into` are two lines of this Space (404 "
            "naming the one it lacks; one line twice: 400 naming `into`). One proposal per pair of lines is open "
            "at a time (409). An agent or the person opens one; a read-only key cannot. `number` counts from 1 "
            "in each Space. The answer has the merge preview of the lines' HEADs, as `GET` does."
        ),
        responses=error_responses(403, 404, 409),
    )
    async def open_proposal(
        self,
        repo_id: FromPath[UUID],
        data: JSONBody[ProposalCreate],
        proposals: NamedDependency[ProposalService],
        caller: NamedDependency[Caller],
    ) -> Response[ProposalDetail]:
        opened = await proposals.open(repo_id, data, caller)
        return Response(opened, headers={"Location": f"/v5/repos/{repo_id}/proposals/{opened.number}"})

    @get(
        "/",
        operation_id="listProposals",
        summary="The Space's proposals, newest first",
        responses=error_responses(404),
        response_headers=[PAGE_LINKS],
    )
    async def list_proposals(
        self,
        *,
        repo_id: FromPath[UUID],
        proposals: NamedDependency[ProposalService],
        page: NamedDependency[PageParams],
        scope: Scope,
        status: Annotated[ProposalStatus | None, QueryParameter(description="Only proposals in this state.")] = None,
    ) -> Response[Page[Proposal]]:
        items, total = await proposals.page(repo_id, status, limit=page.limit, offset=page.offset)
        return paged(Page(items=items, total=total, limit=page.limit, offset=page.offset), scope)

    @get(
        "/{number:str}",
        operation_id="getProposal",
        summary="A proposal, with the merge of its lines' HEADs as they are now",
        description=(
            "`preview` is `GET …/merge?ours=<into>&theirs=<from>` of the lines' current HEADs: a `from` that "
            "moved since the proposal was opened is shown as it is now. A deleted line is null in `from` or "
            "`into` (`from_deleted`, `into_deleted`), its name kept in `from_name` or `into_name`."
        ),
        responses=error_responses(404),
    )
    async def get_proposal(
        self,
        repo_id: FromPath[UUID],
        number: ProposalNumberPath,
        proposals: NamedDependency[ProposalService],
    ) -> ProposalDetail:
        return await proposals.detail(repo_id, _number(number))

    @post(
        "/{number:str}/merge",
        operation_id="mergeProposal",
        opt=access(WRITES),
        summary="Merge a proposal (the person only)",
        description=(
            "Makes the merge Checkpoint on `into` (first parent: `into`'s HEAD; `merge_parent_id`: `from`'s HEAD) "
            "and marks the proposal merged, in one transaction. Without conflicts no body is needed; with "
            "conflicts `merged`, the resolved whole state, is required (400 naming `merged`). An expected HEAD "
            "that is not the line's, a deleted line, nothing to merge, or a proposal that is not open: 409, "
            "nothing written. Agents: 403."
        ),
        status_code=200,
        responses=error_responses(403, 404, 409),
    )
    async def merge_proposal(
        self,
        repo_id: FromPath[UUID],
        number: ProposalNumberPath,
        data: JSONBody[ProposalMerge],
        proposals: NamedDependency[ProposalService],
        caller: NamedDependency[Caller],
    ) -> ProposalDetail:
        caller.require_person("merges a proposal")
        return await proposals.merge(repo_id, _number(number), data, caller)

    @post(
        "/{number:str}/close",
        operation_id="closeProposal",
        opt=access(WRITES),
        summary="Close a proposal without merging it",
        description="The person, or the agent that opened it (others: 403). A proposal that is not open: 409.",
        status_code=200,
        responses=error_responses(403, 404, 409),
    )
    async def close_proposal(
        self,
        repo_id: FromPath[UUID],
        number: ProposalNumberPath,
        data: JSONBody[ProposalClose],
        proposals: NamedDependency[ProposalService],
        caller: NamedDependency[Caller],
    ) -> ProposalDetail:
        return await proposals.close(repo_id, _number(number), data, caller)
