"""Export and import a Space as a bundle (docs/bundles.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from advanced_alchemy.extensions.litestar.providers import create_service_provider
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import FromPath

from smriti.access.caller import current_caller
from smriti.bundles.export import bundle_filename, export_space, space_exists
from smriti.bundles.service import BundleService
from smriti.core.error_docs import error_responses
from smriti.core.errors import UnsupportedMediaType
from smriti.core.operation_docs import documented
from smriti.core.routes import CREATES_SPACES, NDJSON, access, body_types
from smriti.core.streaming import PacedStream
from smriti.db.pool import Pool
from smriti.spaces.schemas import Space
from smriti.spaces.service import SpaceService, to_space

# Litestar leaves a stream, and a body read as it arrives, undescribed.
_BUNDLE = {
    NDJSON: OpenAPIMediaType(
        schema=Schema(
            type=OpenAPIType.STRING,
            description="A Space bundle: one JSON object a line, in the format of docs/bundles.md "
            "(`smriti-space`, version 1).",
        )
    )
}


class BundleController(Controller):
    path = "/repos"
    tags = ["Spaces"]
    dependencies = {"spaces": Provide(create_service_provider(SpaceService))}

    @get(
        "/{repo_id:str}/export",
        operation_id="exportSpace",
        summary="Export a Space as a bundle: its Checkpoints, lines, Sessions and Turns, one JSON object a line",
        description=(
            "Streamed `application/x-ndjson` in the format of docs/bundles.md (`smriti-space`, version 1), "
            "read from one snapshot. `POST /v5/repos/import` brings it back with the same ids and hashes."
        ),
        media_type=NDJSON,
        responses=error_responses(404, 503),
        operation_class=documented(
            responses={"200": OpenAPIResponse(description="The Space as a bundle, streamed.", content=_BUNDLE)}
        ),
    )
    async def export_bundle(self, repo_id: FromPath[UUID], pool: NamedDependency[Pool]) -> PacedStream:
        name = await space_exists(pool, repo_id)
        return PacedStream(
            export_space(pool, repo_id),
            media_type=NDJSON,
            headers={"Content-Disposition": f'attachment; filename="{bundle_filename(name)}"'},
        )

    @post(
        "/import",
        operation_id="importSpace",
        summary="Import a Space from a bundle",
        description=(
            "The body is a bundle (`Content-Type: application/x-ndjson`, up to SMRITI_MAX_IMPORT_BYTES). Every "
            "hash and link is checked before anything is written, then all of it is written in one transaction: "
            "a bundle that does not check out is a 400 naming its first bad line and writes nothing; a line longer "
            "than SMRITI_MAX_BUNDLE_LINE_BYTES is a 413 naming it. The Space keeps its ids, hashes and times; a "
            "Space with its id or name already here is a 409."
        ),
        status_code=201,
        request_max_body_size=None,
        responses=error_responses(
            409,
            413,
            described={415: f"The body is not declared as a bundle (Content-Type: {NDJSON})."},
        ),
        operation_class=documented(request_body=_BUNDLE),
        opt={**body_types(NDJSON), **access(CREATES_SPACES)},
    )
    async def import_bundle(
        self,
        request: Request[Any, Any, Any],
        bundles: NamedDependency[BundleService],
        spaces: NamedDependency[SpaceService],
    ) -> Response[Space]:
        if request.content_type[0] != NDJSON:
            raise UnsupportedMediaType(f"A bundle is sent as Content-Type: {NDJSON}.", field="Content-Type")
        repo_id = await bundles.import_bundle(
            request.stream(), declared_bytes=request.content_length, agent=current_caller().agent
        )
        return Response(to_space(await spaces.fetch(repo_id)), headers={"Location": f"/v4/repos/{repo_id}"})
