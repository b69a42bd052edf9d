"""Careers in Chromium (issue 17 part 5) on a demo server: HR publishes a job in the staff portal; a
signed-out visitor finds it at /careers, applies with a CV (a file that is not a CV is refused and nothing
typed is lost) and sees the confirmation; HR sees the application, downloads the CV and moves it to
interview. axe in light and dark at 1280 and 375 px on the four screens (and on HR's two dialogs);
screenshots in tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import check_every_look, loaded, screenshot_looks, set_look, violations
from tests.e2e.conftest import DESKTOP, MOBILE, open_page, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in

PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Length 4 >> stream\n\x00\x01\x02\x03\nendstream endobj\n%%EOF\n"
JOB = "Patient Support Specialist"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("careers"))
    yield server
    stop_server(server)


def dialog_problems(page: Page, where: str) -> list[str]:
    """axe on an open dialog once its fade-in (and any other finite animation) has ended."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect?.getComputedTiming().iterations === Infinity)"
    )
    return violations(page, where)


def looks(page: Page, name: str) -> list[str]:
    """axe in the paired looks, and a full-page screenshot in each of the four."""
    loaded(page)
    problems = check_every_look(page, name)
    for viewport, scheme in screenshot_looks(page):
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{'phone' if viewport == MOBILE else 'desktop'}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def test_hr_publishes_a_visitor_applies_and_hr_moves_the_application_to_interview(
    browser: Browser, demo: LiveServer
) -> None:
    problems: list[str] = []
    hr = browser.new_page(viewport=DESKTOP)
    staff_sign_in(hr, demo, "hr", "/staff/careers")
    expect(hr.get_by_role("heading", name="Careers", level=1)).to_be_visible()
    hr.get_by_role("button", name="New job").click()
    dialog = hr.get_by_role("dialog", name="New job")
    dialog.get_by_label("Title").fill(JOB)
    dialog.get_by_label("Team").fill("Patient support")
    dialog.get_by_label("City").fill("New York")
    dialog.get_by_label("State").select_option("NY")
    dialog.get_by_label("Employment type").select_option("full_time")
    dialog.get_by_label("Status").select_option("open")
    dialog.get_by_label("Text (Markdown)").fill(
        "## What you'll do\n\nAnswer patients' questions about **bookings and visits** by chat and phone."
    )
    problems += dialog_problems(hr, "the job editor")
    screenshot(hr, "careers-staff-editor-desktop-light")
    dialog.get_by_role("button", name="Save job").click()
    expect(toasts(hr, "Job saved (open)")).to_be_visible()
    expect(hr.get_by_role("row").filter(has_text=JOB).get_by_text("Open", exact=True)).to_be_visible()
    problems += looks(hr, "careers-staff-postings")

    visitor = browser.new_page(viewport=DESKTOP)
    open_page(visitor, demo.url("/careers"))
    roles = visitor.get_by_role("list", name="Open roles")
    expect(roles.get_by_text("New York, NY")).to_be_visible()
    expect(visitor.locator("a[href^='mailto:']").filter(has_text="Email us")).to_have_count(0)
    problems += looks(visitor, "careers-list")
    roles.get_by_role("link", name=JOB, exact=True).click()
    expect(visitor).to_have_url(re.compile(r"/careers/patient-support-specialist$"))
    expect(visitor.get_by_role("heading", name="What you'll do", level=2)).to_be_visible()
    visitor.get_by_label("Full name").fill("Ada Lovelace")
    visitor.get_by_label("E-mail").fill("ada@example.com")
    visitor.get_by_label("Phone (optional)").fill("(212) 555-0142")
    visitor.get_by_label("Cover note (optional)").fill("I answered patients' calls for five years.")
    cv = visitor.locator("#apply-cv")
    cv.set_input_files(files=[FilePayload(name="cv.pdf", mimeType="application/pdf", buffer=b"MZ not a pdf")])
    expect(toasts(visitor, "Only PDF, Word")).to_be_visible()
    visitor.get_by_role("button", name="Send application").click()
    expect(visitor.get_by_role("alert")).to_have_text("Please upload your CV (PDF, Word or ODT).")
    cv.set_input_files(files=[FilePayload(name="Ada CV.pdf", mimeType="application/pdf", buffer=PDF)])
    expect(visitor.get_by_text("Ada CV.pdf (1 KB)")).to_be_visible()
    expect(visitor.get_by_label("Full name")).to_have_value("Ada Lovelace")  # nothing typed was lost
    problems += looks(visitor, "careers-posting")
    visitor.get_by_role("button", name="Send application").click()
    sent = visitor.get_by_role("status").filter(has_text="Application sent")
    expect(sent).to_contain_text("We've e-mailed a confirmation to ada@example.com")
    visitor.close()

    open_page(hr, demo.url("/staff/careers"))
    row = hr.get_by_role("row").filter(has_text=JOB)
    expect(row.get_by_role("link", name=f"Applications for {JOB}")).to_have_text("1")
    row.get_by_role("link", name=JOB, exact=True).click()
    applicant = hr.get_by_role("row").filter(has_text="Ada Lovelace")
    expect(applicant.get_by_text("New", exact=True)).to_be_visible()
    with hr.expect_download() as download:
        applicant.get_by_role("link", name="Download the CV of Ada Lovelace").click()
    assert download.value.suggested_filename == "Ada CV.pdf"
    problems += looks(hr, "careers-staff-applications")
    applicant.get_by_role("button", name="Review Ada Lovelace").click()
    review = hr.get_by_role("dialog", name="Application from Ada Lovelace")
    expect(review).to_contain_text("+12125550142")
    expect(review).to_contain_text("I answered patients' calls for five years.")
    review.get_by_label("Move to").select_option("interview")
    review.get_by_label("Notes (HR only)").fill("Call on Tuesday.")
    problems += dialog_problems(hr, "the application review")
    screenshot(hr, "careers-staff-review-desktop-light")
    review.get_by_role("button", name="Save").click()
    expect(toasts(hr, "Application: Interview")).to_be_visible()
    expect(applicant.get_by_text("Interview", exact=True)).to_be_visible()
    hr.close()
    assert not problems, "\n".join(problems)
