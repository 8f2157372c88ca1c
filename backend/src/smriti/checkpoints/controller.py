from __future__ import annotations

import re
from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.enums import ParamType
from litestar.openapi.spec import OpenAPIResponse, Parameter, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.types import Scope

from smriti.access.caller import current_caller
from smriti.access.scope import require_space
from smriti.checkpoints.schemas import Checkpoint, CommitCreate, VerifyReport
from smriti.checkpoints.store import CheckpointStore
from smriti.core.error_docs import error_responses
from smriti.core.errors import BadRequest
from smriti.core.operation_docs import documented
from smriti.core.pagination import PAGE_LINKS, PageParams, page_links
from smriti.core.path_params import CheckpointRefPath
from smriti.core.responses import EncodedJSON, checkpoint_location, encoded_or_not_modified
from smriti.core.routes import WRITES, access
from smriti.core.schemas import Page

_FULL_HASH = re.compile(r"[0-9a-f]{64}")
ANCHOR_PATTERN = r"^\s*[0-9A-Fa-f]{64}\s*$"
"""What `anchor` accepts, as the OpenAPI document says it: the handler trims and lowercases it
before holding it to `_FULL_HASH`."""
_LINE_QUERY = Annotated[
    str | None,
    QueryParameter(
        description="A line's name (matched whatever its case, Unicode form or spacing).", min_length=1, max_length=200
    ),
]


# `get_checkpoint` reads `If-None-Match` from the raw headers (cheaper than a parameter).
_REVALIDATED = documented(
    parameters=[
        Parameter(
            name="If-None-Match",
            param_in=ParamType.HEADER,
            required=False,
            schema=Schema(type=OpenAPIType.STRING),
            description="A Checkpoint's `ETag` (its quoted hash): 304 with no body while it still matches.",
        )
    ],
    responses={"304": OpenAPIResponse(description="Not modified: the Checkpoint is the one whose `ETag` was sent.")},
)


class CheckpointController(Controller):
    tags = ["Checkpoints"]

    @get(
        "/repos/{repo_id:str}/head",
        operation_id="getHead",
        summary="The Space's HEAD Checkpoint, or a line's",
        description=(
            "The Space's HEAD is its default line's. With `branch`, that line's HEAD. 404 when the Space "
            "or the line does not exist or has no Checkpoint yet."
        ),
        responses=error_responses(404),
    )
    async def get_head(
        self, repo_id: FromPath[UUID], checkpoints: NamedDependency[CheckpointStore], branch: _LINE_QUERY = None
    ) -> Response[Checkpoint]:
        return EncodedJSON(await checkpoints.head_json(repo_id, branch))

    @get(
        "/repos/{repo_id:str}/commits",
        operation_id="listCheckpoints",
        summary="The Space's Checkpoints, newest first, or a line's history",
        description=(
            "Each carries `parent_commit_id`, so a client can draw the tree. With `branch`, that line's "
            "history: first parents from its HEAD, newest first."
        ),
        responses=error_responses(404),
        response_headers=[PAGE_LINKS],
    )
    async def list_checkpoints(
        self,
        repo_id: FromPath[UUID],
        checkpoints: NamedDependency[CheckpointStore],
        page: NamedDependency[PageParams],
        scope: Scope,
        branch: _LINE_QUERY = None,
    ) -> Response[Page[Checkpoint]]:
        found = await (
            checkpoints.log_json(repo_id, limit=page.limit, offset=page.offset)
            if branch is None
            else checkpoints.line_log_json(repo_id, branch, limit=page.limit, offset=page.offset)
        )
        links = page_links(scope, total=found.total, limit=page.limit, offset=page.offset)
        return EncodedJSON(found.body, headers=((b"link", links.encode()),) if links else ())

    @get(
        "/commits/{ref:str}",
        operation_id="getCheckpoint",
        summary="One Checkpoint by id, full hash, or a unique hash prefix (≥ 7 hex digits)",
        responses=error_responses(404),
        operation_class=_REVALIDATED,
    )
    async def get_checkpoint(
        self, ref: CheckpointRefPath, checkpoints: NamedDependency[CheckpointStore], scope: Scope
    ) -> Response[Checkpoint]:
        body, commit_hash = await checkpoints.get_json(ref)
        # From the raw headers: a header parameter would have Litestar parse every header of
        # every request (+45 k instructions); the OpenAPI document still lists it (_REVALIDATED).
        if_none_match = next(
            (value.decode("latin-1") for name, value in scope["headers"] if name == b"if-none-match"), None
        )
        # Named by its id or full hash, a Checkpoint never changes; a prefix may name another one
        # later (or be ambiguous), so that answer is revalidated every time.
        named = ref.strip()
        exact = len(named) == 64 or "-" in named  # a full hash, or an id (hash prefixes have no dash)
        return encoded_or_not_modified(body, commit_hash, if_none_match, immutable=exact)

    @post(
        "/chat/commit",
        operation_id="commitCheckpoint",
        summary="Save a Checkpoint and move HEAD to it",
        description=(
            "The parent defaults to HEAD. With `expected_head_commit_id` the commit is a "
            "compare-and-swap: 409 and nothing written when HEAD is not that Checkpoint."
        ),
        responses=error_responses(403, 404, 409, 413),
        opt=access(WRITES),
    )
    async def commit_checkpoint(
        self,
        data: JSONBody[CommitCreate],
        checkpoints: NamedDependency[CheckpointStore],
    ) -> Response[Checkpoint]:
        require_space(data.repo_id)
        # The caller read where the guard put it, not as a second dependency: Litestar resolves
        # two in a task group, +28% of a commit's instructions (bench/instructions.py commit).
        saved = await checkpoints.commit(data, agent=current_caller().agent)
        return EncodedJSON(saved, headers=(checkpoint_location(saved),))

    @get(
        "/repos/{repo_id:str}/verify",
        operation_id="verifySpace",
        summary="Recompute every Checkpoint hash and parent link of a Space",
        description=(
            "Also compares the Space's record (its Checkpoint count, HEAD and its copy of HEAD's hash) "
            "with the Checkpoints, and checks that each `anchor` (a full hash you kept elsewhere) is still "
            "the hash of a Checkpoint of this Space. Someone who can write the database can recompute "
            "every hash consistently; only an anchor kept outside it shows that."
        ),
        responses=error_responses(404),
    )
    async def verify_space(
        self,
        repo_id: FromPath[UUID],
        checkpoints: NamedDependency[CheckpointStore],
        anchor: Annotated[
            list[str] | None,
            QueryParameter(
                description="A full Checkpoint hash (64 hex digits) kept elsewhere; repeatable.",
                schema_extra={"items": Schema(type=OpenAPIType.STRING, pattern=ANCHOR_PATTERN)},
            ),
        ] = None,
    ) -> VerifyReport:
        anchors = [value.strip().lower() for value in anchor or []]
        for value in anchors:
            if not _FULL_HASH.fullmatch(value):
                raise BadRequest(
                    f"anchor must be a full Checkpoint hash (64 hex digits), got {value[:80]!r}.",
                    field="anchor",
                    source="query",
                )
        return await checkpoints.verify(repo_id, anchors)
