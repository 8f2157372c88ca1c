"""The built web app, served at `/` with history-API fallback.

Any path that is not an API route and not a file of the build gets `index.html`, so a reload on
`/spaces/…` lands in the app. The first path segments of the app's other routes (`reserved`, read
off its routers) never fall back: an unknown API path stays a JSON 404.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from litestar import Response, Router, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath
from litestar.response import File
from litestar.types import ControllerRouterHandler

# The source tree's build, when Smriti runs from a checkout (make run).
DEFAULT_WEB_DIR = Path(__file__).resolve().parents[4] / "frontend" / "dist"


def first_segment(route: ControllerRouterHandler | str) -> str:
    """The first segment of a route's path: `v4` for the `/v4` router, `mcp` for `/mcp`."""
    if isinstance(route, str):
        path = route
    else:
        paths = getattr(route, "paths", None) or {getattr(route, "path", "")}
        (path,) = paths  # every top-level route of the app has one path
    return path.strip("/").split("/", 1)[0]


def web_router(web_dir: Path, *, reserved: set[str]) -> Router:
    root = web_dir.resolve()
    index = root / "index.html"

    def serve(path: str) -> File:
        if path.split("/", 1)[0] in reserved:
            raise NotFoundException()
        candidate = _asset(root, path)
        if candidate is not None:
            # Vite fingerprints everything under assets/, so those never change under one name.
            immutable = candidate.parent.name == "assets"
            cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
            return _file(candidate, cache)
        return _file(index, "no-cache")

    @get("/", include_in_schema=False, sync_to_thread=False)
    def web_index() -> File:
        return serve("")

    @get("/{path:path}", include_in_schema=False, sync_to_thread=False)
    def web_path(path: FromPath[str]) -> File:
        return serve(path.lstrip("/"))

    return Router(path="/", route_handlers=[web_index, web_path])


def _asset(root: Path, path: str) -> Path | None:
    """The build's file at `path`, or None: outside the build, not a file, or not a path at all
    (a NUL, a name too long for the file system) is simply not one of its files."""
    if not path or "\x00" in path:
        return None
    try:
        candidate = (root / path).resolve()
        found = candidate.is_file() and root in candidate.parents
    except (OSError, ValueError):
        return None
    return candidate if found else None


def _file(path: Path, cache_control: str) -> File:
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return File(
        path,
        media_type=media_type,
        content_disposition_type="inline",
        headers={"Cache-Control": cache_control},
    )


@get("/", include_in_schema=False, sync_to_thread=False)
def no_web_app() -> Response[str]:
    return Response(
        "Smriti API is running. The web app is not built (make run builds it); the API is at /schema.\n",
        media_type="text/plain",
    )
