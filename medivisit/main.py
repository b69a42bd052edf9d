"""Server assembly: FastAPI surfaces first, then ReactPy, then the page route that knows the route table."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from contextlib import asynccontextmanager
from html import escape
from http.cookies import SimpleCookie
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from reactpy.backend import fastapi as reactpy_fastapi
from reactpy.backend._common import CLIENT_BUILD_DIR
from reactpy.backend.types import Location

from api import (
    account,
    ads,
    automation,
    careers,
    credentials,
    documents,
    enrollment_files,
    functions,
    health,
    payments,
    revenue,
    store_images,
    uploads,
    wallet,
)
from api import analytics as analytics_api
from api import auth_v1 as auth_api
from api import browser_auth as auth_browser
from api.deps import transaction
from app import ratelimit
from app.auth.web import CSRF_COOKIE, CSRF_COOKIE_MAX_AGE, new_csrf_token
from app.db import get_database
from app.services.ads.internal import keep_ads_fresh, load_live_ads
from app.services.automation import watch_signups
from app.services.features.internal import keep_toggles_fresh, load_toggles
from app.services.feedback import record_unknown_path
from app.services.notifications import install_security_notices
from app.settings import PROJECT_ROOT, get_settings
from medivisit import collector, periodic, reactpy_compat
from medivisit.reactpy_compat import client as reactpy_client
from medivisit.reactpy_compat import first_paint
from medivisit.request_guard import RequestGuard
from medivisit.security_headers import SecurityHeaders
from medivisit.static_assets import YEAR, CompressAssets, VersionedStaticFiles
from medivisit.subscribers import wire_subscribers
from medivisit.ui import VISITOR_COOKIE, Root
from pages.heads import for_brand
from pages.routes import NOT_FOUND, match_route

logger = logging.getLogger("app.pages")
STATIC_DIR = Path(PROJECT_ROOT) / "static"
VISITOR_COOKIE_MAX_AGE = 400 * 24 * 3600
TITLE_MARK = "<!--title-->"
DESCRIPTION_MARK = "<!--description-->"
APP_MARK = "<!--app-->"
SIDEBAR_COOKIE = (
    "sidebar:state"  # "false": the dashboard sidebar is collapsed (SPEC §4; static/js/dashboard.js)
)


def asset_version() -> str:
    """A short hash of everything under static/: changes whenever an asset does (cache busting)."""
    digest = hashlib.sha1()
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def _index_template(version: str, refresh_tick_ms: int) -> str:
    head = f"""
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
    <meta name="description" content="{DESCRIPTION_MARK}">
    <meta name="theme-color" content="#0f766e">
    <title>{TITLE_MARK}</title>
    <link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">
    <link rel="manifest" href="/static/manifest.webmanifest">
    <!-- theme.js and first-paint.js block (the theme is set and clicks on the first frame are caught before
         the first paint); the deferred classic scripts run after
         parsing, in document order, so still before ReactPy's client module below opens its socket. -->
    <script src="/static/js/theme.js?v={version}"></script>
    <script defer src="/static/js/connection.js?v={version}"></script>
    <script src="/static/js/first-paint.js?v={version}"></script>
    <link rel="stylesheet" href="/static/css/icons.css?v={version}">
    <link rel="stylesheet" href="/static/css/app.css?v={version}">
    <link rel="stylesheet" href="/static/css/pages.css?v={version}">
    <link rel="stylesheet" href="/static/css/portal.css?v={version}">
    <link rel="stylesheet" href="/static/css/cart.css?v={version}">
    <link rel="stylesheet" href="/static/css/booking.css?v={version}">
    <link rel="stylesheet" href="/static/css/provider.css?v={version}">
    <link rel="stylesheet" href="/static/css/helpdesk.css?v={version}">
    <link rel="stylesheet" href="/static/css/staff.css?v={version}">
    <link rel="stylesheet" href="/static/css/dashboard.css?v={version}">
    <link rel="stylesheet" href="/static/css/store.css?v={version}">
    <link rel="stylesheet" href="/static/css/automation.css?v={version}">
    <link rel="stylesheet" href="/static/css/corporate.css?v={version}">
    <link rel="stylesheet" href="/static/css/requests.css?v={version}">
    <link rel="stylesheet" href="/static/css/forum.css?v={version}">
    <link rel="stylesheet" href="/static/css/assistant.css?v={version}">
    <link rel="stylesheet" href="/static/css/careers.css?v={version}">
    <link rel="stylesheet" href="/static/css/ads.css?v={version}">
    <script type="module" src="/static/js/tz.js?v={version}"></script>
    <script type="module" src="/static/js/app.js?v={version}"></script>
    <script type="module" src="/static/js/auth.js?v={version}"></script>
    <script type="module" src="/static/js/idle.js?v={version}"></script>
    <script type="module" src="/static/js/uploads.js?v={version}"></script>
    <script type="module" src="/static/js/presence.js?v={version}"></script>
    <script type="module" src="/static/js/staff.js?v={version}"></script>
    <script type="module" src="/static/js/dashboard.js?v={version}"></script>
    """
    page = (CLIENT_BUILD_DIR / "index.html").read_text()
    page = page.replace("<!-- we replace this with user-provided head elements -->", "")
    page = page.replace("{__head__}", head)
    page = reactpy_client.link_patched(page)
    page = page.replace(
        '<html lang="en">', f'<html lang="en" data-theme="light" data-auth-tick="{int(refresh_tick_ms)}">'
    )
    return page.replace(
        '<div id="app"></div>',
        f"{APP_MARK}"
        '<ol class="toast-list client-toasts" data-client-toasts aria-live="polite"></ol>'
        "<noscript><p class='noscript'>Please enable JavaScript to use this site.</p></noscript>",
    )


def _page_html(
    template: str, *, title: str, description: str, first_frame: str | None, sidebar_collapsed: bool = False
) -> str:
    """The page with its title, its meta description and either its first frame (see
    medivisit/reactpy_compat/first_paint.py) or 'Loading…'; marked for a collapsed dashboard sidebar when the
    visitor's cookie says so (static/js/dashboard.js keeps it), so the first paint is already right."""
    app = (
        f'<div id="first-paint">{first_frame}</div><div id="app"></div>'
        if first_frame is not None
        else '<div id="app"><div class="boot" role="status" aria-live="polite">Loading…</div></div>'
    )
    if sidebar_collapsed:
        template = template.replace("<html ", "<html data-sidebar-collapsed ", 1)
    return (
        template.replace(TITLE_MARK, escape(title), 1)
        .replace(DESCRIPTION_MARK, escape(description), 1)
        .replace(APP_MARK, app, 1)
    )


async def _first_frame(request: Request, set_cookies: list[str], budget: float) -> str | None:
    """The page's first frame as the live tree would show it to this request: its cookies, including the
    ones this answer sets (the new visitor id, CSRF token, a renewed session). None if it fails."""
    jar = dict(request.cookies)
    for header in set_cookies:
        parsed = SimpleCookie()
        parsed.load(header)
        jar.update({name: morsel.value for name, morsel in parsed.items()})
    cookie_header = "; ".join(f"{name}={value}" for name, value in jar.items()).encode("latin-1")
    headers = [(k, v) for k, v in request.scope["headers"] if k != b"cookie"] + [(b"cookie", cookie_header)]
    query = request.url.query
    try:
        return await first_paint.render_first_frame(
            Root(),
            scope={**request.scope, "headers": headers},
            location=Location(request.url.path, f"?{query}" if query else ""),
            budget=budget,
        )
    except Exception:
        logger.exception("The first frame of %s could not be rendered", request.url.path[:200])
        return None


def create_app() -> FastAPI:
    settings = get_settings()
    reactpy_compat.install(first_paint_budget=settings.first_paint_budget_ms / 1000)
    install_security_notices()  # the identity service's security entries notify their account
    watch_signups()  # a new patient account queues automation's patient.signup in its own transaction
    wire_subscribers()  # the domain events' subscribers (medivisit/subscribers.py)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):  # noqa: ANN202
        ratelimit.configure(ratelimit.counters_for(settings))
        collector.tune()
        jobs = periodic.start_jobs(settings)
        await load_toggles()  # before the first request, so a toggle holds from the start
        toggles = asyncio.create_task(keep_toggles_fresh(), name="feature toggles")
        await load_live_ads()  # the ads' serving snapshot (app/services/ads/_serving.py)
        live_ads = asyncio.create_task(keep_ads_fresh(), name="live ads")
        yield
        toggles.cancel()
        live_ads.cancel()
        await asyncio.gather(toggles, live_ads, return_exceptions=True)
        await periodic.stop_jobs(jobs)
        await get_database().dispose()

    app = FastAPI(title=f"{settings.brand_name} API", lifespan=lifespan, docs_url="/docs", redoc_url=None)
    app.add_middleware(RequestGuard)
    app.include_router(health.router)
    app.include_router(functions.router)
    app.include_router(uploads.router)
    app.include_router(enrollment_files.router)
    app.include_router(credentials.router)
    app.include_router(account.router)
    app.include_router(revenue.router)
    app.include_router(analytics_api.router)
    app.include_router(wallet.router)
    app.include_router(documents.router)
    app.include_router(payments.router)
    app.include_router(store_images.router)
    app.include_router(automation.router)
    app.include_router(careers.router)
    app.include_router(ads.router)
    app.include_router(auth_api.router)
    app.include_router(auth_browser.router)
    version = asset_version()
    app.mount("/static", VersionedStaticFiles(directory=STATIC_DIR, version=version), name="static")
    worker_script = (STATIC_DIR / "service-worker.js").read_text().replace("__ASSET_VERSION__", version)

    @app.get("/service-worker.js", include_in_schema=False)
    async def service_worker() -> Response:
        # Served from the root so its scope covers the whole site.
        return Response(
            worker_script,
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @app.get(reactpy_client.patched_url(), include_in_schema=False)
    async def reactpy_client_bundle() -> Response:
        return Response(
            reactpy_client.patched_bundle(),
            media_type="text/javascript",
            headers={"Cache-Control": f"public, max-age={YEAR}, immutable"},
        )

    reactpy_fastapi.configure(app, Root, reactpy_fastapi.Options(serve_index_route=False))
    template = _index_template(version, settings.auth_refresh_tick_ms)

    async def page(request: Request) -> Response:
        path = request.url.path
        if path != "/" and path.endswith("/"):
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(path.rstrip("/") + query, status_code=308)
        matched = match_route(path, with_test_screens=settings.medivisit_test_broken_screen)
        screen, params = matched if matched else (None, {})
        found = screen is not None
        head = None
        if screen is not None and screen.head is not None:
            # The provider or service the path names, for the title and description; a known route naming
            # an unknown one answers 404, and its screen says so.
            async with transaction() as session:
                head = await screen.head(session=session, **params)
            found = head is not None
        if screen is None:
            logger.info("Unknown path requested: %s", path[:200])
            async with transaction() as session:
                await record_unknown_path(session=session, path=path)
        shown = screen or NOT_FOUND
        cookies = Response()  # collects this answer's Set-Cookie headers
        secure = request.url.scheme == "https"
        if CSRF_COOKIE not in request.cookies:
            # Echoed by every form post (double submit); auth.js sends it with its JSON posts.
            cookies.set_cookie(
                CSRF_COOKIE,
                new_csrf_token(),
                max_age=CSRF_COOKIE_MAX_AGE,
                samesite="lax",
                secure=secure,
            )
        # The websocket reads the session cookies once: renew an expiring session before it connects.
        await auth_browser.renew_for_page(request, cookies)
        if VISITOR_COOKIE not in request.cookies:
            # The websocket cannot set cookies, so the anonymous visitor id is issued here.
            cookies.set_cookie(
                VISITOR_COOKIE,
                secrets.token_urlsafe(18),
                max_age=VISITOR_COOKIE_MAX_AGE,
                httponly=True,
                samesite="lax",
                secure=secure,
            )
        set_cookies = cookies.headers.getlist("set-cookie")
        first_frame = None
        if shown.rule is None and request.method == "GET" and settings.first_paint_budget_ms > 0:
            # Public pages carry their first frame; guarded ones wait for the live tree (no private data
            # in a cached or shared HTML answer, and a guard decides with the live session).
            first_frame = await _first_frame(request, set_cookies, settings.first_paint_budget_ms / 1000)
        response = HTMLResponse(
            _page_html(
                template,
                title=f"{head.title if head else shown.title} | {settings.brand_name}",
                description=for_brand(head.description if head else shown.description, settings.brand_name),
                first_frame=first_frame,
                sidebar_collapsed=request.cookies.get(SIDEBAR_COOKIE) == "false",
            ),
            status_code=200 if found else 404,
            # A renewed session's answer is not stored anywhere (renew_for_page says "no-store").
            headers={"Cache-Control": cookies.headers.get("cache-control", "no-cache")},
        )
        for header in set_cookies:
            response.headers.append("set-cookie", header)
        return response

    app.add_route("/{path:path}", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_middleware(CompressAssets)
    app.add_middleware(SecurityHeaders)
    return app
