"""The API docs page (`/schema`) with Swagger UI's own files, served by this app: no CDN.

Litestar's `SwaggerRenderPlugin` loads Swagger UI (and the page's icon) from a CDN, so on a
machine without the internet the docs were a blank page. The files here come from the
`swagger-ui-py` package (its `swagger_ui/static/` is swagger-ui-dist's build) and are served
under the OpenAPI router, so they are as open as the page and the schema are (`server/guard.py`),
and the web app's fallback never answers for them (`schema` is a reserved segment, `webapp.py`).
The package's version is in their URL, so they are cached for good and an upgrade changes the URL.
"""

from __future__ import annotations

from importlib.metadata import distribution
from pathlib import Path
from typing import Any

from litestar import Router, get
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.params import FromPath
from litestar.response import File

PACKAGE = "swagger-ui-py"
# Only what the page loads: the package also holds Swagger Editor, source maps and templates.
_MEDIA_TYPES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui-standalone-preset.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}
_CACHE = "public, max-age=31536000, immutable"


def _static_dir() -> tuple[str, Path]:
    """The package's version and its folder of Swagger UI files (the package is not imported:
    its `__init__` pulls in its framework adapters and Jinja)."""
    dist = distribution(PACKAGE)
    folder = Path(str(dist.locate_file("swagger_ui/static")))
    missing = [name for name in _MEDIA_TYPES if not (folder / name).is_file()]
    if missing:  # a release that moved its files: fail at start-up, not as a blank page
        raise RuntimeError(f"{PACKAGE} {dist.version} has no {', '.join(missing)} in {folder}")
    return dist.version, folder


class OfflineSwaggerRenderPlugin(SwaggerRenderPlugin):
    """Swagger UI whose page names no other host: its scripts, style and icon are this app's."""

    def __init__(self, openapi_path: str, **kwargs: Any) -> None:
        version, self._folder = _static_dir()
        self._assets_path = f"/swagger-ui/{version}"  # under the OpenAPI router
        base = f"{openapi_path.rstrip('/')}{self._assets_path}"
        super().__init__(
            js_url=f"{base}/swagger-ui-bundle.js",
            css_url=f"{base}/swagger-ui.css",
            standalone_preset_js_url=f"{base}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{base}/favicon-32x32.png'>",
            **kwargs,
        )

    def receive_router(self, router: Router) -> None:
        folder = self._folder

        @get(f"{self._assets_path}/{{name:str}}", include_in_schema=False, sync_to_thread=False)
        def swagger_ui_asset(name: FromPath[str]) -> File:
            media_type = _MEDIA_TYPES.get(name)
            if media_type is None:
                raise NotFoundException()
            return File(
                folder / name,
                media_type=media_type,
                content_disposition_type="inline",
                headers={"Cache-Control": _CACHE},
            )

        router.register(swagger_ui_asset)
