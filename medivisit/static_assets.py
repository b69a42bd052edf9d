"""Static assets are sent compressed, and kept by browsers for a year when the URL names their version.

Every page links its CSS and scripts as `/static/…?v=<asset_version>`: the version changes whenever any
file under static/ does, so a versioned URL can be cached as immutable. Without the current version (an
old page, a hand-typed URL) the browser revalidates with the ETag instead. Text assets are gzip-compressed
(the CSS from 124 KB to about 28 KB), and so is ReactPy's client bundle under /_reactpy/assets/, whose
file names carry their own hash. Nothing else is compressed here: API responses carry tokens next to
reflected input, which compression would expose to BREACH-style guessing.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

YEAR = 31_536_000
COMPRESSED_PREFIXES = ("/static/", "/_reactpy/assets/")


class VersionedStaticFiles(StaticFiles):
    """StaticFiles that marks a response for `?v=<version>` immutable for a year, anything else `no-cache`."""

    def __init__(self, *, directory: PathLike, version: str) -> None:
        super().__init__(directory=directory)
        self.version = version

    def file_response(self, full_path, stat_result, scope: Scope, status_code: int = 200):  # noqa: ANN001, ANN201
        response = super().file_response(full_path, stat_result, scope, status_code)
        query = scope.get("query_string", b"").decode("latin-1")
        if f"v={self.version}" in query.split("&"):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"
        return response


class CompressAssets:
    """gzip for the asset paths only (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1024)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(COMPRESSED_PREFIXES):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
