"""The notification centre in Chromium (issue 12's "done when"): a patient books a visit and the provider's
bell, open in another browser, counts it within a second without a reload; the notification opens the
visit; mark-all-read clears the badge in both of the provider's tabs. Turning e-mail off for visit updates
stops the confirmation e-mail (on the real aiosmtpd server) but not the in-app item; a security alert cannot
be turned off. axe-core on both screens, and screenshots at 1280×800 and 375×812, light and dark.

The site runs on a copy of the demo database: Jordan Lee books Priya Shah's blood draw through checkout.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, check_every_look, loaded
from tests.e2e.conftest import DESKTOP, MOBILE, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_booking_flow import (
    POLICY_WINDOW_DAYS,
    ZIP,
    ZONE,
    add_priyas_draw,
    day_ahead,
    hold,
    summary,
    visit,
)

PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
DRAW = "Routine blood draw"
INBOX = "/dashboard/notifications"
SETTINGS = "/dashboard/notification-settings"


@pytest.fixture(scope="module")
def site(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("notifications")
    _inbox, smtp_url = smtp_server
    server = start_server(
        tmp, DATABASE_URL=demo_database(tmp / "notify.db"), SMTP_URL=smtp_url, REMINDERS_ENABLED="false"
    )
    yield server
    stop_server(server)


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make() -> Page:
        context = browser.new_context(viewport=DESKTOP, service_workers="block", timezone_id=ZONE)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def bell(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("banner").get_by_role("link", name=re.compile(r"^Notifications"))


def unread_of(page: Page) -> int:
    return int(bell(page).get_attribute("data-unread"))


def signed_in(page: Page, site: LiveServer, email: str, path: str) -> None:
    sign_in(page, site, email, DEMO_PASSWORD, path=f"/login?redirect={path}")
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))
    toasts(page, "Authentication successful").get_by_role("button", name="Close notification").click()


def book_a_draw(page: Page, site: LiveServer) -> None:
    """Jordan books Priya Shah's blood draw through the cart and checkout."""
    add_priyas_draw(page, site)
    open_page(page, site.url("/checkout"))
    page.get_by_label("ZIP code").fill(ZIP)
    hold(visit(page, DRAW), day_ahead(POLICY_WINDOW_DAYS + 2, weekdays_only=True))
    page.get_by_label("Street address").fill("350 W 31st St")
    page.get_by_label("City").fill("New York")
    page.get_by_label("State").fill("NY")
    summary(page).get_by_role("button", name=re.compile(r"^Place order")).click()
    expect(page.get_by_role("heading", name="Your visit is requested")).to_be_visible()


def test_a_booking_reaches_the_providers_bell_live_and_mark_all_read_clears_every_tab(
    site: LiveServer, new_page
) -> None:
    provider, patient = new_page(), new_page()
    signed_in(provider, site, PROVIDER, "/dashboard")
    expect(bell(provider)).to_be_visible()
    before = unread_of(provider)
    second_tab = provider.context.new_page()
    open_page(second_tab, site.url("/dashboard"))
    expect(bell(second_tab)).to_have_attribute("data-unread", str(before))

    signed_in(patient, site, PATIENT, "/dashboard")
    book_a_draw(patient, site)
    # Live: no reload in the provider's browser, within a second of the order's commit.
    expect(bell(provider)).to_have_attribute("data-unread", str(before + 1), timeout=1_000)
    expect(bell(provider)).to_have_accessible_name(f"Notifications, {before + 1} unread")
    expect(bell(second_tab)).to_have_attribute("data-unread", str(before + 1), timeout=1_000)

    # The bell opens the inbox, where mark all as read clears the badge in both tabs.
    bell(provider).click()
    expect(provider).to_have_url(re.compile(re.escape(INBOX) + "$"))
    item = provider.get_by_role("link", name=re.compile(r"^New visit request for"))
    expect(item.first).to_be_visible()
    assert "blood" not in item.first.inner_text().lower()  # PHI-free: the service is behind the link
    provider.get_by_role("button", name="Mark all as read").click()
    expect(bell(provider)).to_have_accessible_name("Notifications")
    expect(bell(second_tab)).to_have_attribute("data-unread", "0")
    expect(bell(second_tab).locator(".badge-count")).to_have_count(0)

    # In the All tab, the notification opens the visit, marked and focused.
    provider.get_by_role("tab", name="All").click()
    item.first.click()
    expect(provider).to_have_url(re.compile(r"/dashboard/appointments\?tab=upcoming&visit="))
    expect(provider.locator(".appt-card.is-shown")).to_be_visible()
    expect(provider.locator(".appt-card.is-shown")).to_be_focused()


def test_email_off_for_visit_updates_keeps_the_inbox_item_and_security_is_locked(
    site: LiveServer, new_page, smtp
) -> None:
    patient, provider = new_page(), new_page()
    signed_in(patient, site, PATIENT, SETTINGS)
    loaded(patient)
    security = patient.get_by_role("row", name=re.compile(r"^Security alerts"))
    for channel in ("In-app", "E-mail"):
        box = security.get_by_label(f"{channel} for Security alerts")
        expect(box).to_be_checked()
        expect(box).to_be_disabled()
    expect(security).to_contain_text("Always on")
    expect(security).to_contain_text("you need to know if someone else is using your account")
    patient.get_by_label("E-mail for Visit updates").uncheck()
    patient.get_by_role("button", name="Save settings").click()
    expect(toasts(patient, "Notification settings saved")).to_be_visible()

    # Priya confirms one of Jordan's pending visits.
    signed_in(provider, site, PROVIDER, "/dashboard/appointments")
    card = (
        provider.locator(".appt-card-pending")
        .filter(has_text="Jordan Lee")  # the demo has other patients' pending visits too
        .filter(has=provider.get_by_role("button", name="Confirm"))
        .first
    )
    smtp.clear()
    card.get_by_role("button", name="Confirm").click()
    expect(toasts(provider, "Visit confirmed")).to_be_visible()
    # The patient's in-app item arrives (live, in the inbox) ...
    open_page(patient, site.url(INBOX))
    expect(
        patient.get_by_role("link", name=re.compile(r"^Your visit on .* was confirmed$")).first
    ).to_be_visible()
    # ... and no "Your visit is confirmed" e-mail: the visit e-mail is sent (SMTP answered) inside the confirm's
    # unit of work, before the toast, so it would be on the server by now.
    assert not [m for m in smtp.messages if m["Subject"] == "Your visit is confirmed" and m["To"] == PATIENT]


def test_screens_pass_axe_and_look_right(site: LiveServer, new_page) -> None:
    page = new_page()
    signed_in(page, site, PATIENT, INBOX)
    problems = []
    for path, name in ((INBOX, "notifications"), (SETTINGS, "notification-settings")):
        open_page(page, site.url(path))
        loaded(page)
        problems += check_every_look(page, path)
        for viewport, size in ((DESKTOP, "desktop"), (MOBILE, "mobile")):
            for scheme in ("light", "dark"):
                page.set_viewport_size(viewport)
                page.emulate_media(color_scheme=scheme)
                page.evaluate("(s) => document.documentElement.setAttribute('data-theme', s)", scheme)
                screenshot(page, f"{name}-{size}-{scheme}", full_page=True, animations="disabled")
    assert problems == []
