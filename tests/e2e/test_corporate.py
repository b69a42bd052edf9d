"""Corporate work in Chromium (issue 17) on a demo server: a visitor sends the /corporate enquiry (a
mistake first, explained above the form); the owner works the lead on /staff/leads to a contract, activates
it and books an event day with two providers on /staff/contracts, then invoices it; the contact (the demo
patient, now the organization's admin) reads the contract on /dashboard/contracts and invites a colleague on
/dashboard/team, who accepts the e-mailed link and then reads the contract too. axe on each screen built
here in light and dark at 1280 and 375 px, with screenshots of each look in tests/artifacts/."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer, run_cli, start_demo_server, stop_server
from tests.e2e.accessibility import (
    DEMO_PASSWORD,
    check_every_look,
    loaded,
    screenshot_looks,
    set_look,
    violations,
)
from tests.e2e.conftest import DESKTOP, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_staff_portal import staff_sign_in

PATIENT = "patient@demo.medivisit.test"  # Jordan Lee, the company's contact
COLLEAGUE = "eli.colleague@demo.medivisit.test"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    server, database_url = start_demo_server(tmp_path_factory.mktemp("corporate"))
    created = run_cli(
        "users", "create", "--email", COLLEAGUE, "--role", "patient", "--name", "Eli Colleague",
        stdin=DEMO_PASSWORD + "\n",
        env={"DATABASE_URL": database_url},
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    yield server, database_url
    stop_server(server)


def every_look(page: Page, name: str, *, shots: bool = True) -> list[str]:
    """axe in the paired looks (desktop light, phone dark), and with SCREENSHOTS=1 a full-page screenshot
    in each of the four (not of the staff screens, built from the same pieces)."""
    loaded(page)
    problems = check_every_look(page, name)
    for viewport, scheme in screenshot_looks(page) if shots else ():
        width = "desktop" if viewport == DESKTOP else "mobile"
        screenshot(page, f"corporate-{name}-{width}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def invitation_link(database_url: str, address: str) -> str:
    """The join link in the last invitation e-mailed to `address` (the demo server keeps mail in its outbox)."""
    with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
        rows = db.execute("SELECT recipients, html FROM outbox_messages ORDER BY created_at").fetchall()
    bodies = [body for recipients, body in rows if address in recipients]
    link = re.search(r"/join-team\?token=[\w-]+", bodies[-1])
    assert link is not None
    return link.group(0)


def test_an_enquiry_becomes_a_contract_and_the_admin_brings_a_colleague(
    browser: Browser, demo: tuple[LiveServer, str]
) -> None:
    server, database_url = demo
    problems: list[str] = []

    visitor = browser.new_page(viewport=DESKTOP)
    open_page(visitor, server.url("/corporate"))
    form = visitor.locator("form.enquiry-card")
    form.get_by_label("Company").fill("Acme Logistics")
    form.get_by_label("Your name").fill("Jordan Lee")
    form.get_by_label("Work e-mail").fill("jordan@gmail.com")
    form.get_by_role("button", name="Send enquiry").click()
    summary = visitor.locator("#enquiry-errors")
    expect(summary).to_contain_text("Please use your work e-mail address")
    expect(summary).to_contain_text("Choose at least one service.")
    problems += every_look(visitor, "form")
    form.get_by_label("Work e-mail").fill(PATIENT)
    form.get_by_label("Phone").fill("(212) 555-0142")
    form.get_by_label("City or ZIP code").fill("New York, 10001")
    form.get_by_label("Approximate headcount").fill("180")
    form.get_by_label("Routine blood draw").check()
    form.get_by_label("Dates wanted").fill("Any weekday next month")
    form.get_by_role("button", name="Send enquiry").click()
    expect(visitor.get_by_role("status").filter(has_text="we've got your enquiry")).to_be_visible()
    visitor.close()

    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, server, "owner", "/staff/leads")
    lead = owner.get_by_role("article", name="Acme Logistics")
    lead.get_by_role("button", name="Mark contacted: Acme Logistics").click()
    lead.get_by_role("button", name="Mark proposal sent: Acme Logistics").click()
    expect(lead.get_by_text("Proposal", exact=True)).to_be_visible()
    lead.get_by_label("Add a note").fill("Called Jordan: two sites, flu shots first.")
    lead.get_by_role("button", name="Add note").click()
    expect(lead.get_by_text("Called Jordan: two sites, flu shots first.")).to_be_visible()
    problems += every_look(owner, "staff-leads", shots=False)
    lead.get_by_role("button", name="Create contract").click()
    dialog = owner.get_by_role("dialog", name="Contract with Acme Logistics")
    dialog.get_by_label("Agreed price, Routine blood draw (USD per provider-day)").fill("950")
    dialog.get_by_role("button", name="Create contract").click()
    expect(toasts(owner, "Contract created")).to_be_visible()

    open_page(owner, server.url("/staff/contracts"))
    contract = owner.get_by_role("article", name="Acme Logistics: on-site care")
    contract.get_by_role("button", name="Activate: Acme Logistics: on-site care").click()
    contract.get_by_role("button", name="Book event day").click()
    dialog = owner.get_by_role("dialog", name=re.compile("Book an event day"))
    dialog.get_by_label("Day").fill((date.today() + timedelta(days=30)).isoformat())
    dialog.get_by_label("Venue address").fill("450 W 33rd St")
    dialog.get_by_label("ZIP code").fill("10001")  # the list narrows to providers licensed in New York
    expect(dialog.get_by_label(re.compile("^Priya Shah"))).to_be_visible()
    expect(dialog.get_by_label(re.compile("^Angela Baker"))).to_have_count(0)  # licensed elsewhere
    providers = dialog.locator("fieldset.corp-checks input[type=checkbox]")
    providers.nth(0).check()
    providers.nth(1).check()
    dialog.get_by_role("button", name="Book event day").click()
    expect(toasts(owner, "Event day booked")).to_be_visible()
    day = contract.locator(".corp-day")
    expect(day).to_contain_text("Awaiting provider")
    expect(day).to_contain_text("Not invoiced yet")
    day.get_by_role("button", name=re.compile("Invoice the event day")).click()
    expect(day).to_contain_text(re.compile(r"Invoiced: INV-\d{4}-\d{5}"))
    contract.get_by_role("button", name="Edit Acme Logistics: on-site care").click()
    dialog = owner.get_by_role("dialog", name="Edit Acme Logistics: on-site care")
    dialog.get_by_label("Agreed price, Routine blood draw (USD per provider-day)").fill("1,000")
    dialog.get_by_role("button", name="Save contract").click()
    expect(contract).to_contain_text("Routine blood draw: $1,000.00 per provider-day")
    expect(day).to_contain_text("$950.00 per provider")  # the day keeps the price it was booked at
    problems += every_look(owner, "staff-contracts", shots=False)
    open_page(owner, server.url("/staff/organizations"))
    expect(owner.get_by_role("heading", name="New organization")).to_be_visible()
    loaded(owner)
    problems += violations(owner, "staff organizations")
    owner.get_by_role("link", name="Acme Logistics").click()
    expect(owner.get_by_role("region", name="Acme Logistics")).to_contain_text("Jordan Lee")
    loaded(owner)
    problems += violations(owner, "staff organization")
    owner.close()

    admin = browser.new_page(viewport=DESKTOP)
    sign_in(admin, server, PATIENT, DEMO_PASSWORD)
    expect(admin).to_have_url(re.compile(r"/dashboard"))
    open_page(admin, server.url("/dashboard/contracts"))
    card = admin.get_by_role("article", name="Acme Logistics: on-site care")
    expect(card).to_contain_text("Routine blood draw: $1,000.00 per provider-day")
    expect(card.locator(".corp-day")).to_have_count(1)
    problems += every_look(admin, "contracts")
    open_page(admin, server.url("/dashboard/team"))
    admin.get_by_label("E-mail address").fill(COLLEAGUE)
    admin.get_by_label("Role").select_option("admin")  # admins see the contracts
    admin.get_by_role("button", name="Send invitation").click()
    expect(admin.get_by_role("heading", name="Invitations waiting (1)")).to_be_visible()
    problems += every_look(admin, "team")
    admin.close()

    colleague = browser.new_page(viewport=DESKTOP)  # signed out: the link asks them to sign in, then returns
    open_page(colleague, server.url(invitation_link(database_url, COLLEAGUE)))
    expect(colleague.get_by_role("heading", name="Sign in to accept your invitation")).to_be_visible()
    problems += violations(colleague, "join page, signed out")
    colleague.locator("#main").get_by_role("link", name="Sign in").click()
    colleague.get_by_label("Email").fill(COLLEAGUE)
    colleague.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    colleague.get_by_role("button", name="Sign in", exact=True).click()
    expect(colleague).to_have_url(re.compile(r"/join-team\?token="))
    colleague.get_by_role("button", name="Accept invitation").click()
    expect(colleague).to_have_url(re.compile(r"/dashboard/team$"))
    expect(colleague.locator("#main .corp-member-list")).to_contain_text("Eli Colleague (you)")
    open_page(colleague, server.url("/dashboard/contracts"))
    expect(colleague.get_by_role("article", name="Acme Logistics: on-site care")).to_be_visible()
    colleague.close()

    assert problems == []
