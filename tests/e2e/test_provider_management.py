"""Provider Management and Provider Onboarding in Chromium against a demo-seeded server (issue 13, staff
side): a management user searches for Priya Shah, opens her page, suspends her with a reason — she leaves
/find-provider — and reinstates her; the owner reads the decisions in the audit, which management (without
view_provider_logs) does not see; HR reads the onboarding board and an applicant's timeline. axe-core finds
nothing on either screen in any look; screenshots at 1280×800 and 375×812, light and dark, go to
tests/artifacts/.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from app.db import Database
from models.enrollment import ApplicationEvent, ApplicationStatus, EventKind, ProviderApplication
from models.identity import User
from models.provider import ProviderType
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import (
    DESKTOP,
    LOOKS,
    MOBILE,
    check_every_look,
    loaded,
    screenshot_looks,
    set_look,
)
from tests.e2e.conftest import open_page, page_errors, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import sidebar_links, staff_sign_in
from tests.factories import present

FIND = "/find-provider?zip=10011"
# (patient e-mail's local part, status, days in status, step)
APPLICANTS = (
    ("maria.gonzalez", ApplicationStatus.draft, 5, 2),
    ("james.carter", ApplicationStatus.draft, 1, 1),
    ("aisha.mohammed", ApplicationStatus.submitted, 2, 5),
    ("wei.zhang", ApplicationStatus.needs_information, 4, 5),
    ("fatima.ali", ApplicationStatus.rejected, 9, 5),
)


def add_applications(database_url: str) -> None:
    """A few applications from demo patients, and Priya Shah's approved one, written to the demo database."""

    async def write() -> None:
        database = Database(database_url)
        now = datetime.now(UTC)
        try:
            async with database.unit_of_work() as session:
                users = {
                    present(u.email).split("@")[0]: u
                    for u in (
                        await session.scalars(
                            select(User).where(User.email.like("%@patients.demo.medivisit.test"))
                        )
                    ).all()
                }
                for local, status, days, step in APPLICANTS:
                    user = users[local]
                    first, last = (part.capitalize() for part in local.split("."))
                    at = now - timedelta(days=days)
                    row = ProviderApplication(
                        user_id=user.id,
                        status=status,
                        step=step,
                        first_name=first,
                        last_name=last,
                        provider_type=ProviderType.nurse,
                        created_at=at - timedelta(days=3),
                        updated_at=at,
                        status_changed_at=at,
                    )
                    session.add(row)
                    await session.flush()
                    session.add(
                        ApplicationEvent(
                            application_id=row.id,
                            kind=EventKind.created,
                            actor_id=user.id,
                            at=at - timedelta(days=3),
                        )
                    )
                    if status != ApplicationStatus.draft:
                        session.add(
                            ApplicationEvent(
                                application_id=row.id, kind=EventKind.submitted, actor_id=user.id, at=at
                            )
                        )
        finally:
            await database.dispose()

    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's sync API already runs an event loop here
        pool.submit(asyncio.run, write()).result()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    server, database_url = start_demo_server(tmp_path_factory.mktemp("providers"))
    add_applications(database_url)
    yield server
    stop_server(server)


def priya_listed(page: Page, server: LiveServer) -> Locator:
    open_page(page, server.url(FIND))
    return page.locator(".provider-card").filter(has_text="Priya Shah")


def test_management_suspends_and_reinstates_a_provider(site: LiveServer, page: Page, browser) -> None:  # noqa: ANN001
    visitor = browser.new_context(viewport=DESKTOP, service_workers="block").new_page()
    expect(priya_listed(visitor, site)).to_have_count(1)

    staff_sign_in(page, site, "management", "/staff")
    sidebar_links(page).filter(has_text="Provider Management").click()
    expect(page.get_by_role("heading", name="Provider Management")).to_be_visible()
    search = page.get_by_role("search", name="Find providers")
    search.get_by_label("Name").fill("priya")
    search.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/staff/providers\?q=priya$"))
    table = page.get_by_role("table", name="Providers")
    expect(table.get_by_role("row")).to_have_count(2)  # the header and Priya
    table.get_by_role("link", name="Priya Shah").click()

    expect(page.get_by_role("heading", name="Priya Shah")).to_be_visible()
    expect(page.get_by_role("table", name="Licences")).to_contain_text("NY")
    expect(page.get_by_role("heading", name="Decisions (audit)")).to_have_count(0)  # no view_provider_logs
    page.get_by_role("button", name="Suspend provider").click()
    dialog = page.get_by_role("dialog", name="Suspend Priya Shah")
    dialog.get_by_role("button", name="Suspend").click()  # no reason: refused
    expect(dialog).to_be_visible()
    dialog.get_by_label("Reason (kept in the audit log)").fill("Patient complaint under review")
    dialog.get_by_role("button", name="Suspend").click()
    expect(toasts(page).filter(has_text="Provider suspended")).to_be_visible()
    expect(page.get_by_role("region", name="Standing")).to_contain_text("Patient complaint under review")
    expect(priya_listed(visitor, site)).to_have_count(0)

    page.get_by_role("button", name="Reinstate provider").click()
    dialog = page.get_by_role("dialog", name="Reinstate Priya Shah")
    reason = dialog.get_by_label("Reason (kept in the audit log)")
    expect(reason).to_have_value("")  # a new decision, a new reason
    reason.fill("Complaint resolved")
    expect(reason).to_have_value("Complaint resolved")  # typed into the form that is sent
    dialog.get_by_role("button", name="Reinstate").click()
    expect(toasts(page).filter(has_text="Provider reinstated")).to_be_visible()
    expect(page.get_by_role("region", name="Standing")).to_contain_text("In good standing")
    expect(priya_listed(visitor, site)).to_have_count(1)
    visitor.context.close()

    owner = browser.new_context(viewport=DESKTOP, service_workers="block").new_page()
    staff_sign_in(owner, site, "owner", "/staff/providers?q=priya")
    owner.get_by_role("table", name="Providers").get_by_role("link", name="Priya Shah").click()
    decisions = owner.get_by_role("table", name="Decisions about this provider")
    expect(decisions.get_by_role("row").filter(has_text="Complaint resolved")).to_contain_text("Reinstated")
    expect(decisions.get_by_role("row").filter(has_text="Patient complaint")).to_contain_text(
        "management@demo"
    )
    owner.context.close()
    assert page_errors(page) == []


def test_hr_reads_the_onboarding_board_and_a_timeline(site: LiveServer, page: Page) -> None:
    staff_sign_in(page, site, "hr", "/staff")
    sidebar_links(page).filter(has_text="Provider Onboarding").click()
    expect(page.get_by_role("heading", name="Provider Onboarding")).to_be_visible()
    expect(page.get_by_role("article", name="Draft")).to_contain_text("2")
    drafts = page.get_by_role("region", name="Draft", exact=True)
    expect(drafts.get_by_role("listitem").first).to_contain_text("In status for 5 days")
    drafts.get_by_role("link", name="Maria Gonzalez").click()
    timeline = page.get_by_role("region", name="Timeline of Maria Gonzalez")
    expect(timeline).to_contain_text("Started the application")
    expect(timeline).to_contain_text("Applicant")
    assert page_errors(page) == []


def test_support_is_sent_away_from_both_screens(site: LiveServer, page: Page) -> None:
    staff_sign_in(page, site, "support", "/staff")
    for path in ("/staff/providers", "/staff/onboarding"):
        open_page(page, site.url(path))
        expect(page).to_have_url(site.url("/staff"))
        expect(toasts(page).filter(has_text="Access Denied").first).to_be_visible()


@pytest.mark.parametrize(
    ("role", "path", "name"),
    [
        ("management", "/staff/providers", "staff-providers"),
        ("owner", "/staff/providers?q=priya", "staff-provider"),
        ("hr", "/staff/onboarding", "staff-onboarding"),
    ],
)
def test_axe_and_screenshots(site: LiveServer, page: Page, role: str, path: str, name: str) -> None:
    staff_sign_in(page, site, role, path)
    if name == "staff-provider":
        page.get_by_role("table", name="Providers").get_by_role("link", name="Priya Shah").click()
        expect(page.get_by_role("heading", name="Decisions (audit)")).to_be_visible()
    elif name == "staff-onboarding":
        page.get_by_role("link", name="Wei Zhang").click()
        expect(page.get_by_role("region", name="Timeline of Wei Zhang")).to_be_visible()
    loaded(page)
    problems = check_every_look(page, path)
    for viewport, scheme in screenshot_looks(page, LOOKS):
        page.evaluate("window.scrollTo(0, 0)")
        size = "mobile" if viewport == MOBILE else "desktop"
        screenshot(page, f"{name}-{size}-{scheme}", animations="disabled")  # the viewport: 1280×800, 375×812
    set_look(page, DESKTOP, "light")
    screenshot(page, f"{name}-full", full_page=True, animations="disabled")
    assert problems == [], "\n".join(problems)
    assert page_errors(page) == []
