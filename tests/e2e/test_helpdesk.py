"""The help desk in Chromium, live: two agents (the demo support and management accounts) and a patient.

The patient opens a ticket from the Help Center and it appears in both consoles without a reload; the
agents see each other ('<name> is viewing' / 'is replying'); a reply reaches the patient live while an
internal note (and its file) never does; status buttons give the SPEC §8 toasts; tabs and search filter
the list and live in the URL. Screenshots of the console and the customer's screen at 1280×800 and 375×812.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, FilePayload, Page, ViewportSize, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import DESKTOP, MOBILE, open_page, page_errors, screenshot, watch_errors
from tests.e2e.helpers import sign_in, toasts

DEMO_PASSWORD = "Demo-MediVisit-1"
DESK = "/staff/help-desk"


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("helpdesk")
    server, _database_url = start_demo_server(tmp, VAR_DIR=str(tmp))
    yield server
    stop_server(server)


@pytest.fixture
def person(browser: Browser, demo_site: LiveServer) -> Iterator[Callable[..., Page]]:
    """`person(role, viewport=DESKTOP)`: a page in a browser context of its own, signed in as the demo
    account of `role`."""
    contexts = []

    def open_as(role: str, viewport: ViewportSize = DESKTOP) -> Page:
        phone = True if viewport == MOBILE else None
        context = browser.new_context(
            viewport=viewport, service_workers="block", has_touch=phone, is_mobile=phone
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        watch_errors(page)
        sign_in(page, demo_site, f"{role}@demo.medivisit.test", DEMO_PASSWORD)
        expect(page).not_to_have_url(re.compile(r"/login"))
        return page

    yield open_as
    for context in contexts:
        context.close()


def open_desk(page: Page, server: LiveServer, query: str = "") -> None:
    page.goto(server.url(DESK + query))
    expect(page.get_by_role("heading", name="Help Desk", level=1)).to_be_visible()


def ticket_row(page: Page, subject: str):  # noqa: ANN201 - Locator
    return page.get_by_role("list", name="Tickets").get_by_role("link", name=re.compile(re.escape(subject)))


def messages(page: Page):  # noqa: ANN201 - Locator
    return page.get_by_role("list", name="Conversation").get_by_role("listitem")


def test_a_ticket_travels_live_between_the_patient_and_two_agents(person, demo_site: LiveServer) -> None:
    support, management = person("support"), person("management")
    for agent in (support, management):
        open_desk(agent, demo_site)
        expect(agent.get_by_role("heading", name="No ticket selected")).to_be_visible()
        expect(agent.get_by_text("Select a ticket from the list to view details and respond")).to_be_visible()
        expect(agent.get_by_text("Manage customer support tickets and provider inquiries")).to_be_visible()

    # The patient asks for help from the Help Center.
    patient = person("patient")
    patient.goto(demo_site.url("/help-center"))
    patient.get_by_role("link", name="Contact support").click()
    expect(patient).to_have_url(re.compile(r"/dashboard/support\?new=1$"))
    mark = uuid.uuid4().hex[:8]
    subject = f"Charged twice {mark}"
    patient.get_by_label("Category").select_option("billing")
    patient.get_by_label("Subject").fill(subject)
    patient.get_by_label("Description").fill("My card shows two charges of $120 for one IV therapy visit.")
    patient.get_by_label("Attach", exact=True).set_input_files(
        files=[
            FilePayload(name="receipt.txt", mimeType="text/plain", buffer=b"Charge 1: $120\nCharge 2: $120\n")
        ]
    )
    expect(patient.get_by_role("list", name="Files to send")).to_contain_text("receipt.txt")
    patient.get_by_role("button", name="Send request").click()
    expect(toasts(patient, "Your request was sent")).to_be_visible()
    expect(patient.get_by_role("heading", name=subject)).to_be_visible()
    expect(patient).to_have_url(re.compile(r"\?ticket="))

    # It appears in both consoles without a reload.
    for agent in (support, management):
        row = ticket_row(agent, subject)
        expect(row).to_be_visible()
        expect(row).to_contain_text("New")
        expect(row).to_contain_text("Medium")
        expect(row).to_contain_text("Billing")
        expect(row).to_contain_text("two charges of $120")

    # Both agents open it and see each other.
    ticket_row(support, subject).click()
    expect(support.get_by_role("heading", name=subject)).to_be_visible()
    expect(support.get_by_text(re.compile(r"^Ticket #\d+$"))).to_be_visible()
    expect(support.get_by_role("link", name=re.compile("receipt.txt"))).to_be_visible()
    expect(support.get_by_label("Status")).to_have_value("new")
    ticket_row(management, subject).click()
    expect(management.get_by_role("heading", name=subject)).to_be_visible()
    expect(management.get_by_text("Sam Rivera is viewing")).to_be_visible()
    expect(support.get_by_text("Morgan Hayes is viewing")).to_be_visible()

    # Typing shows as replying; the reply reaches the patient live and moves the ticket in progress.
    support.get_by_label("Message").press_sequentially("We are looking", delay=30)
    expect(management.get_by_text("Sam Rivera is replying")).to_be_visible()
    support.get_by_label("Message").fill("We refunded the second charge. It shows within 3 days.")
    support.get_by_role("button", name="Send Reply").click()
    expect(toasts(support, "Reply sent to customer")).to_be_visible()
    expect(support.get_by_label("Status")).to_have_value("in_progress")
    reply = messages(patient).filter(has_text="We refunded the second charge")
    expect(reply).to_be_visible()
    expect(reply).to_contain_text("Support Staff")
    expect(management.get_by_label("Status")).to_have_value("in_progress")

    # An internal note, with a file: the other agent sees it live, the patient never does.
    secret = f"Customer disputed twice before {mark}"
    management.get_by_label("Internal Note").check()
    expect(management.get_by_role("button", name="Add Note")).to_be_visible()
    expect(management.get_by_text("(Only visible to staff)")).to_be_visible()
    management.get_by_label("Attach", exact=True).set_input_files(
        files=[FilePayload(name="history.txt", mimeType="text/plain", buffer=b"Two earlier disputes.")]
    )
    expect(management.get_by_role("list", name="Files to send")).to_contain_text("history.txt")
    management.get_by_label("Message").fill(secret)
    management.get_by_role("button", name="Add Note").click()
    expect(toasts(management, "Internal note added")).to_be_visible()
    note = messages(support).filter(has_text=secret)
    expect(note).to_contain_text("Internal Note")
    note_file = note.get_by_role("link", name=re.compile("history.txt")).get_attribute("href")
    support.evaluate("window.scrollTo(0, 0)")
    support.locator(".ticket-body").evaluate("body => { body.scrollTop = body.scrollHeight; }")
    screenshot(support, "helpdesk-console-desktop")
    assert support.request.get(demo_site.url(note_file)).status == 200

    # Status buttons and their toasts; the patient's screen follows.
    support.get_by_role("button", name="Waiting").click()
    expect(toasts(support, "Ticket status changed to waiting")).to_be_visible()
    expect(patient.locator(".support-detail .ticket-status")).to_have_text("Waiting")
    support.get_by_role("button", name="Resolve").click()
    expect(toasts(support, "Ticket status changed to resolved")).to_be_visible()
    expect(support.get_by_role("button", name="Resolve")).to_be_disabled()
    expect(patient.locator(".support-detail .ticket-status")).to_have_text("Resolved")
    expect(messages(patient)).to_have_count(1)
    assert secret not in patient.content()
    assert patient.request.get(demo_site.url(note_file)).status == 404
    receipt = patient.get_by_role("link", name=re.compile("receipt.txt")).get_attribute("href")
    assert patient.request.get(demo_site.url(receipt)).status == 200
    screenshot(patient, "helpdesk-customer-desktop", full_page=True)

    # Tabs and search, kept in the URL.
    tabs = support.get_by_role("tablist", name="Ticket filters")
    tabs.get_by_role("tab", name="Resolved").click()
    expect(support).to_have_url(re.compile(r"tab=resolved"))
    expect(tabs.get_by_role("tab", name="Resolved")).to_have_attribute("aria-selected", "true")
    expect(ticket_row(support, subject)).to_be_visible()
    tabs.get_by_role("tab", name="Waiting", exact=True).click()
    expect(ticket_row(support, subject)).to_have_count(0)
    tabs.get_by_role("tab", name="All", exact=True).click()
    expect(tabs.get_by_role("tab", name="All", exact=True)).to_have_attribute("aria-selected", "true")
    support.get_by_label("Search tickets").fill(f"CHARGED TWICE {mark.upper()}")
    support.get_by_label("Search tickets").press("Enter")
    expect(support).to_have_url(re.compile(rf"q=CHARGED\+TWICE\+{mark.upper()}"))
    expect(support.get_by_role("list", name="Tickets").get_by_role("listitem")).to_have_count(1)
    support.get_by_label("Search tickets").fill(f"nothing-like-this-{mark}")
    support.get_by_label("Search tickets").press("Enter")
    expect(support.get_by_text("No tickets found")).to_be_visible()
    expect(support.get_by_text("Try changing your search or filters")).to_be_visible()
    support.reload()
    expect(support.get_by_label("Search tickets")).to_have_value(f"nothing-like-this-{mark}")
    for page in (support, management, patient):
        assert page_errors(page) == []


def test_the_console_and_the_support_screen_on_a_phone(person, demo_site: LiveServer) -> None:
    patient = person("patient", MOBILE)
    patient.goto(demo_site.url("/dashboard/support?new=1"))
    subject = f"Nurse arrived late {uuid.uuid4().hex[:6]}"
    patient.get_by_label("Subject").fill(subject)
    patient.get_by_label("Description").fill("The nurse came 40 minutes after the booked time.")
    patient.get_by_role("button", name="Send request").click()
    expect(patient.get_by_role("heading", name=subject)).to_be_visible()
    screenshot(patient, "helpdesk-customer-mobile", full_page=True)

    support = person("support", MOBILE)
    open_desk(support, demo_site)
    expect(ticket_row(support, subject)).to_be_visible()
    screenshot(support, "helpdesk-console-list-mobile", full_page=True)
    ticket_row(support, subject).click()
    expect(support.get_by_role("heading", name=subject)).to_be_visible()
    expect(support.get_by_role("list", name="Tickets")).to_be_hidden()  # one pane at a time
    support.get_by_label("Message").fill("Sorry about that. We credited $20 to your account.")
    support.get_by_role("button", name="Send Reply").click()
    expect(toasts(support, "Reply sent to customer")).to_be_visible()
    expect(messages(patient).filter(has_text="We credited $20")).to_be_visible()
    screenshot(support, "helpdesk-console-ticket-mobile", full_page=True)
    support.get_by_role("link", name="All tickets").click()
    expect(ticket_row(support, subject)).to_be_visible()
    assert page_errors(support) == [] and page_errors(patient) == []


def test_new_ticket_opens_a_ticket_for_a_customer(person, demo_site: LiveServer) -> None:
    support = person("support")
    open_desk(support, demo_site)
    support.get_by_role("button", name="New Ticket").click()
    dialog = support.get_by_role("dialog", name="Submit New Help Request")
    expect(dialog).to_be_visible()
    subject = f"Follow-up call {uuid.uuid4().hex[:6]}"
    dialog.get_by_label("Customer email").fill("patient@demo.medivisit.test")
    dialog.get_by_label("Priority").select_option("high")
    dialog.get_by_label("Subject").fill(subject)
    dialog.get_by_label("Description").fill("Checking how the patient feels after the visit.")
    screenshot(support, "helpdesk-new-ticket-desktop")
    dialog.get_by_role("button", name="Submit Request").click()
    expect(dialog).to_be_hidden()
    expect(support.get_by_role("heading", name=subject)).to_be_visible()
    expect(support.get_by_label("Priority")).to_have_value("high")
    expect(support.get_by_text("Jordan Lee · patient@demo.medivisit.test")).to_be_visible()
    support.get_by_role("button", name="Assign to me").click()
    expect(support.locator(".ticket-assignee-name")).to_have_text("Sam Rivera")
    support.get_by_label("Priority").select_option("low")
    expect(support.locator(".ticket-history")).to_contain_text(
        re.compile(r"changed priority from high to low", re.IGNORECASE)
    )
    expect(support.get_by_label("Priority")).to_have_value("low")
    support.get_by_role("tab", name="My Tickets").click()
    expect(ticket_row(support, subject)).to_be_visible()

    # A canned response, saved once and filled in for this ticket's customer.
    title = f"Greeting {uuid.uuid4().hex[:6]}"
    support.get_by_role("combobox", name="Canned responses").select_option(label="Manage canned responses…")
    canned = support.get_by_role("dialog", name="Canned responses")
    canned.get_by_label("Title", exact=True).fill(title)
    canned.get_by_label("Response", exact=True).fill(
        "Hi {customer}, thanks for contacting us about {ticket}."
    )
    canned.get_by_role("button", name="Save response").click()
    expect(toasts(support, "Canned response saved")).to_be_visible()
    expect(canned.get_by_text(title)).to_be_visible()
    canned.get_by_role("button", name="Done").click()
    expect(canned).to_be_hidden()
    support.get_by_role("combobox", name="Canned responses").select_option(label=title)
    expect(support.get_by_label("Message")).to_have_value(
        re.compile(r"^Hi Jordan Lee, thanks for contacting us about #\d+\.$")
    )
    assert page_errors(support) == []


def test_contact_support_takes_a_signed_out_visitor_through_sign_in(
    page: Page, demo_site: LiveServer
) -> None:
    open_page(page, demo_site.url("/help-center"))
    page.get_by_role("link", name="Contact support").click()
    expect(page).to_have_url(re.compile(r"/login\?redirect=%2Fdashboard%2Fsupport%3Fnew%3D1$"))
    page.get_by_label("Email").fill("patient@demo.medivisit.test")
    page.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard/support\?new=1$"))
    expect(page.get_by_role("heading", name="New support request")).to_be_visible()
    assert page_errors(page) == []


def test_a_request_saying_i_want_to_die_is_sent_shows_988_at_once_and_reaches_the_desk_urgent(
    person, demo_site: LiveServer
) -> None:
    """Issue 27: the request is filed (the person keeps their message), the 911 / 988 banner shows at once,
    and the ticket reaches the desk as urgent."""
    support = person("support")
    open_desk(support, demo_site)
    patient = person("patient")
    patient.goto(demo_site.url("/dashboard/support?new=1"))
    subject = f"Can't cope {uuid.uuid4().hex[:8]}"
    patient.get_by_label("Subject").fill(subject)
    patient.get_by_label("Description").fill("Honestly I want to die, nothing helps any more.")
    patient.get_by_role("button", name="Send request").click()
    banner = patient.get_by_role("alert").filter(has_text="Are you safe right now?")
    expect(banner).to_contain_text("Call or text 988")
    expect(banner.get_by_role("link", name="Call or text 988")).to_have_attribute("href", "tel:988")
    expect(patient.get_by_role("heading", name=subject)).to_be_visible()  # filed all the same
    row = ticket_row(support, subject)
    expect(row).to_be_visible()
    expect(row).to_contain_text("Urgent")
