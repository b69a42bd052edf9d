"""The staff portal in Chromium against a demo-seeded server (SPEC §2 Staff portal and Staff Dashboard, §6):
each role's sidebar, collapsing it (kept in localStorage across a reload), the phone drawer, the team's
add / update / remove toasts, the task list, Join and Confirm on today's visits with the audit entry they
leave, and a support member refused Staff Management. Screenshots of the dashboard and the team page at
1280×800 and 375×812 go to tests/artifacts/.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.db import Database
from app.services.accounts import demo_email
from models.account import Role
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service, ServiceLocation
from models.identity import User
from models.provider import Provider
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import open_page, page_errors, screenshot
from tests.e2e.helpers import sign_in, toasts

DEMO_PASSWORD = "Demo-MediVisit-1"
MENUS = {
    "owner": [
        "Dashboard",
        "Notifications",
        "Analytics",
        "Provider Management",
        "Verification Requests",
        "Revenue Reports",
        "Invoices",
        "Advertisement Management",
        "Help Desk",
        "Staff Management",
        "Careers",
        "Provider Onboarding",
        "Content Moderation",
        "Document Approvals",
        "Appointments",
        "Products",
        "Store Orders",
        "Corporate Leads",
        "Contracts",
        "Organizations",
        "Documentation",
        "Help Center",
        "Settings",
        "Audit Log",
    ],
    "management": [
        "Dashboard",
        "Notifications",
        "Analytics",
        "Provider Management",
        "Verification Requests",
        "Revenue Reports",
        "Advertisement Management",
        "Help Desk",
        "Appointments",
        "Documentation",
        "Settings",
    ],
    "hr": [
        "Dashboard",
        "Notifications",
        "Analytics",
        "Help Desk",
        "Staff Management",
        "Careers",
        "Provider Onboarding",
        "Content Moderation",
        "Document Approvals",
        "Appointments",
        "Documentation",
        "Help Center",
        "Settings",
    ],
    "support": ["Dashboard", "Notifications", "Help Desk", "Appointments", "Documentation", "Settings"],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    """A live server on a database seeded with `seed --demo`; also its database URL."""
    server, database_url = start_demo_server(tmp_path_factory.mktemp("staff"))
    yield server, database_url
    stop_server(server)


@pytest.fixture
def server(site) -> LiveServer:
    return site[0]


def staff_sign_in(page: Page, server: LiveServer, role: str, path: str = "/staff") -> None:
    sign_in(page, server, demo_email(Role(role)), DEMO_PASSWORD)
    expect(page).to_have_url(re.compile(r"/(staff|admin)$"))
    open_page(page, server.url(path))
    page.locator(".staff-layout").wait_for()


def sidebar_links(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("navigation", name="Staff sections").get_by_role("link")


def toggle(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("button", name="Toggle staff menu")


def sidebar_width(page: Page) -> float:
    return page.locator("#staff-sidebar").evaluate("el => el.getBoundingClientRect().width")


# ---- the sidebar ------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", list(MENUS))
def test_each_role_sees_the_sections_it_may_use(server, page: Page, role: str) -> None:
    staff_sign_in(page, server, role)
    expect(page.get_by_role("heading", name="Staff Dashboard")).to_be_visible()
    expect(sidebar_links(page)).to_have_text(MENUS[role])
    expect(sidebar_links(page).filter(has_text="Dashboard")).to_have_attribute("aria-current", "page")
    assert page_errors(page) == []


def test_collapsing_the_sidebar_is_kept_across_a_reload(server, page: Page) -> None:
    staff_sign_in(page, server, "support")
    assert sidebar_width(page) == 256  # 16rem
    expect(toggle(page)).to_have_attribute("aria-expanded", "true")

    toggle(page).click()

    expect(toggle(page)).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#staff-sidebar")).to_have_css("width", "48px")  # the 3rem icon rail
    assert page.evaluate("localStorage.getItem('staff-sidebar-open')") == "false"
    assert sidebar_links(page).first.locator(".staff-nav-label").evaluate("el => el.offsetWidth") <= 1
    page.reload()
    page.locator(".staff-layout").wait_for()
    expect(toggle(page)).to_have_attribute("aria-expanded", "false")
    assert sidebar_width(page) == 48
    page.keyboard.press("Control+b")
    expect(toggle(page)).to_have_attribute("aria-expanded", "true")
    assert page.evaluate("localStorage.getItem('staff-sidebar-open')") == "true"


def test_on_a_phone_the_sidebar_is_a_drawer(server, mobile_page: Page) -> None:
    page = mobile_page
    staff_sign_in(page, server, "hr")
    expect(page.get_by_role("heading", name="Staff Dashboard")).to_be_visible()
    expect(page.locator("#staff-sidebar")).to_be_hidden()
    screenshot(page, "staff-dashboard-mobile", full_page=True, animations="disabled")

    toggle(page).click()

    expect(page.locator("#staff-sidebar")).to_be_visible()
    expect(toggle(page)).to_have_attribute("aria-expanded", "true")
    screenshot(page, "staff-drawer-mobile", animations="disabled")
    sidebar_links(page).filter(has_text="Staff Management").click()
    expect(page).to_have_url(server.url("/staff/team"))
    expect(page.locator("#staff-sidebar")).to_be_hidden()
    expect(page.get_by_role("heading", name="Staff Management")).to_be_visible()
    expect(page.get_by_text("support@demo.medivisit.test")).to_be_visible()
    screenshot(page, "staff-team-mobile", full_page=True, animations="disabled")


# ---- staff management ---------------------------------------------------------------------------------


def test_hr_adds_updates_and_removes_a_staff_member(server, page: Page) -> None:
    staff_sign_in(page, server, "hr", "/staff/team")
    email = f"casey-{uuid.uuid4().hex[:6]}@example.test"

    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Name (for an invitation)").fill("Casey Park")
    page.get_by_role("button", name="Add staff").click()

    expect(toasts(page, "Staff Added")).to_be_visible()
    row = page.get_by_role("row").filter(has_text=email)
    expect(row).to_contain_text("Casey Park")
    expect(row).to_contain_text("Support")

    row.get_by_role("button", name="Edit Casey Park").click()
    dialog = page.get_by_role("dialog", name="Edit Casey Park")
    # HR only hands out what it holds: not the management role (whose permissions it lacks).
    role = dialog.get_by_label("Role", exact=True)
    expect(role.locator("option")).to_have_text(["HR", "Support"])
    dialog.get_by_label("Approve documents").check()
    expect(dialog.get_by_label("View appointments (role)")).to_be_disabled()
    dialog.get_by_role("button", name="Save changes").click()

    expect(toasts(page, "Staff Updated")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(row).to_contain_text("Support")
    expect(row).to_contain_text("3 (1 extra)")

    row.get_by_role("button", name="Remove Casey Park").click()
    page.get_by_role("dialog", name="Remove Casey Park?").get_by_role(
        "button", name="Remove", exact=True
    ).click()

    expect(toasts(page, "Staff Removed")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=email)).to_have_count(0)
    me = page.get_by_role("row").filter(has_text="hr@demo.medivisit.test")
    expect(me).to_contain_text("Your access")
    expect(me.get_by_role("button")).to_have_count(0)
    # Management holds permissions HR lacks: HR cannot demote, deactivate or remove them (issue 27).
    manager = page.get_by_role("row").filter(has_text="management@demo.medivisit.test")
    expect(manager).to_contain_text("Owner only")
    expect(manager.get_by_role("button")).to_have_count(0)
    assert page_errors(page) == []


def test_support_cannot_open_sections_without_their_permission(server, page: Page) -> None:
    staff_sign_in(page, server, "support")
    expect(sidebar_links(page).filter(has_text="Staff Management")).to_have_count(0)

    open_page(page, server.url("/staff/team"))

    expect(toasts(page, "Access Denied")).to_contain_text(
        "You don't have permission to access Staff Management."
    )
    expect(page).to_have_url(server.url("/staff"))
    expect(page.get_by_role("heading", name="Staff Dashboard")).to_be_visible()
    # A staff path with no screen: coming soon, named after the path; a section without the permission: refused.
    open_page(page, server.url("/staff/shift-swaps"))
    expect(page.get_by_role("heading", name="Staff Portal Feature Coming Soon")).to_be_visible()
    expect(page.get_by_text("Shift Swaps is under development.")).to_be_visible()
    open_page(page, server.url("/staff/revenue"))
    expect(toasts(page, "You don't have permission to access Revenue Reports.")).to_be_visible()
    expect(page).to_have_url(server.url("/staff"))


# ---- the dashboard ------------------------------------------------------------------------------------


def test_tasks_are_added_ticked_off_edited_and_deleted(server, page: Page) -> None:
    staff_sign_in(page, server, "support")
    tasks = page.get_by_role("region", name="Tasks")
    expect(tasks.get_by_text("No pending tasks")).to_be_visible()

    tasks.get_by_label("New task").fill("Call the lab about kit 42")
    tasks.get_by_label("Priority").select_option("high")
    tasks.get_by_role("button", name="Add").click()

    expect(toasts(page, "Task added")).to_be_visible()
    box = tasks.get_by_role("checkbox", name="Call the lab about kit 42")
    expect(tasks.get_by_role("listitem").filter(has_text="kit 42")).to_contain_text("high")
    box.check()
    expect(toasts(page, "Task completed")).to_be_visible()
    expect(tasks.get_by_text("No pending tasks")).to_be_visible()
    expect(page.get_by_role("article", name="Completed Tasks")).to_contain_text("1")

    tasks.get_by_role("button", name="View All Tasks").click()
    expect(box).to_be_checked()
    label = tasks.get_by_text("Call the lab about kit 42")
    assert "line-through" in label.evaluate("el => getComputedStyle(el).textDecorationLine")
    box.uncheck()
    expect(toasts(page, "Task reopened")).to_be_visible()

    tasks.get_by_role("button", name="Edit task: Call the lab about kit 42").click()
    tasks.get_by_label("Task", exact=True).fill("Call the lab about kit 43")
    tasks.get_by_role("form", name="Edit task").get_by_label("Priority").select_option("low")
    tasks.get_by_role("button", name="Save").click()
    expect(toasts(page, "Task updated")).to_be_visible()
    expect(tasks.get_by_role("listitem").filter(has_text="kit 43")).to_contain_text("low")
    tasks.get_by_role("button", name="Delete task: Call the lab about kit 43").click()
    expect(toasts(page, "Task deleted")).to_be_visible()
    expect(tasks.get_by_text("No tasks yet")).to_be_visible()
    assert page_errors(page) == []


def add_visits_today(database_url: str, time_zone: str) -> None:
    """A confirmed and a pending visit of the demo patient with the demo provider, today in `time_zone`."""

    async def write() -> None:
        database = Database(database_url)
        try:
            async with database.unit_of_work() as session:
                patient = await session.scalar(select(User.id).where(User.email == demo_email(Role.patient)))
                provider = await session.scalar(select(Provider.id).where(Provider.first_name == "Priya"))
                service = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
                today = datetime.now(ZoneInfo(time_zone)).date()
                for hour, status in ((10, AppointmentStatus.confirmed), (14, AppointmentStatus.pending)):
                    start = datetime.combine(today, time(hour), ZoneInfo(time_zone)).astimezone(UTC)
                    session.add(
                        Appointment(
                            patient_id=patient,
                            provider_id=provider,
                            service_id=service,
                            status=status,
                            starts_at=start,
                            ends_at=start + timedelta(minutes=30),
                            busy_until=start + timedelta(minutes=60),
                            location=ServiceLocation.home,
                            address_line="12 Main St",
                            city="New York",
                            state="NY",
                            zip_code="10001",
                            notes="Gate code 1234",
                            price=Decimal("80"),
                            original_price=Decimal("80"),
                        )
                    )
        finally:
            await database.dispose()

    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's sync API already runs an event loop here
        pool.submit(asyncio.run, write()).result()


def test_join_opens_a_visit_and_confirm_confirms_one(site, page: Page, browser) -> None:  # noqa: ANN001
    server, database_url = site
    add_visits_today(database_url, page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone"))
    staff_sign_in(page, server, "management")
    visits = page.get_by_role("region", name="Today's Appointments")
    expect(visits.get_by_role("listitem")).to_have_count(2)
    expect(visits.get_by_role("listitem").first).to_contain_text("10:00 AM")
    expect(visits.get_by_role("listitem").first).to_contain_text("Jordan Lee")
    expect(visits.get_by_role("listitem").first).to_contain_text("Routine blood draw")

    visits.get_by_role("button", name="Join the visit with Jordan Lee").click()
    dialog = page.get_by_role("dialog", name="Visit details")
    expect(dialog).to_contain_text("Gate code 1234")
    expect(dialog).to_contain_text("Priya Shah")
    screenshot(page, "staff-visit-details", animations="disabled")
    dialog.get_by_role("button", name="Close").first.click()
    expect(dialog).to_be_hidden()

    visits.get_by_role("button", name="Confirm the visit with Jordan Lee").click()
    expect(toasts(page, "Appointment confirmed")).to_be_visible()
    expect(visits.get_by_role("button", name="Join the visit with Jordan Lee")).to_have_count(2)
    expect(page.get_by_role("article", name="Today's Appointments")).to_contain_text("2")

    # The owner finds the look at the patient's records in the audit log.
    owner = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block").new_page()
    staff_sign_in(owner, server, "owner", "/staff/audit?action=patient_records_view")
    row = owner.get_by_role("row").filter(has_text="management@demo.medivisit.test")
    expect(row).to_contain_text("Patient records view")
    expect(row).to_contain_text("Jordan Lee")
    owner.context.close()


def test_screenshots_of_the_dashboard_and_the_team_page(server, page: Page) -> None:
    staff_sign_in(page, server, "owner")
    expect(page.get_by_role("article", name="Activity Rate")).to_be_visible()
    screenshot(page, "staff-dashboard", full_page=True, animations="disabled")
    sidebar_links(page).filter(has_text="Staff Management").click()
    expect(page.get_by_role("cell", name="hr@demo.medivisit.test")).to_be_visible()
    screenshot(page, "staff-team", full_page=True, animations="disabled")
    page.get_by_role("button", name="Edit Harper Quinn").click()
    expect(page.get_by_role("dialog", name="Edit Harper Quinn")).to_be_visible()
    screenshot(page, "staff-team-edit", animations="disabled")
    assert page_errors(page) == []


def test_the_owner_filters_the_audit_log(server, page: Page) -> None:
    staff_sign_in(page, server, "owner")
    sidebar_links(page).filter(has_text="Audit Log").click()
    expect(page.get_by_role("heading", name="Audit Log")).to_be_visible()
    entries = page.get_by_role("table", name="Audit entries")
    expect(entries.get_by_role("row").filter(has_text="owner@demo.medivisit.test").first).to_be_visible()
    # Who acted, by name (issue 27), with the e-mail below it.
    expect(entries.locator(".audit-who").filter(has_text="Olivia Bennett").first).to_be_visible()
    screenshot(page, "staff-audit", full_page=True, animations="disabled")

    search = page.get_by_role("search", name="Filter the audit log")
    search.get_by_label("Action").select_option("sign_in")
    search.get_by_label("Actor e-mail").fill("owner@demo")
    search.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"/staff/audit\?action=sign_in&actor=owner%40demo$"))
    expect(search.get_by_label("Action")).to_have_value("sign_in")
    expect(search.get_by_label("Actor e-mail")).to_have_value("owner@demo")
    expect(entries.get_by_role("row").filter(has_text="Sign in").first).to_be_visible()
    expect(entries.get_by_role("row").filter(has_text="hr@demo.medivisit.test")).to_have_count(0)
    page.set_viewport_size({"width": 375, "height": 812})
    screenshot(page, "staff-audit-mobile", full_page=True, animations="disabled")

    search.get_by_role("link", name="Clear").click()
    expect(page).to_have_url(server.url("/staff/audit"))
    expect(search.get_by_label("Action")).to_have_value("")
    expect(search.get_by_label("Actor e-mail")).to_have_value("")
    assert page_errors(page) == []


def test_message_patient_opens_a_new_help_desk_ticket(server, page: Page) -> None:
    staff_sign_in(page, server, "support")
    page.get_by_role("link", name=re.compile("Message Patient")).click()
    expect(page).to_have_url(re.compile(r"/staff/help-desk\?new=1$"))
    expect(page.get_by_role("dialog", name="Submit New Help Request")).to_be_visible()
    assert page_errors(page) == []
