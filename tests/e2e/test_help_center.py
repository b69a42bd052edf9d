"""The Help Center in Chromium (/help-center, issue 16) on a demo server: a signed-out visitor browses the
seeded topics, searches by a word in an article's body, reads the article and answers 'Was this helpful?';
a search that finds nothing offers 'Contact support', which goes through sign-in and opens the support form
prefilled with that search; HR writes a draft with a preview in the staff portal (the public never sees it),
publishes it and finds it by search. axe in light and dark at 1280 and 375 px; screenshots in
tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import EVERY_NAMED_LOOK, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in

DEMO_PASSWORD = "Demo-MediVisit-1"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("help-center"))
    yield server
    stop_server(server)


def looks(page, name: str) -> list[str]:  # noqa: ANN001 - Page
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, scheme in EVERY_NAMED_LOOK:
        set_look(page, WIDTHS[width], scheme)
        page.evaluate("window.scrollTo(0, 0)")  # the sticky header stays at the top of a full-page shot
        screenshot(page, f"{name}-{width}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def test_a_visitor_browses_searches_reads_and_votes(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    open_page(page, demo.url("/help-center"))
    expect(page.get_by_role("heading", name="How can we help?", level=1)).to_be_visible()
    for topic in ("Booking", "Payments", "Visits", "Accounts", "Providers"):
        expect(page.get_by_role("region", name=topic)).to_be_visible()
    expect(
        page.get_by_role("region", name="Payments").get_by_role("link", name="Refunds and wallet credit")
    ).to_be_visible()
    loaded(page)
    problems += looks(page, "help-center")

    # a word that only appears in an article's body
    page.get_by_label("Search the Help Center").fill("NPI")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/help-center\?q=NPI$"))
    results = page.get_by_role("list", name="Search results")
    expect(results.get_by_role("link", name="Becoming a provider on MediVisit")).to_be_visible()
    expect(results.locator("mark").first).to_have_text(re.compile("NPI", re.I))
    loaded(page)
    problems += looks(page, "help-center-search")

    results.get_by_role("link", name="Becoming a provider on MediVisit").click()
    expect(page).to_have_url(re.compile(r"/help-center/becoming-a-provider$"))
    article = page.get_by_role("article", name="Becoming a provider on MediVisit")
    expect(article.get_by_role("heading", name="Verification", level=2)).to_be_visible()
    feedback = page.get_by_role("region", name="Was this helpful?")
    feedback.get_by_role("button", name="Yes").click()
    expect(feedback.get_by_role("status")).to_have_text(re.compile("you answered “Yes”"))
    expect(page.get_by_text("Editors see")).to_have_count(0)  # counts are for staff
    loaded(page)
    problems += looks(page, "help-center-article")
    page.reload()
    expect(page.get_by_role("region", name="Was this helpful?").get_by_role("status")).to_have_text(
        re.compile("you answered “Yes”")
    )  # one answer per visitor, kept
    page.close()
    assert not problems, "\n".join(problems)


def test_a_failed_search_opens_a_prefilled_ticket_through_sign_in(browser: Browser, demo: LiveServer) -> None:
    page = browser.new_page(viewport=DESKTOP)
    open_page(page, demo.url("/help-center?q=passport+renewal"))
    expect(page.get_by_role("heading", name="No article matches “passport renewal”")).to_be_visible()
    page.get_by_role("link", name="Contact support").click()
    expect(page).to_have_url(re.compile(r"/login\?redirect="))
    page.get_by_label("Email").fill("patient@demo.medivisit.test")
    page.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard/support\?new=1&"))
    expect(page.get_by_label("Subject")).to_have_value("Help with: passport renewal")
    expect(page.get_by_label("Description")).to_have_value(
        re.compile("searched the Help Center for “passport renewal”")
    )
    page.get_by_role("button", name="Send request").click()
    expect(toasts(page, "Your request was sent")).to_be_visible()
    expect(page.get_by_role("heading", name="Help with: passport renewal")).to_be_visible()

    # from an article, signed in: straight to the form, about that article
    open_page(page, demo.url("/help-center/refunds-and-wallet-credit"))
    page.get_by_role("link", name="Contact support").click()
    expect(page.get_by_label("Subject")).to_have_value("Question about “Refunds and wallet credit”")
    expect(page.get_by_label("Category")).to_have_value("payment")
    page.close()


def test_hr_writes_a_draft_then_publishes_it(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    staff_sign_in(page, demo, "hr", "/staff/help-center")
    expect(page.get_by_role("heading", name="Help Center", level=1)).to_be_visible()
    expect(
        page.get_by_role("navigation", name="Staff sections").get_by_role("link", name="Help Center")
    ).to_be_visible()
    expect(page.get_by_role("link", name="Refunds and wallet credit")).to_be_visible()
    loaded(page)
    problems += looks(page, "help-center-staff")

    page.get_by_role("button", name="New article").click()
    dialog = page.get_by_role("dialog", name="New article")
    dialog.get_by_label("Title").fill("Parking for your provider")
    dialog.get_by_label("Category").select_option("visits")
    dialog.get_by_label("Summary").fill("Help your provider arrive on time.")
    dialog.get_by_label("Text (Markdown)").fill(
        "## Before the visit\n\nTell us about **parking**: a provider carrying a phlebotomy kit needs somewhere to stop."
    )
    dialog.get_by_role("tab", name="Preview").click()
    expect(dialog.get_by_role("heading", name="Before the visit", level=2)).to_be_visible()
    loaded(page)
    problems += looks(page, "help-center-editor")
    dialog.get_by_role("tab", name="Write").click()
    dialog.get_by_role("button", name="Save article").click()
    expect(toasts(page, "Article saved as a draft")).to_be_visible()
    row = page.get_by_role("row").filter(has_text="Parking for your provider")
    expect(row.get_by_text("Draft")).to_be_visible()

    visitor = browser.new_page(viewport=DESKTOP)
    open_page(visitor, demo.url("/help-center?q=phlebotomy+kit"))
    expect(visitor.get_by_role("heading", name="No article matches “phlebotomy kit”")).to_be_visible()

    row.get_by_role("button", name="Edit “Parking for your provider”").click()
    editor = page.get_by_role("dialog", name="Edit article")
    expect(editor.get_by_label("Text (Markdown)")).to_have_value(re.compile("^## Before the visit"))
    editor.get_by_label("Published").check()
    editor.get_by_role("button", name="Save article").click()
    expect(toasts(page, "Article published")).to_be_visible()
    expect(row.get_by_text("Published")).to_be_visible()

    open_page(visitor, demo.url("/help-center?q=phlebotomy+kit"))
    visitor.get_by_role("list", name="Search results").get_by_role(
        "link", name="Parking for your provider"
    ).click()
    expect(visitor.get_by_role("article", name="Parking for your provider")).to_contain_text(
        "somewhere to stop"
    )
    visitor.close()
    page.close()
    assert not problems, "\n".join(problems)
