"""Staff appointments (issue 15) in Chromium against a demo-seeded server: management follows "View Full
Schedule" from the staff dashboard, moves to a week with visits, filters it (the filters land in the URL and
survive a reload), opens a visit's details with the patient's records, reassigns one visit to a free provider,
reschedules another and cancels a third with a reason; support sees the same week without patient details and
without actions; the owner sees a provider's schedule. axe-core finds nothing in any look; screenshots at
1280×800 and 375×812, light and dark, go to tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import LOOKS, MOBILE, check_every_look, loaded, screenshot_looks, set_look
from tests.e2e.conftest import DESKTOP, page_errors, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in

# The demo books pending and confirmed visits 5 to 14 days ahead: the week holding the 8th day has some.
AHEAD = (datetime.now(UTC) + timedelta(days=8)).date().isoformat()
WEEK = f"/staff/appointments?date={AHEAD}&view=week"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("staff-visits"))
    yield server
    stop_server(server)


def agenda(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("region", name=re.compile(r"^Week of"))


def first_details(page: Page, status: str):  # noqa: ANN201 - Locator
    """Open the details of the first visit of `status` in the agenda; returns the dialog."""
    row = page.locator(".visit-row").filter(has=page.locator(f".visit-{status}")).first
    row.get_by_role("button", name=re.compile("^Details of")).click()
    dialog = page.get_by_role("dialog", name="Visit details")
    expect(dialog.locator(".visit-facts").first).to_be_visible()
    return dialog


def test_management_reads_and_changes_visits(site: LiveServer, page: Page) -> None:
    staff_sign_in(page, site, "management", "/staff")
    page.get_by_role("link", name="View Full Schedule").click()
    expect(page).to_have_url(re.compile(r"/staff/appointments$"))
    expect(page.get_by_role("heading", name="Appointments", exact=True)).to_be_visible()
    expect(page.get_by_text("Times in your time zone")).to_be_visible()

    page.goto(site.url(WEEK))
    loaded(page)
    expect(agenda(page).locator(".visit-row").first).to_be_visible()
    search = page.get_by_role("search", name="Choose the visits shown")
    search.get_by_label("Status").select_option("pending")
    search.get_by_role("button", name="Show visits").click()
    expect(page).to_have_url(re.compile(r"status=pending"))
    page.reload()
    loaded(page)
    expect(page.get_by_role("search", name="Choose the visits shown").get_by_label("Status")).to_have_value(
        "pending"
    )
    rows = agenda(page).locator(".visit-row")
    expect(rows.first).to_be_visible()
    expect(agenda(page).locator(".visit-confirmed")).to_have_count(0)
    before = rows.count()

    # Details with the patient's records (management holds view_patient_logs), then reassign the first
    # pending visit some other provider is free to take (not every visit has one: the service, the ZIP code).
    for index in range(before):
        row = rows.nth(index)
        row.get_by_role("button", name=re.compile("^Details of")).click()
        dialog = page.get_by_role("dialog", name="Visit details")
        expect(dialog.get_by_text("Intake notes")).to_be_visible()
        expect(dialog.get_by_text("E-mail", exact=True)).to_be_visible()
        original = dialog.locator(".visit-facts dd").nth(4).inner_text()  # the provider
        dialog.get_by_role("button", name="Reassign").click()
        dialog = page.get_by_role("dialog", name="Reassign the visit")
        expect(
            dialog.get_by_label("New provider").or_(dialog.get_by_text("No other provider"))
        ).to_be_visible()
        if dialog.get_by_label("New provider").count():
            break
        dialog.get_by_role("button", name="Back").click()
        page.get_by_role("dialog", name="Visit details").get_by_role(
            "button", name="Close", exact=True
        ).last.click()
    else:
        pytest.fail("no pending visit of the week could be reassigned")
    dialog.get_by_label("New provider").select_option(index=1)
    screenshot(page, "staff-appointments-reassign", animations="disabled")
    dialog.get_by_role("button", name="Reassign visit").click()
    expect(toasts(page).filter(has_text="Visit reassigned")).to_be_visible()
    dialog = page.get_by_role("dialog", name="Visit details")
    expect(dialog.locator(".visit-facts dd").nth(4)).not_to_have_text(original)
    dialog.get_by_role("button", name="Close", exact=True).last.click()
    expect(page.get_by_role("dialog")).to_have_count(0)

    # Reschedule another pending visit to its provider's first open time that day.
    dialog = first_details(page, "pending")
    dialog.get_by_role("button", name="Reschedule").click()
    dialog = page.get_by_role("dialog", name="Reschedule the visit")
    times = dialog.get_by_label("New time")
    expect(times.locator("option").nth(1)).to_be_attached()
    times.select_option(index=1)
    screenshot(page, "staff-appointments-reschedule", animations="disabled")
    dialog.get_by_role("button", name="Move visit").click()
    expect(toasts(page).filter(has_text="Visit rescheduled")).to_be_visible()
    page.get_by_role("dialog", name="Visit details").get_by_role(
        "button", name="Close", exact=True
    ).last.click()

    # Cancel one on the patient's behalf: a reason is required.
    dialog = first_details(page, "pending")
    dialog.get_by_role("button", name="Cancel visit").click()
    dialog = page.get_by_role("dialog", name="Cancel the visit")
    dialog.get_by_role("button", name="Cancel visit").click()
    expect(dialog.get_by_role("alert")).to_contain_text("Enter the reason for cancelling")
    screenshot(page, "staff-appointments-cancel", animations="disabled")
    dialog.get_by_label("Reason").fill("The patient called: travelling that week")
    dialog.get_by_role("button", name="Cancel visit").click()
    expect(toasts(page).filter(has_text="Visit cancelled")).to_be_visible()
    details = page.get_by_role("dialog", name="Visit details")
    expect(details).to_contain_text("The patient called: travelling that week")
    expect(details).to_contain_text("Cancelled by")
    details.get_by_role("button", name="Close", exact=True).last.click()
    expect(rows).to_have_count(before - 1)  # the cancelled visit left the pending filter
    assert page_errors(page) == []


def test_support_sees_visits_without_patient_details_or_actions(site: LiveServer, page: Page) -> None:
    frames: list[str] = []  # everything the server sends this tab over its websocket
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    staff_sign_in(page, site, "support", WEEK)
    loaded(page)
    expect(agenda(page)).to_contain_text("patient details hidden")
    dialog = first_details(page, "confirmed")
    expect(dialog).to_contain_text("need the view patient logs permission")
    expect(dialog.get_by_text("Intake notes", exact=True)).to_have_count(0)
    assert frames and not [
        f for f in frames if "@patients.demo.medivisit.test" in f
    ]  # never sent, not hidden
    for action in ("Reassign", "Reschedule", "Cancel visit", "Confirm"):
        expect(dialog.get_by_role("button", name=action, exact=True)).to_have_count(0)
    assert page_errors(page) == []


def test_a_patient_is_kept_out(site: LiveServer, page: Page) -> None:
    from tests.e2e.accessibility import DEMO_PASSWORD
    from tests.e2e.helpers import sign_in

    sign_in(page, site, "patient@demo.medivisit.test", DEMO_PASSWORD)
    page.goto(site.url("/staff/appointments"))
    expect(page).not_to_have_url(re.compile(r"/staff/appointments"))


@pytest.mark.parametrize(
    ("role", "path", "name"),
    [
        ("management", WEEK, "staff-appointments-week"),
        ("owner", f"/staff/appointments?date={AHEAD}&view=day", "staff-appointments-day"),
        ("management", WEEK, "staff-appointments-dialog"),
        ("support", WEEK, "staff-appointments-support"),
    ],
)
def test_axe_and_screenshots(site: LiveServer, page: Page, role: str, path: str, name: str) -> None:
    staff_sign_in(page, site, role, path)
    loaded(page)
    if (
        name == "staff-appointments-day"
    ):  # the owner picks the first provider of the day: their schedule shows
        provider = page.locator(".visit-row .staff-row-meta").first.inner_text().split(" with ")[-1]
        search = page.get_by_role("search", name="Choose the visits shown")
        search.get_by_label("Provider").select_option(label=provider)
        search.get_by_role("button", name="Show visits").click()
        expect(page.get_by_role("heading", name=f"{provider}'s schedule")).to_be_visible()
        loaded(page)
    if name == "staff-appointments-dialog":
        first_details(page, "confirmed")
    problems = check_every_look(page, name)
    for viewport, scheme in screenshot_looks(page, LOOKS):
        page.evaluate("window.scrollTo(0, 0)")
        size = "mobile" if viewport == MOBILE else "desktop"
        screenshot(page, f"{name}-{size}-{scheme}", animations="disabled")
    set_look(page, MOBILE, "light")
    screenshot(page, f"{name}-mobile-full", full_page=True, animations="disabled")
    if name != "staff-appointments-dialog":  # the agenda on a phone, where the rows start
        page.locator(".visit-day-title").first.evaluate("el => el.scrollIntoView()")
        screenshot(page, f"{name}-mobile-rows", animations="disabled")
    set_look(page, DESKTOP, "light")
    screenshot(page, f"{name}-full", full_page=True, animations="disabled")
    assert problems == [], "\n".join(problems)
    assert page_errors(page) == []
