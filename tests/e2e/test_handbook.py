"""The staff handbook in Chromium (/staff/documentation, issue 15 item 5) on a demo server: a support agent
reads the seeded articles by topic, searches them and opens one (no way to edit); the owner writes a new
article with a preview, edits it and deletes it. axe in light and dark at 1280 and 375 px; screenshots in
tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("handbook"))
    yield server
    stop_server(server)


def looks(page, name: str) -> list[str]:  # noqa: ANN001 - Page
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, scheme in NAMED_LOOKS:
        set_look(page, WIDTHS[width], scheme)
        screenshot(page, f"{name}-{width}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def test_support_reads_and_searches_the_handbook(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    staff_sign_in(page, demo, "support", "/staff/documentation")
    expect(page.get_by_role("heading", name="Documentation", level=1)).to_be_visible()
    expect(
        page.get_by_role("region", name="Help Desk").get_by_role("link", name="Working the help desk")
    ).to_be_visible()
    expect(page.get_by_role("button", name="New article")).to_have_count(0)
    loaded(page)
    problems += looks(page, "handbook")

    page.get_by_label("Search the handbook").fill("second approver")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/staff/documentation\?q=second\+approver$"))
    expect(page.get_by_role("status").filter(has_text="1 article mentions")).to_be_visible()
    page.get_by_role("link", name="Revenue reports and provider payouts").click()
    expect(page).to_have_url(re.compile(r"/staff/documentation/revenue-and-payouts$"))
    article = page.get_by_role("article", name="Revenue reports and provider payouts")
    expect(article.get_by_role("heading", name="Payouts", level=2)).to_be_visible()
    expect(article).to_contain_text("needs a second approver")
    expect(page.get_by_role("button", name="Edit")).to_have_count(0)
    loaded(page)
    problems += looks(page, "handbook-article")
    page.close()
    assert not problems, "\n".join(problems)


def test_the_owner_writes_previews_edits_and_deletes_an_article(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    staff_sign_in(page, demo, "owner", "/staff/documentation")
    opener = page.get_by_role("button", name="New article")
    opener.click()
    dialog = page.get_by_role("dialog", name="New article")
    dialog.get_by_label("Title").fill("Weekend on-call")
    dialog.get_by_label("Topic").fill("Getting started")
    dialog.get_by_label("Summary").fill("Who answers urgent tickets on Saturdays and Sundays.")
    dialog.get_by_label("Text (Markdown)").fill(
        "## Rota\n\n- **Saturday**: support\n- **Sunday**: management"
    )
    dialog.get_by_role("tab", name="Preview").click()
    expect(dialog.get_by_role("heading", name="Rota", level=2)).to_be_visible()
    expect(dialog.locator("strong", has_text="Saturday")).to_be_visible()
    loaded(page)
    problems += looks(page, "handbook-editor")
    dialog.get_by_role("tab", name="Write").click()
    expect(dialog.get_by_label("Text (Markdown)")).to_have_value(re.compile(r"^## Rota"))  # kept
    dialog.get_by_role("button", name="Save article").click()

    expect(page).to_have_url(re.compile(r"/staff/documentation/weekend-on-call$"))
    expect(toasts(page, "Article saved")).to_be_visible()
    expect(page.get_by_role("heading", name="Weekend on-call", level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"Getting started · Updated .* by Olivia Bennett"))).to_be_visible()

    page.get_by_role("button", name="Edit").click()
    editor = page.get_by_role("dialog", name="Edit article")
    editor.get_by_label("Title").fill("")
    editor.get_by_role("button", name="Save article").click()
    expect(editor.get_by_role("alert")).to_have_text("Give the article a title.")
    expect(editor.get_by_label("Summary")).to_have_value(
        "Who answers urgent tickets on Saturdays and Sundays."
    )
    editor.get_by_label("Title").fill("Weekend on-call rota")
    editor.get_by_role("button", name="Save article").click()
    expect(editor).to_be_hidden()
    expect(page.get_by_role("heading", name="Weekend on-call rota", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Edit")).to_be_focused()  # focus back on the opener

    page.get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete this article?").get_by_role(
        "button", name="Delete article"
    ).click()
    expect(page).to_have_url(re.compile(r"/staff/documentation$"))
    expect(toasts(page, "Article deleted")).to_be_visible()
    expect(page.get_by_role("link", name="Weekend on-call rota")).to_have_count(0)
    page.close()
    assert not problems, "\n".join(problems)
