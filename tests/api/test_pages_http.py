"""What the HTTP layer answers for pages: statuses from the route table, redirects, cookies, probes."""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator

import httpx
import pytest

from app import db as app_db
from app.settings import get_settings
from medivisit.main import create_app
from models import NotFoundPath
from pages.heads import MAX_DESCRIPTION, clip, for_brand
from pages.routes import NOT_FOUND, SCREENS
from tests import factories


async def test_known_paths_answer_200_with_the_app_shell_and_title(client) -> None:
    response = await client.get("/about")
    assert response.status_code == 200
    assert '<div id="app">' in response.text
    assert "<title>About us | MediVisit</title>" in response.text


async def test_unknown_path_answers_404_but_still_serves_the_app_and_is_counted(client) -> None:
    path = f"/no-such-page-{secrets.token_hex(3)}"
    for _ in range(2):
        response = await client.get(path)
        assert response.status_code == 404
        assert '<div id="app">' in response.text and "Page Not Found | MediVisit" in response.text
    async with app_db.unit_of_work() as session:
        assert (await session.get(NotFoundPath, path)).hits == 2


async def test_trailing_slash_redirects_to_the_canonical_path_keeping_the_query(client) -> None:
    response = await client.get("/services/?q=iv")
    assert response.status_code == 308
    assert response.headers["location"] == "/services?q=iv"


async def test_first_visit_gets_an_httponly_visitor_cookie_once(client) -> None:
    first = await client.get("/")
    cookie = next(c for c in first.headers.get_list("set-cookie") if c.startswith("mv_visitor="))
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    again = await client.get("/", cookies={"mv_visitor": "known", "mv_csrf": "known"})
    assert "set-cookie" not in again.headers


async def test_first_visit_gets_a_csrf_cookie_for_the_forms_once(client) -> None:
    first = await client.get("/")
    cookie = next(c for c in first.headers.get_list("set-cookie") if c.startswith("mv_csrf="))
    assert "samesite=lax" in cookie.lower() and len(cookie.split(";")[0]) > len("mv_csrf=") + 20
    again = await client.get("/", cookies={"mv_visitor": "known", "mv_csrf": "known"})
    assert "set-cookie" not in again.headers


async def test_health_and_readiness(client) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["database"] == "ok"


async def test_service_worker_is_served_from_the_root_uncached(client) -> None:
    response = await client.get("/service-worker.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert "SKIP_WAITING" in response.text
    assert "__ASSET_VERSION__" not in response.text


async def test_asset_urls_carry_the_same_version_as_the_service_worker(client) -> None:
    page = (await client.get("/")).text
    worker = (await client.get("/service-worker.js")).text
    versions = set(re.findall(r"\?v=([0-9a-f]{10})", page))
    assert len(versions) == 1
    assert f'ASSET_VERSION = "{versions.pop()}"' in worker


async def test_static_assets_are_served(client) -> None:
    for path in (
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/js/auth.js",
        "/static/js/countdown.js",
        "/static/img/favicon.svg",
    ):
        assert (await client.get(path)).status_code == 200, path


async def test_every_catalog_service_has_a_page_and_unknown_ids_answer_404(client) -> None:
    """Issue 11, flow 7: /services/<service-slug> for every service; unknown service or provider ids are 404
    (the app still renders its own not-found message)."""
    provider_id = await factories.provider()
    hidden = await factories.provider("Una Listed", verified=False)
    for path in ("/services/iv-therapy", "/services/routine-blood-draw", f"/providers/{provider_id}"):
        assert (await client.get(path)).status_code == 200, path
    for path in ("/services/no-such-service", "/providers/no-such-provider", f"/providers/{hidden}"):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert '<div id="app">' in response.text


# ---- the first frame in the HTML (issue 11: first paint without the socket) --------------------------------
@pytest.fixture
async def unhurried_client(configured, monkeypatch) -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app that waits as long as a first frame's data takes (a busy test machine is slow)."""
    monkeypatch.setenv("FIRST_PAINT_BUDGET_MS", "20000")
    get_settings.cache_clear()
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def first_frame(page: str) -> str:
    start = page.index('<div id="first-paint">')
    return page[start : page.index('<div id="app">', start)]


async def test_public_pages_carry_their_first_frame_with_their_data(unhurried_client) -> None:
    client = unhurried_client
    provider_id = await factories.provider("Ada Nurse")
    home = await client.get("/")
    assert "Licensed care, at your door." in first_frame(home.text)
    assert 'href="/find-provider"' in first_frame(home.text)
    assert "Loading…" not in home.text

    search = await client.get(f"/find-provider?zip={factories.ZIP}")
    frame = first_frame(search.text)
    assert "Ada Nurse" in frame, "the search results, read before the page was answered"
    assert f'href="/providers/{provider_id}"' in frame
    assert f'value="{factories.ZIP}"' in frame, "the ZIP field shows the query's ZIP code"


async def test_the_sign_in_form_of_the_first_frame_posts_without_script(client) -> None:
    response = await client.get("/login")
    frame = first_frame(response.text)
    issued = next(c for c in response.headers.get_list("set-cookie") if c.startswith("mv_csrf="))
    token = issued.split(";")[0].removeprefix("mv_csrf=")
    assert 'action="/auth/login"' in frame and 'method="post"' in frame
    assert f'name="csrf_token" value="{token}"' in frame, "the token this same answer sets"
    assert 'type="email"' in frame and 'type="password"' in frame


async def test_guarded_pages_wait_for_the_live_tree(client) -> None:
    response = await client.get("/dashboard")
    assert 'id="first-paint"' not in response.text
    assert (
        '<div id="app"><div class="boot" role="status" aria-live="polite">Loading…</div></div>'
        in response.text
    )


# ---- per-route title and meta description (pages/routes.py `Screen.description`, pages/heads.py) ------------
def meta_description(page: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]*)">', page)
    assert found, "the page has a meta description"
    return found.group(1)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "/",
            "Book blood draws, IV therapy, in-home nursing and at-home diagnostics with verified providers",
        ),
        ("/services", "what each service covers, its prices and how to prepare."),
        ("/find-provider", "Search verified providers by service, ZIP code and date"),
        ("/corporate", "Flu shots, health screenings and blood draws at your workplace"),
        ("/contact", "Contact the MediVisit support team."),
        ("/dashboard", "MediVisit brings licensed providers to your home or office"),  # the site's own
    ],
)
async def test_each_route_has_its_own_meta_description(client, path: str, expected: str) -> None:
    response = await client.get(path)
    assert response.text.count('<meta name="description"') == 1
    assert expected in meta_description(response.text)


async def test_descriptions_differ_between_pages_and_escape_their_quotes(client) -> None:
    home = meta_description((await client.get("/")).text)
    services = meta_description((await client.get("/services")).text)
    assert home != services
    # "We'll" and "doesn't" (ASCII apostrophes) are escaped in the attribute.
    assistant = meta_description((await client.get("/healthcare-assistant")).text)
    assert "we&#x27;ll point you to the right service" in assistant and "'" not in assistant


async def test_a_service_page_names_its_service_in_title_and_description(client) -> None:
    await factories.provider()  # seeds the reference catalog
    service = await client.get("/services/routine-blood-draw")
    assert "<title>Routine blood draw | MediVisit</title>" in service.text
    described = meta_description(service.text)
    assert described.startswith("Routine blood draw: A blood draw for the tests on your")
    assert " for 30 min at home, office" in described
    category = await client.get("/services/iv-therapy")
    assert "<title>IV Therapy | MediVisit</title>" in category.text
    assert meta_description(category.text).startswith("IV Therapy: Hydration and vitamin infusions")
    missing = await client.get("/services/no-such-service")
    assert missing.status_code == 404 and "<title>Service | MediVisit</title>" in missing.text


async def test_a_provider_page_names_the_provider_escaped(client) -> None:
    provider_id = await factories.provider('Zoë "Zed" <O\'Neil>')
    response = await client.get(f"/providers/{provider_id}")
    title = "Zoë &quot;Zed&quot; &lt;O&#x27;Neil&gt;"
    assert f"<title>{title} | MediVisit</title>" in response.text
    description = meta_description(response.text)
    assert (
        description
        == f"{title}, Nurse verified by MediVisit: Mobile Phlebotomy. Prices, reviews and next available times."
    )
    assert "<O'Neil>" not in response.text.split("<body", 1)[0]


async def test_every_description_is_one_sentence_of_at_most_160_characters() -> None:
    for screen in (*SCREENS, NOT_FOUND):
        text = for_brand(screen.description, "MediVisit")
        assert text == " ".join(screen.description.replace("{brand}", "MediVisit").split()), screen.path
        assert 40 <= len(text) <= MAX_DESCRIPTION and text.endswith("."), screen.path
    clipped = clip("word " * 50)  # a look-up's longer text is cut at a word
    assert len(clipped) <= MAX_DESCRIPTION and clipped.endswith(" word…")


async def test_pages_load_the_patched_client_which_is_cached_for_good(client) -> None:
    """medivisit/reactpy_compat/client.py: the page links ReactPy's client with the redraw patches, by a name that
    carries its hash (so a browser keeps it until it changes), and not the original bundle."""
    page = (await client.get("/")).text
    (src,) = re.findall(r'<script type="module" crossorigin src="(/_reactpy/assets/[^"]+)"', page)
    assert re.fullmatch(r"/_reactpy/assets/client-[0-9a-f]{12}\.js", src)
    bundle = await client.get(src)
    assert bundle.status_code == 200
    assert bundle.headers["content-type"].startswith("text/javascript")
    assert "immutable" in bundle.headers["cache-control"]
    assert "__mvSetIn" in bundle.text and "Element=Cn.memo(Element" in bundle.text
