"""Documents in Chromium (issue 14 parts 3, 5 and 8) on a demo server: the owner creates an invoice to the
demo patient on /staff/invoices (two lines, the running total), sends it and marks it paid; the invoice's
PDF holds its total. The patient finds it under Invoices in the wallet and downloads it, and downloads a
receipt from a visit card; the provider downloads a monthly statement. axe in light and dark at 1280 and
375 px on every screen; screenshots in tests/artifacts/.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, loaded
from tests.e2e.conftest import DESKTOP, open_page
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_payouts_and_revenue import looks
from tests.e2e.test_staff_portal import staff_sign_in
from tests.factories import present

PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("invoices"))
    yield server
    stop_server(server)


def toasts_gone(page: Page) -> None:
    """Wait until the notifications have faded out (axe reads colours: not those of a toast half-way
    through its animation), as tests/e2e/test_enrollment.py does."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => !a.effect.target.closest('.toast') || a.playState === 'finished')"
    )


def checked(page: Page, name: str) -> list[str]:
    """axe in every look and the screenshots, once the screen has loaded and its toasts have faded."""
    loaded(page)
    toasts_gone(page)
    return looks(page, name)


def pdf_text(page: Page, href: str) -> str:
    """Download `href` with the page's cookies and return the PDF's text."""
    answer = page.request.get(href)
    assert answer.status == 200, answer.text()[:200]
    assert answer.headers["content-type"] == "application/pdf"
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(answer.body())).pages)


def test_staff_invoice_from_draft_to_paid_and_the_patients_documents(
    browser: Browser, demo: LiveServer
) -> None:
    problems: list[str] = []
    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", "/staff/invoices")
    expect(owner.get_by_role("heading", name="Invoices", level=1)).to_be_visible()
    expect(owner.get_by_text("No invoices yet. Create one with New invoice.")).to_be_visible()
    expect(
        owner.get_by_role("navigation", name="Staff sections").get_by_role("link", name="Invoices")
    ).to_be_visible()

    owner.get_by_role("link", name="New invoice").click()
    expect(owner.get_by_role("heading", name="New invoice", level=1)).to_be_visible()
    owner.get_by_label("Recipient").select_option("patient")
    owner.get_by_label("Patient's account e-mail").fill(PATIENT)
    owner.get_by_label("Description, line 1").fill("Missed home visit fee")
    owner.get_by_label("Unit price (USD), line 1").fill("45")
    owner.get_by_role("button", name="Add line").click()
    owner.get_by_label("Description, line 2").fill("Travel beyond the service area")
    owner.get_by_label("Quantity, line 2").fill("2")
    owner.get_by_label("Unit price (USD), line 2").fill("12.50")
    expect(owner.locator(".invoice-total")).to_have_text("Total $70.00")
    # A bad price is explained and nothing typed is lost.
    owner.get_by_label("Unit price (USD), line 2").fill("twelve")
    owner.get_by_role("button", name="Create draft").click()
    expect(owner.get_by_role("alert")).to_have_text(
        "Line 2: enter the unit price in dollars, such as 35 or 35.50."
    )
    expect(owner.get_by_label("Description, line 2")).to_have_value("Travel beyond the service area")
    owner.get_by_label("Unit price (USD), line 2").fill("12.50")
    problems += checked(owner, "staff-invoice-new")
    owner.set_viewport_size(DESKTOP)
    owner.get_by_role("button", name="Create draft").click()

    expect(owner).to_have_url(re.compile(r"/staff/invoices/INV-\d{4}-00001$"))
    number = owner.url.rsplit("/", 1)[1]
    expect(owner.get_by_role("heading", name=f"Invoice {number}", level=1)).to_be_visible()
    expect(owner.get_by_label("Description, line 2")).to_have_value("Travel beyond the service area")
    owner.get_by_role("button", name="Send invoice").click()
    dialog = owner.get_by_role("dialog", name="Send invoice")
    expect(dialog).to_contain_text(f"{number} for $70.00 goes to {PATIENT}")
    dialog.get_by_role("button", name="Send invoice").click()
    expect(toasts(owner, "Invoice sent")).to_be_visible()
    expect(owner.locator(".portal-header .badge")).to_have_text("Sent")

    owner.get_by_role("button", name="Mark paid").click()
    paid = owner.get_by_role("dialog", name="Mark invoice paid")
    paid.get_by_label("Payment method").select_option("card")
    paid.get_by_label("Reference").fill("POS 5521")
    problems += checked(owner, "staff-invoice-mark-paid-dialog")
    owner.set_viewport_size(DESKTOP)
    paid.get_by_role("button", name="Mark paid").click()
    expect(toasts(owner, "Invoice marked paid")).to_be_visible()
    expect(owner.locator(".portal-header .badge")).to_have_text("Paid")
    expect(owner.locator(".invoice-facts")).to_contain_text("POS 5521")
    text = pdf_text(owner, demo.url(f"/api/invoices/{number}.pdf"))
    assert number in text and "Total paid $70.00" in text and "Jordan Lee" in text
    problems += checked(owner, "staff-invoice-paid")

    open_page(owner, demo.url("/staff/invoices?status=paid"))
    expect(owner.get_by_role("link", name=number, exact=True)).to_be_visible()
    expect(owner.get_by_role("link", name=f"Download invoice {number} (PDF)")).to_be_visible()
    problems += checked(owner, "staff-invoices-list")
    owner.close()

    patient = browser.new_page(viewport=DESKTOP)
    sign_in(patient, demo, PATIENT, DEMO_PASSWORD)
    expect(patient).to_have_url(re.compile(r"/dashboard"))
    open_page(patient, demo.url("/dashboard/wallet"))
    invoices = patient.get_by_role("region", name="Invoices")
    expect(invoices.get_by_role("row", name=re.compile(number))).to_contain_text("$70.00")
    link = invoices.get_by_role("link", name=f"Download invoice {number} (PDF)")
    assert "Total paid $70.00" in pdf_text(patient, demo.url(present(link.get_attribute("href"))))
    problems += checked(patient, "wallet-invoices")

    patient.set_viewport_size(DESKTOP)
    open_page(patient, demo.url("/appointments"))
    receipt = patient.get_by_role("link", name=re.compile(r"^Receipt for order MV-")).first
    expect(receipt).to_be_visible()
    order = present(re.search(r"MV-\w+", present(receipt.get_attribute("aria-label")))).group(0)
    text = pdf_text(patient, demo.url(present(receipt.get_attribute("href"))))
    assert f"Order {order}" in text and "Order total $" in text and "Jordan Lee" in text
    patient.close()

    provider = browser.new_page(viewport=DESKTOP)
    sign_in(provider, demo, PROVIDER, DEMO_PASSWORD)
    expect(provider).to_have_url(re.compile(r"/dashboard"))
    open_page(provider, demo.url("/dashboard/provider-wallet"))
    statements = provider.get_by_role("region", name="Monthly statements")
    expect(statements).to_be_visible()
    download = statements.get_by_role("link", name=re.compile(r"^Download the statement for "))
    expect(download).to_be_visible()
    text = pdf_text(provider, demo.url(present(download.get_attribute("href"))))
    assert "Monthly statement" in text and "Closing available balance $" in text and "Priya Shah" in text
    problems += checked(provider, "provider-wallet-statements")
    provider.close()
    assert not problems, "\n".join(problems)
