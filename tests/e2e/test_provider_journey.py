"""From "I'm a nurse and want to work with you" to "listed and bookable" (issue 13's whole path), in
Chromium against a demo server: a new account applies on a phone, saving half-way and coming back; a
management member (manage_verification) asks for information; the applicant replaces the document and sends
the application again; the same member ticks the checklist and approves; the nurse is then found by
/find-provider for a ZIP code of her area and her profile can be booked. A support member is refused every
credentialing screen. Screenshots: tests/artifacts/journey-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import DESKTOP, MOBILE, open_page, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_enrollment import apply, upload
from tests.e2e.test_staff_portal import staff_sign_in

NAME = "Nia Okafor"
STAFF_SCREENS = ("/staff/verifications", "/staff/documents", "/staff/onboarding", "/staff/providers")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("journey")
    server, _database_url = start_demo_server(tmp, UPLOAD_DIR=str(tmp / "uploads"))
    yield server
    stop_server(server)


def new_page(
    browser: Browser, viewport: ViewportSize, *, has_touch: bool | None = None, is_mobile: bool | None = None
) -> Page:
    context = browser.new_context(
        viewport=viewport, service_workers="block", has_touch=has_touch, is_mobile=is_mobile
    )
    context.set_default_timeout(15_000)
    return context.new_page()


@pytest.mark.timeout(300)
def test_a_nurse_applies_is_sent_back_fixes_it_is_approved_and_can_be_booked(browser: Browser, site) -> None:
    nurse = new_page(browser, MOBILE, has_touch=True, is_mobile=True)
    reviewer = new_page(browser, DESKTOP)
    try:
        apply(nurse, site, name=NAME)
        screenshot(nurse, "journey-1-submitted-375", full_page=True)

        # The reviewer asks for a better scan of the ID.
        staff_sign_in(reviewer, site, "management", "/staff/verifications")
        queue = reviewer.get_by_role("table", name=re.compile("Provider applications"))
        queue.get_by_role("link", name=NAME).click()
        expect(reviewer.get_by_role("heading", name=NAME, level=1)).to_be_visible()
        reviewer.get_by_role("button", name="Request information").click()
        dialog = reviewer.get_by_role("dialog")
        dialog.get_by_label("A document is unreadable").check()
        dialog.get_by_label("Message to the applicant (optional)").fill(
            "The ID scan is blurry: please upload it again."
        )
        dialog.get_by_role("button", name="Send back to the applicant").click()
        expect(toasts(reviewer, "Information requested")).to_be_visible()
        screenshot(reviewer, "journey-2-information-requested-1280")

        # The applicant reads why, replaces the document and sends the application again.
        nurse.reload()
        expect(nurse.get_by_text("Needs information").first).to_be_visible()
        expect(nurse.get_by_text("The ID scan is blurry: please upload it again.")).to_be_visible()
        screenshot(nurse, "journey-3-needs-information-375", full_page=True)
        nurse.get_by_role("navigation", name="Application steps").get_by_role(
            "button", name=re.compile("Documents")
        ).click()
        ids = nurse.locator("#enroll-document-government_id")
        ids.get_by_role("button", name=re.compile("^Remove")).click()
        expect(ids.get_by_text("government_id.png")).to_have_count(0)
        upload(nurse, "government_id", "id-clear-scan.png")
        nurse.get_by_role("button", name="Continue to review").click()
        expect(nurse.get_by_role("heading", name="Review and submit", level=2)).to_be_visible()
        expect(nurse.locator(".enroll-missing li")).to_have_text([])  # nothing missing (else it is printed)
        nurse.get_by_role("button", name="Send my application again").click()
        expect(nurse.get_by_text("Status: Submitted")).to_be_visible()

        # The same reviewer checks every item and approves: the nurse is published.
        reviewer.reload()
        checklist = reviewer.get_by_role("region", name="Checklist")
        boxes = checklist.get_by_role("checkbox")
        expect(boxes).to_have_count(5)  # the licence and the four documents
        for index in range(5):
            box = boxes.nth(index)
            box.check()
            expect(box).to_be_checked()
            expect(box).to_be_enabled()  # stored (the line came back from the server)
        reviewer.get_by_role("button", name="Approve", exact=True).click()
        reviewer.get_by_role("dialog").get_by_role("button", name="Approve and publish").click()
        expect(toasts(reviewer, "Application approved")).to_be_visible()
        screenshot(reviewer, "journey-4-approved-1280")

        # A patient finds her for a ZIP code of her area, and can book her.
        visitor = new_page(browser, DESKTOP)
        open_page(visitor, site.url("/find-provider?zip=10011"))
        card = visitor.get_by_role("article").filter(has_text=NAME)
        expect(card).to_be_visible()
        card.get_by_role("link", name=re.compile(NAME)).first.click()
        expect(visitor.get_by_role("heading", name=re.compile(NAME)).first).to_be_visible()
        expect(visitor.get_by_role("button", name=re.compile("Add to cart|Book")).first).to_be_visible()
        screenshot(visitor, "journey-5-profile-1280")
        visitor.context.close()

        # Support works the help desk, not credentialing: every such screen is refused.
        support = new_page(browser, DESKTOP)
        staff_sign_in(support, site, "support")
        for path in STAFF_SCREENS:
            open_page(support, site.url(path))
            expect(toasts(support, "Access Denied").first).to_be_visible()
            expect(support).to_have_url(site.url("/staff"))
        support.context.close()
    finally:
        nurse.context.close()
        reviewer.context.close()
