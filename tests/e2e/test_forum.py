"""The forum and its moderation in Chromium (/forum, /staff/moderation, issue 16) on a demo server: a new
member's first topic waits for review (the author sees it waiting, a visitor does not); a topic saying
"I have crushing chest pain" shows its author the 911 banner and goes to the queue; HR approves the first
in the moderation queue, rejects the second with a reason, and the log shows both; the visitor then reads the
topic with its not-medical-advice notice. A verified provider's reply (approved from the queue) is liked,
flagged, quoted, accepted as the answer, and hidden by a moderator from the topic page.
axe in light and dark on the forum list, a topic and the queue; screenshots at 1280 and 375 px in
tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import check_every_look, loaded, screenshot_looks, set_look, violations
from tests.e2e.conftest import DESKTOP, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_staff_portal import staff_sign_in

DEMO_PASSWORD = "Demo-MediVisit-1"
TITLE = "How long should I fast before a home blood draw?"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("forum"))
    yield server
    stop_server(server)


def looks(page: Page, name: str) -> list[str]:
    """axe in the paired looks, then the four screenshots."""
    problems = check_every_look(page, name)
    for viewport, scheme in screenshot_looks(page):
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{viewport['width']}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def new_page(browser: Browser) -> Page:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(10_000)
    return page


def start_a_topic(
    page: Page, demo: LiveServer, title: str, body: str, problems: list[str] | None = None
) -> None:
    open_page(page, demo.url("/forum/c/lab-work"))
    page.get_by_role("link", name="New topic").click()
    expect(page).to_have_url(re.compile(r"/forum/new\?category=lab-work$"))
    expect(page.get_by_label("Category")).to_have_value("lab-work")
    page.get_by_label("Title").fill(title)
    page.get_by_label("Text (Markdown)").fill(body)
    if problems is not None:
        loaded(page)
        problems += violations(page, "forum-new-topic")
    page.get_by_role("button", name="Post topic").click()


def test_a_new_members_topic_waits_for_review_and_a_red_flag_shows_911(
    browser: Browser, demo: LiveServer
) -> None:
    problems: list[str] = []
    author = new_page(browser)
    sign_in(author, demo, "patient@demo.medivisit.test", DEMO_PASSWORD)
    expect(author).to_have_url(re.compile(r"/dashboard"))
    start_a_topic(author, demo, TITLE, "My provider comes at **8 am**. Is water fine?")
    expect(author.get_by_role("status").filter(has_text="Waiting for review")).to_be_visible()
    author.get_by_role("link", name="View your topic").click()
    expect(author.get_by_role("heading", name=TITLE, level=1)).to_be_visible()
    expect(author.get_by_text("Waiting for review: only you and the moderators")).to_be_visible()

    visitor = new_page(browser)
    open_page(visitor, demo.url("/forum"))
    expect(visitor.get_by_text("No topics here yet")).to_be_visible()

    start_a_topic(author, demo, "Feeling unwell tonight", "I have crushing chest pain", problems)
    banner = author.get_by_role("alert").filter(has_text="Call 911 now")
    expect(banner).to_be_visible()
    expect(banner.get_by_role("link", name="Call 911")).to_have_attribute("href", "tel:911")
    set_look(author, DESKTOP, "dark")
    problems += violations(author, "forum-emergency-banner, dark")
    author.evaluate("window.scrollTo(0, 0)")  # the sticky header stays at the top of a full-page shot
    screenshot(author, "forum-emergency-banner-desktop-dark", full_page=True)
    set_look(author, DESKTOP, "light")

    moderator = new_page(browser)
    staff_sign_in(moderator, demo, "hr", "/staff")
    moderator.get_by_role("navigation", name="Staff sections").get_by_role(
        "link", name="Content Moderation"
    ).click()
    expect(moderator.get_by_role("heading", name="Content Moderation", level=1)).to_be_visible()
    queue = moderator.get_by_role("list", name="Posts to review")
    first = queue.get_by_role("article", name=f"{TITLE} · #1")
    expect(first.get_by_text("New member")).to_be_visible()
    unwell = queue.get_by_role("article", name="Feeling unwell tonight · #1")
    expect(unwell.get_by_text(re.compile("Safety check: chest pain"))).to_be_visible()
    loaded(moderator)
    problems += looks(moderator, "forum-moderation-queue")

    unwell.get_by_role("button", name="Reject: Feeling unwell tonight · #1").click()
    dialog = moderator.get_by_role("dialog", name="Reject this post")
    dialog.get_by_role("button", name="Reject").click()
    expect(dialog.get_by_role("alert")).to_have_text("Say why: the member is told the reason.")
    dialog.get_by_label("Reason").fill(
        "Please call 911 or your clinician: the forum cannot help in an emergency."
    )
    dialog.get_by_role("button", name="Reject").click()
    expect(toasts(moderator, "Reject: done")).to_be_visible()
    first.get_by_role("button", name=f"Approve: {TITLE} · #1").click()
    moderator.get_by_role("dialog", name="Approve this post").get_by_role("button", name="Approve").click()
    expect(moderator.get_by_text("The queue is empty")).to_be_visible()
    moderator.get_by_role("tab", name="Log").click()
    log = moderator.get_by_role("table", name="Moderation log")
    expect(log.get_by_role("row")).to_have_count(3)  # the header and two actions
    expect(log.get_by_role("row").nth(1)).to_contain_text("Approved")
    expect(log.get_by_role("row").nth(2)).to_contain_text("the forum cannot help in an emergency")

    open_page(visitor, demo.url("/forum"))
    visitor.get_by_role("link", name=TITLE).click()
    expect(visitor.get_by_role("heading", name=TITLE, level=1)).to_be_visible()
    expect(visitor.get_by_role("note").filter(has_text="The forum is not medical advice")).to_contain_text(
        "In an emergency, call 911"
    )
    expect(visitor.get_by_role("region", name="Reply").get_by_role("link", name="Sign in")).to_be_visible()
    open_page(visitor, demo.url("/forum"))
    expect(visitor.get_by_role("link", name="Feeling unwell tonight")).to_have_count(0)
    loaded(visitor)
    problems += looks(visitor, "forum-list")
    author.close()
    moderator.close()
    visitor.close()
    assert not problems, "\n".join(problems)


def test_members_reply_quote_like_and_flag(browser: Browser, demo: LiveServer) -> None:
    """The verified provider answers a moderator's topic; the patient likes and flags it, then quotes it."""
    problems: list[str] = []
    owner = new_page(browser)
    staff_sign_in(owner, demo, "owner", "/staff")  # moderators' posts are published at once
    start_a_topic(owner, demo, "What should I have ready for a home IV visit?", "A chair near a window?")
    expect(
        owner.get_by_role("heading", name="What should I have ready for a home IV visit?", level=1)
    ).to_be_visible()
    topic_url = owner.url

    nurse = new_page(browser)
    sign_in(nurse, demo, "provider@demo.medivisit.test", DEMO_PASSWORD)
    expect(nurse).to_have_url(re.compile(r"/dashboard"))
    open_page(nurse, topic_url)
    nurse.get_by_label("Text (Markdown)").fill("A comfortable chair and a **glass of water** help.")
    nurse.get_by_role("button", name="Post reply").click()
    expect(nurse.get_by_role("status").filter(has_text="Waiting for review")).to_be_visible()
    open_page(owner, demo.url("/staff/moderation"))
    queue = owner.get_by_role("list", name="Posts to review")
    queue.get_by_role("button", name=re.compile("^Approve: What should I have ready")).click()
    owner.get_by_role("dialog", name="Approve this post").get_by_role("button", name="Approve").click()
    expect(owner.get_by_text("The queue is empty")).to_be_visible()

    patient = new_page(browser)
    sign_in(patient, demo, "patient@demo.medivisit.test", DEMO_PASSWORD)
    expect(patient).to_have_url(re.compile(r"/dashboard"))
    open_page(patient, topic_url)
    answer = patient.get_by_role("listitem").filter(has_text="glass of water")
    expect(answer.get_by_text("Verified provider")).to_be_visible()
    answer.get_by_role("button", name=re.compile("^Like this post")).click()
    expect(answer.get_by_role("button", name="Unlike this post (1 like)")).to_be_visible()
    answer.get_by_role("button", name="Flag post #2 for the moderators").click()
    dialog = patient.get_by_role("dialog", name="Flag this post")
    dialog.get_by_label("Why are you flagging it?").select_option("off_topic")
    dialog.get_by_role("button", name="Flag post").click()
    expect(toasts(patient, "Thanks for flagging")).to_be_visible()
    expect(answer.get_by_text("You flagged this post.")).to_be_visible()
    answer.get_by_role("button", name="Quote").click()
    expect(patient.get_by_label("Text (Markdown)")).to_have_value(re.compile(r"^> \*\*Priya Shah\*\* wrote:"))
    loaded(patient)
    problems += looks(patient, "forum-topic")

    owner.goto(topic_url)
    owner.get_by_role("button", name="Accept as answer").click()
    expect(
        owner.get_by_role("listitem")
        .filter(has_text="glass of water")
        .get_by_text("Accepted answer", exact=True)
    ).to_be_visible()
    # a moderator hides a post from the topic itself, with a reason its author is told
    owner.get_by_role("button", name="Hide post #2 (moderator)").click()
    hide = owner.get_by_role("dialog", name="Hide this post")
    hide.get_by_label("Reason").fill("Testing the moderators' tools")
    hide.get_by_role("button", name="Hide").click()
    expect(toasts(owner, "Post hidden")).to_be_visible()
    expect(owner.get_by_text("Hidden by the moderators: Testing the moderators' tools")).to_be_visible()
    for page in (owner, nurse, patient):
        page.close()
    assert not problems, "\n".join(problems)
