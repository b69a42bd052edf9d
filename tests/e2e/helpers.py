"""Small helpers shared by the browser tests: waiting for a routed screen, measuring delays inside the
page (so a slow test machine cannot skew them), driving the Report Bug dialog, and signing in and out."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urljoin, urlsplit

from playwright.sync_api import FloatRect, Locator, Page, expect

from app.auth.web import CSRF_COOKIE, CSRF_FIELD
from tests.conftest import LiveServer
from tests.e2e.conftest import open_page

ROUTER_FALLBACK = "Unexpected Application Error!"
BRAND = "MediVisit"
SUPPORT_EMAIL = "support@medivisit.test"


def title_of(name: str) -> str:
    return f"{name} | {BRAND}"


def path_of(url: str) -> str:
    """The path (with query and fragment) of an absolute URL."""
    return re.sub(r"^https?://[^/]+", "", url)


def wait_for_screen(page: Page) -> Locator:
    """Wait until the live tree's routed screen (or the error screen) shows something inside <main>."""
    main = page.locator("#app").get_by_role("main")
    main.locator(":scope > :not([hidden])").first.wait_for()
    return main


def expect_frame(page: Page) -> None:
    """The site frame a visitor sees around every screen: header with the logo, and the footer."""
    expect(page.get_by_role("banner").get_by_role("link", name=re.compile(BRAND)).first).to_be_visible()
    expect(page.get_by_role("contentinfo")).to_be_visible()


# ---- delays measured in the page -----------------------------------------------------------------
def start_navigation_probe(page: Page) -> None:
    """Record (in page time) the next click and the moment the URL changes after it."""
    page.evaluate(
        """() => {
          const here = () => location.pathname + location.search + location.hash;
          const start = here();
          const probe = window.__navProbe = {clicked: null, navigated: null};
          document.addEventListener("click", () => { probe.clicked ??= performance.now(); },
                                    {capture: true, once: true});
          const timer = setInterval(() => {
            if (here() !== start) { probe.navigated = performance.now(); clearInterval(timer); }
          }, 5);
        }"""
    )


def navigation_delay_ms(page: Page) -> float:
    """Milliseconds between the probed click and the URL change (waits for the change)."""
    page.wait_for_function("window.__navProbe.navigated !== null")
    return page.evaluate("window.__navProbe.navigated - window.__navProbe.clicked")


# ---- the Report Bug dialog -------------------------------------------------------------------------
def open_bug_report(page: Page) -> Locator:
    page.get_by_role("contentinfo").get_by_role("button", name="Report Bug").click()
    dialog = page.get_by_role("dialog", name="Report a Bug")
    expect(dialog).to_be_visible()
    return dialog


def fill_bug_report(dialog: Locator, *, email: str, title: str, description: str) -> None:
    dialog.get_by_label("Your email").fill(email)
    dialog.get_by_label("Issue title").fill(title)
    dialog.get_by_label("Detailed description").fill(description)


def submit_button(dialog: Locator) -> Locator:
    return dialog.get_by_role("button", name=re.compile(r"^(Submit Report|Submitting\.\.\.)$"))


def report_bug(
    page: Page, *, title: str = "Search is broken", description: str = "Nothing happens."
) -> Locator:
    """Open the dialog, fill it with valid values and submit it; returns the dialog locator."""
    dialog = open_bug_report(page)
    fill_bug_report(dialog, email="patient@example.com", title=title, description=description)
    submit_button(dialog).click()
    return dialog


def toasts(page: Page, text: str | re.Pattern[str] | None = None) -> Locator:
    """Toast notifications (server-rendered and client-side), optionally those containing `text`."""
    found = page.locator(".toast")
    return found.filter(has_text=text) if text is not None else found


# ---- signing in -------------------------------------------------------------------------------------
def sign_in(page: Page, server: LiveServer, email: str, password: str, path: str = "/login") -> None:
    """Sign in as the sign-in form at `path` would: its post (the same fields, the CSRF token, the
    `redirect` of `path`), then the page the answer sends the browser to. Only the drawing and typing of
    the form are skipped; tests of the form itself use `sign_in_with_form`."""
    if not any(c["name"] == CSRF_COOKIE for c in page.context.cookies(server.base_url)):
        page.request.get(server.url(path))  # the page route issues the token; no need to draw the page
    [token] = [c["value"] for c in page.context.cookies(server.base_url) if c["name"] == CSRF_COOKIE]
    form: dict[str, str | float | bool] = {"email": email, "password": password, CSRF_FIELD: token}
    redirect = parse_qs(urlsplit(path).query).get("redirect")
    if redirect:
        form["redirect"] = redirect[0]
    answer = page.request.post(
        server.url("/auth/login"), form=form, headers={"Origin": server.base_url}, max_redirects=0
    )
    assert answer.status == 303, f"/auth/login answered {answer.status}"
    page.goto(urljoin(server.url(path), answer.headers["location"]))


def sign_in_with_form(
    page: Page, server: LiveServer, email: str, password: str, path: str = "/login"
) -> None:
    """Type into the sign-in form at `path` and press Sign in."""
    open_page(page, server.url(path))
    wait_for_screen(page)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    expect(page.get_by_label("Email")).to_have_value(email)  # typed into the form that is sent
    page.get_by_role("button", name="Sign in", exact=True).click()


def account_menu(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("button", name="Account menu")


def log_out(page: Page) -> None:
    """Log out from the public frame's account menu, or from the staff portal's own toolbar."""
    if path_of(page.url).startswith("/staff"):
        page.get_by_role("button", name="Log out", exact=True).click()
    else:
        account_menu(page).click()
        page.get_by_role("menuitem", name="Log out").click()
    # Shown, not necessarily still on screen: a toast's 4 s are browser time, which a starved test machine
    # can spend before the first look.
    expect(toasts(page, "Logged out successfully")).to_be_attached()


def bounds(locator: Locator) -> FloatRect:
    """`locator`'s bounding box; an element that has none (not visible) fails here."""
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not visible"
    return box
