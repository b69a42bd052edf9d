"""The AI assistant in the browser (issue 16 part 3): a visitor asks how to prepare for a blood draw and gets
the catalog's fasting instructions with a link; 'crushing chest pain' gets the 911 message and no booking
offer afterwards; the focus stays in the question field. A signed-in patient's conversation survives a
reload, is listed in /dashboard/ai-features and deleted there; a support agent drafts a ticket reply with
'Request AI analysis'. axe-core runs once per screen built here; screenshots (desktop and phone, light and
dark) go to tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, PUBLIC_LOOKS, check_every_look, screenshot_looks, set_look
from tests.e2e.conftest import DESKTOP, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("assistant"))
    yield server
    stop_server(server)


def ask(page: Page, question: str) -> None:
    field = page.get_by_label("Your question")
    field.fill(question)
    field.press("Enter")
    expect(page.get_by_role("log").get_by_text(question, exact=True)).to_be_visible()
    expect(page.locator(".chat-writing")).to_have_count(0)


def test_a_visitor_gets_grounded_answers_and_the_911_message(page: Page, demo: LiveServer) -> None:
    open_page(page, demo.url("/ai-assistant"))
    log = page.get_by_role("log", name="Conversation with the assistant")
    ask(page, "How do I prepare for a blood draw at home?")
    expect(log.get_by_text(re.compile("plain water for 8–12 hours")).first).to_be_visible()
    expect(log.get_by_role("link", name="Routine blood draw")).to_have_attribute(
        "href", "/services/routine-blood-draw"
    )
    expect(page.get_by_label("Your question")).to_be_focused()
    problems = check_every_look(page, "/ai-assistant")
    for viewport, scheme in screenshot_looks(page):
        page.locator(".chat").scroll_into_view_if_needed()
        screenshot(page, f"assistant-chat-{'desktop' if viewport is DESKTOP else 'mobile'}-{scheme}")
    set_look(page, DESKTOP, "light")

    ask(page, "I have crushing chest pain")
    urgent = log.locator(".chat-emergency")
    expect(urgent.get_by_text(re.compile("Call 911 now"))).to_be_visible()
    expect(urgent.get_by_role("link", name="Call 911")).to_have_attribute("href", "tel:911")
    screenshot(page, "assistant-emergency-desktop-light")
    ask(page, "Book a blood draw in 10001")
    expect(log.get_by_role("link", name=re.compile("^Book"))).to_have_count(0)  # no booking after a red flag
    assert problems == [], "\n".join(problems)


def test_a_patient_keeps_deletes_and_continues_conversations(page: Page, demo: LiveServer) -> None:
    sign_in(page, demo, "patient@demo.medivisit.test", DEMO_PASSWORD)
    open_page(page, demo.url("/ai-assistant"))
    ask(page, "How do refunds work?")
    log = page.get_by_role("log")
    expect(log.get_by_role("link", name="Refunds and wallet credit")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/ai-assistant\?conversation="))  # a reload brings it back
    expect(page.get_by_label("Your question")).to_be_focused()
    page.reload()
    expect(log.get_by_role("link", name="Refunds and wallet credit")).to_be_visible()
    ask(page, "What is the capital of France?")
    expect(log.get_by_text(re.compile("I couldn't find that in our help center or services"))).to_be_visible()
    expect(log.get_by_role("link", name="Contact support")).to_have_attribute(
        "href", "/dashboard/support?new=1"
    )

    open_page(page, demo.url("/dashboard/ai-features"))
    conversation = page.get_by_role("link", name="How do refunds work?")
    expect(conversation).to_be_visible()
    expect(page.get_by_text(re.compile("4 messages"))).to_be_visible()
    problems = check_every_look(page, "/dashboard/ai-features")
    for viewport, scheme in screenshot_looks(page, PUBLIC_LOOKS):
        screenshot(
            page,
            f"assistant-ai-features-{'desktop' if viewport is DESKTOP else 'mobile'}-{scheme}",
            full_page=True,
        )
    set_look(page, DESKTOP, "light")

    conversation.click()  # continue it: the stored messages come back
    expect(page.get_by_role("log").get_by_text("How do refunds work?", exact=True)).to_be_visible()
    open_page(page, demo.url("/dashboard/ai-features"))
    page.get_by_role("button", name="Delete the conversation How do refunds work?").click()
    expect(toasts(page, "Conversation deleted")).to_be_visible()
    expect(page.get_by_text("No conversations yet")).to_be_visible()
    assert problems == [], "\n".join(problems)


def test_an_agent_drafts_a_ticket_reply_from_the_help_center(page: Page, demo: LiveServer) -> None:
    sign_in(page, demo, "patient@demo.medivisit.test", DEMO_PASSWORD)
    open_page(page, demo.url("/dashboard/support?new=1"))
    page.get_by_label("Category").select_option("payment")
    page.get_by_label("Subject").fill("How do refunds work after I cancel?")
    page.get_by_label("Description").fill("I cancelled my visit yesterday. When do refunds reach my wallet?")
    page.get_by_role("button", name="Send request").click()
    expect(toasts(page, "Your request was sent")).to_be_visible()
    page.context.clear_cookies()

    sign_in(page, demo, "support@demo.medivisit.test", DEMO_PASSWORD)
    open_page(page, demo.url("/staff/helpdesk"))
    page.get_by_role("list", name="Tickets").get_by_role(
        "link", name=re.compile("How do refunds work")
    ).click()
    page.get_by_role("button", name="Request AI analysis").click()
    expect(toasts(page, re.compile("AI draft added"))).to_be_visible()
    expect(page.get_by_label("Message")).to_have_value(re.compile("Refunds and wallet credit"))
    expect(page.get_by_label("Status")).to_have_value("new")  # nothing was sent
    screenshot(page, "assistant-helpdesk-draft-desktop-light")
