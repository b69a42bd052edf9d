"""Issue 11 with the keyboard alone: the demo patient signs in, finds a provider by ZIP code and service, adds
the visit to the cart, checks out (Place order with the address missing first: the error summary), chooses a
day and a time, fills the address and places the order, with `keyboard.press` / `keyboard.type` only (no
clicks, no `fill`, no `focus()`); the test only reads where the focus is. Every stop shows a focus ring.

Also checkout's error summary (GOV.UK's pattern) in detail: focused on Place order, one link per error,
each link focusing its field, the fields marked invalid with their message, typed values kept. Screenshots of
the cart panel and the error summary, at both widths and in both themes, go to tests/artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import SCHEMES, Scheme
from tests.e2e.conftest import DESKTOP, MOBILE, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import toasts, wait_for_screen
from tests.e2e.test_sign_in import sign_up

PATIENT = "patient@demo.medivisit.test"
PASSWORD = "Demo-MediVisit-1"
ZIP = "10001"
ZONE = "America/New_York"
SERVICE = "Routine blood draw"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("keyboard"))
    yield server
    stop_server(server)


@pytest.fixture
def ny_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, service_workers="block", timezone_id=ZONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


# ---- reading the focus ------------------------------------------------------------------------------
def focused(page: Page) -> dict:
    """What has the focus: tag, id, accessible-ish name, and whether a focus indicator is drawn."""
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          const style = getComputedStyle(el);
          return {
            tag: el.tagName.toLowerCase(),
            id: el.id,
            name: (el.getAttribute("aria-label") || el.innerText || el.value || "").trim(),
            ring: (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none",
          };
        }"""
    )


def tab_to(page: Page, matches, *, limit: int = 120, back: bool = False) -> dict:  # noqa: ANN001
    """Press Tab (Shift+Tab with `back`) until `matches(focused)`; the stop must show a focus ring."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        now = focused(page)
        if matches(now):
            assert now["ring"], f"no visible focus indicator on {now}"
            return now
    raise AssertionError(f"Tab never reached the element (last: {focused(page)})")


def named(pattern: str):  # noqa: ANN201
    return lambda f: re.search(pattern, f["name"]) is not None


def with_id(element_id: str):  # noqa: ANN201
    return lambda f: f["id"] == element_id


def is_day_chip(f: dict) -> bool:
    return f["tag"] == "button" and re.fullmatch(r"\w+, [A-Z][a-z]{2} \d{1,2}, \d{4}", f["name"]) is not None


def replace_text(page: Page, text: str) -> None:
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(text)


# ---- the whole booking with the keyboard ------------------------------------------------------------------
@pytest.mark.timeout(300)
def test_book_a_visit_with_the_keyboard_alone(demo: LiveServer, ny_page: Page) -> None:
    page = ny_page
    open_page(page, demo.url("/login"))
    wait_for_screen(page)
    tab_to(page, with_id("auth-email"))
    page.keyboard.type(PATIENT)
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "auth-password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(toasts(page, "Authentication successful")).to_be_visible()

    # Find a Provider: ZIP code and service, then Search.
    open_page(page, demo.url("/find-provider"))
    wait_for_screen(page)
    tab_to(page, with_id("search-service"))
    page.keyboard.type("Routine")  # a closed <select> picks the option typed (no space: it would open it)
    expect(page.get_by_label("Service", exact=True).locator("option:checked")).to_have_text(SERVICE)
    tab_to(page, with_id("search-zip"))
    page.keyboard.type(ZIP)
    tab_to(page, named(r"^Search$"))
    page.keyboard.press("Enter")
    expect(page.locator(f'.search-results[data-results-for*="zip={ZIP}"][aria-busy="false"]')).to_be_visible()

    # The first result's Add to cart: the cart panel opens with the focus in it.
    tab_to(page, named(r"^Add to cart$"))
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="Your Cart")
    expect(panel.get_by_role("heading", name=SERVICE)).to_be_visible()
    expect(panel.get_by_role("button", name="Close cart")).to_be_focused()
    tab_to(page, named(r"^Checkout"))
    page.keyboard.press("Enter")
    expect(page).to_have_url(demo.url("/checkout"))
    expect(page.get_by_role("heading", name="Checkout", level=1)).to_be_visible()
    visit = page.get_by_role("article").filter(has=page.get_by_role("heading", name=SERVICE)).first
    expect(visit).to_be_visible()

    # Place order too early: the error summary takes the focus; its first link leads to the ZIP code.
    tab_to(page, named(r"^Place order"))
    page.keyboard.press("Enter")
    summary = page.get_by_role("alert").filter(has_text="There is a problem")
    expect(summary).to_be_visible()
    expect(page.locator("#checkout-errors")).to_be_focused()
    tab_to(page, named(r"ZIP code"))
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "checkout-zip_code"

    # The address, then a day and a time.
    replace_text(page, ZIP)
    page.keyboard.press("Tab")
    replace_text(page, "350 W 31st St, Apt 12C")
    page.keyboard.press("Tab")
    replace_text(page, "New York")
    page.keyboard.press("Tab")
    replace_text(page, "NY")
    # Once the days with open times for this address are known (the others leave the row), day chips
    # from the day after tomorrow, one after the other, until the provider has open times.
    expect(visit.locator(".day-picker")).to_have_attribute("aria-busy", "false")
    tab_to(page, lambda f: is_day_chip(f) and not f["name"].startswith(("Today", "Tomorrow")))
    times = visit.get_by_role("group", name=re.compile(r"^Time"))
    for _ in range(10):
        day = focused(page)
        assert is_day_chip(day), day
        page.keyboard.press("Enter")
        expect(visit.get_by_role("button", name=day["name"])).to_have_attribute("aria-pressed", "true")
        expect(visit.locator('.time-grid[aria-busy="false"], .times-note[aria-busy="false"]')).to_be_visible()
        if times.count():
            break
        page.keyboard.press("Tab")
    time = tab_to(page, lambda f: re.fullmatch(r"\d{1,2}:\d{2} [AP]M", f["name"]) is not None)
    page.keyboard.press("Enter")
    expect(visit.get_by_role("status").filter(has_text="Held until")).to_be_visible()
    expect(times.get_by_role("button", name=time["name"])).to_have_attribute("aria-pressed", "true")

    # Place order: the confirmation's heading has the focus.
    tab_to(page, named(r"^Place order · \$"))
    page.keyboard.press("Enter")
    heading = page.get_by_role(
        "heading", name=re.compile(r"^(Your visits? (is|are) requested|You're booked!)$"), level=1
    )
    expect(heading).to_be_visible()
    expect(heading).to_be_focused()
    expect(page.get_by_role("main")).to_contain_text("Home: 350 W 31st St, Apt 12C, New York, NY 10001")


# ---- the error summary ---------------------------------------------------------------------------------
def look(page: Page, viewport: ViewportSize, scheme: Scheme) -> None:
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme=scheme)
    page.evaluate("(scheme) => document.documentElement.setAttribute('data-theme', scheme)", scheme)
    page.wait_for_function(
        "() => document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState === 'finished')"
    )


def shoot(page: Page, name: str, target: Locator | None = None) -> None:
    if not SCREENSHOTS:
        return
    for viewport, size in ((DESKTOP, "desktop"), (MOBILE, "mobile")):
        for scheme in SCHEMES:
            look(page, viewport, scheme)
            if target is not None:
                target.scroll_into_view_if_needed()
            screenshot(page, f"{name}-{size}-{scheme}", animations="disabled")
    look(page, DESKTOP, "light")


def invalid(field: Locator, message: str) -> None:
    """The field is marked invalid and described by its visible message."""
    expect(field).to_have_attribute("aria-invalid", "true")
    described = field.get_attribute("aria-describedby") or ""
    error_id = next(i for i in described.split() if i.endswith("-error"))
    expect(field.page.locator(f"#{error_id}")).to_have_text(message)
    expect(field.page.locator(f"#{error_id}")).to_be_visible()


def test_place_order_with_mistakes_shows_the_error_summary(demo: LiveServer, ny_page: Page) -> None:
    page = ny_page
    # A new patient: the demo patient's saved address (a draft another test may have left) would come back
    # while the fields are being emptied.
    sign_up(page, demo)
    open_page(page, demo.url("/services/iv-therapy"))
    page.get_by_role("button", name=re.compile("Add to cart")).first.click()
    panel = page.get_by_role("dialog", name="Your Cart")
    expect(panel.get_by_role("listitem").first).to_be_visible()
    shoot(page, "cart-panel")
    panel.get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout", level=1)).to_be_visible()
    first_visit = page.get_by_role("article").first
    service = first_visit.get_by_role("heading").first.inner_text()

    zip_code, street = page.get_by_label("ZIP code"), page.get_by_label("Street address")
    city, state = page.get_by_label("City"), page.get_by_label("State")
    for field in (zip_code, street, city, state):
        field.fill("")
    street.fill("350 W 31st St")
    state.fill("N")
    page.get_by_role("button", name=re.compile(r"^Place order")).click()

    summary = page.locator("#checkout-errors")
    expect(summary).to_be_focused()
    expect(summary.get_by_role("heading", name="There is a problem")).to_be_visible()
    links = summary.get_by_role("link")
    expect(links).to_have_text(
        [
            "Enter your ZIP code",
            "Enter your city",
            "Enter your state as 2 letters, like NY",
            *[re.compile(r"^Choose a day and time for ")] * (links.count() - 3),
        ]
    )
    expect(links.last).to_have_text(re.compile(r"^Choose a day and time for "))
    expect(page).to_have_title(re.compile(r"^Error: "))
    invalid(zip_code, "Enter your ZIP code")
    invalid(city, "Enter your city")
    invalid(state, "Enter your state as 2 letters, like NY")
    expect(street).to_have_value("350 W 31st St")  # typed values are kept
    expect(street).not_to_have_attribute("aria-invalid", "true")
    days = first_visit.get_by_role("group", name="Day")
    expect(days).to_have_attribute("aria-invalid", "true")
    expect(first_visit.locator(".field-error")).to_have_text(f"Choose a day and time for {service}")
    shoot(page, "checkout-error-summary", summary)

    # Each link moves the focus to its field.
    summary.get_by_role("link", name="Enter your city").click()
    expect(city).to_be_focused()
    summary.get_by_role("link", name=re.compile("^Enter your state")).click()
    expect(state).to_be_focused()
    summary.get_by_role("link", name=f"Choose a day and time for {service}").click()
    expect(days.locator("[aria-pressed=true]")).to_be_focused()

    # A second attempt: the summary has the focus again and says what is still wrong.
    zip_code.fill("1234")
    city.fill("New York")
    state.fill("NY")
    page.get_by_role("button", name=re.compile(r"^Place order")).click()
    expect(summary).to_be_focused()
    expect(summary.get_by_role("link").first).to_have_text("Enter a ZIP code with 5 digits, like 10001")
    expect(summary.get_by_role("link", name="Enter your city")).to_have_count(0)
    expect(city).not_to_have_attribute("aria-invalid", "true")
    expect(street).to_have_value("350 W 31st St")
    expect(city).to_have_value("New York")
