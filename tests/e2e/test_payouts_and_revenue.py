"""Money screens in Chromium (issue 14 items 6 and 7) on a demo server: the demo provider opens Payout
Requests and a request below the minimum is refused with the service's message; the owner opens Revenue
Reports and sees the summary, the chart, the CSV link and the payout queue. axe in light and dark at 1280
and 375 px; screenshots in tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_staff_portal import staff_sign_in

PROVIDER = "provider@demo.medivisit.test"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("money"))
    yield server
    stop_server(server)


def looks(page, name: str) -> list[str]:  # noqa: ANN001 - Page
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, scheme in NAMED_LOOKS:
        set_look(page, WIDTHS[width], scheme)
        screenshot(page, f"{name}-{width}-{scheme}", full_page=True)
    return problems


def test_provider_payout_request_and_owner_revenue(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []

    provider = browser.new_page(viewport=DESKTOP)
    sign_in(provider, demo, PROVIDER, DEMO_PASSWORD)
    expect(provider).to_have_url(re.compile(r"/dashboard"))
    open_page(provider, demo.url("/dashboard/payout-requests"))
    expect(provider.get_by_role("heading", name="Payout Requests", level=1)).to_be_visible()
    expect(provider.get_by_text("The smallest payout is $50.00.")).to_be_visible()
    expect(provider.get_by_role("article", name="Available")).to_contain_text("$")
    provider.get_by_label("Amount (USD)").fill("10")
    provider.get_by_role("button", name="Request payout").click()
    expect(provider.get_by_text("The smallest payout is $50.00.", exact=True)).to_be_visible()
    expect(provider.get_by_text("You have not requested a payout yet.")).to_be_visible()
    loaded(provider)
    problems += looks(provider, "payout-requests")
    provider.close()

    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", "/staff/revenue")
    expect(owner.get_by_role("heading", name="Revenue Reports", level=1)).to_be_visible()
    expect(owner.get_by_role("heading", name="Revenue summary")).to_be_visible()
    expect(owner.get_by_role("article", name="Gross bookings")).to_contain_text(re.compile(r"\$[\d,]+\.\d\d"))
    expect(owner.get_by_role("article", name="Net")).to_be_visible()
    expect(owner.get_by_role("link", name="Download CSV", exact=True)).to_have_attribute(
        "href", "/api/revenue/export.csv?granularity=month"
    )
    owner.get_by_role("tab", name="Weekly").click()
    expect(owner).to_have_url(re.compile(r"by=week"))
    expect(owner.get_by_role("link", name="Download CSV", exact=True)).to_have_attribute(
        "href", "/api/revenue/export.csv?granularity=week"
    )
    # Split by service line, then by metro: the groups come from the demo's completed visits.
    split = owner.get_by_role("region", name="Where revenue comes from")
    expect(split.get_by_role("tab", name="By service line")).to_have_attribute("aria-selected", "true")
    expect(split.get_by_role("table")).to_contain_text("Total")
    expect(split.get_by_role("link", name="Download CSV, revenue by service line")).to_be_visible()
    split.get_by_role("tab", name="By metro").click()
    expect(owner).to_have_url(re.compile(r"by=week&split=metro"))
    expect(split.get_by_role("columnheader", name="Metro (city of the visit)")).to_be_visible()
    expect(split.get_by_role("table")).to_contain_text(re.compile(r", (NY|IL|TX|CA|FL|[A-Z]{2})"))
    breakdown = owner.request.get(demo.url("/api/revenue/breakdown.csv?split=metro"))
    assert breakdown.status == 200 and breakdown.text().startswith(
        "group,gross_bookings,platform_fees,refunds,net"
    )
    assert owner.request.get(demo.url("/api/revenue/breakdown.csv?split=planet")).status == 422
    expect(owner.get_by_role("heading", name="Payout requests")).to_be_visible()
    csv = owner.request.get(demo.url("/api/revenue/export.csv?granularity=month"))
    assert csv.status == 200 and csv.text().startswith(
        "period,gross_bookings,platform_fees,refunds,payouts,net"
    )
    loaded(owner)
    problems += looks(owner, "staff-revenue")
    owner.close()
    assert not problems, "\n".join(problems)


def test_a_payout_above_the_owners_limit_takes_two_approvers_then_goes_out_with_its_reference(
    browser: Browser, demo: LiveServer
) -> None:
    """Issue 29, item 2 without Stripe: the owner lowers the second-approval limit in the business settings;
    Priya's $60 request then needs two people; the owner's Approve is not offered twice; the manager (who
    also processes payments in the demo) gives the second; the owner records the bank transfer's reference
    and marks it paid; Priya sees the reference beside her paid request."""
    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", "/staff/settings")
    business = owner.get_by_role("region", name="Business settings")
    business.get_by_label("Second approval for payouts above", exact=True).fill("50.00")
    business.get_by_role("button", name="Save Second approval for payouts above").click()
    expect(toasts(owner, "Second approval for payouts above saved")).to_be_visible()

    provider = browser.new_page(viewport=DESKTOP)
    sign_in(provider, demo, PROVIDER, DEMO_PASSWORD)
    expect(provider).to_have_url(re.compile(r"/dashboard"))
    open_page(provider, demo.url("/dashboard/payout-requests"))
    provider.get_by_label("Amount (USD)").fill("60")
    provider.get_by_role("button", name="Request payout").click()
    mine = provider.get_by_role("table").get_by_role("row").filter(has_text="$60.00")
    expect(mine).to_contain_text("Pending")

    open_page(owner, demo.url("/staff/revenue"))
    row = owner.get_by_role("row").filter(has_text="Priya Shah").filter(has_text="$60.00")
    row.get_by_role("button", name="Approve Priya Shah $60.00").click()
    expect(toasts(owner, "First approval recorded")).to_be_visible()
    expect(row).to_contain_text("1 of 2 approvals")
    expect(row).to_contain_text("Waiting for a second approver")
    expect(row.get_by_role("button", name="Approve Priya Shah $60.00")).to_have_count(0)

    manager = browser.new_page(viewport=DESKTOP)
    staff_sign_in(manager, demo, "management", "/staff/revenue")
    manager.get_by_role("button", name="Approve Priya Shah $60.00").click()
    expect(toasts(manager, "Payout approved")).to_be_visible()
    manager.close()

    open_page(owner, demo.url("/staff/revenue"))
    row.get_by_role("button", name="Mark sent Priya Shah $60.00").click()
    dialog = owner.get_by_role("dialog", name="Mark payout sent")
    dialog.get_by_role("button", name="Mark payout sent").click()  # no reference yet
    expect(dialog.get_by_role("alert")).to_contain_text("Enter the bank transfer's reference")
    dialog.get_by_label("Bank transfer reference").fill("ACH 20261203-0042")
    dialog.get_by_role("button", name="Mark payout sent").click()
    expect(toasts(owner, "Payout marked sent")).to_be_visible()
    row.get_by_role("button", name="Mark paid Priya Shah $60.00").click()
    expect(toasts(owner, "Payout marked paid")).to_be_visible()
    owner.close()

    open_page(provider, demo.url("/dashboard/payout-requests"))
    expect(mine).to_contain_text("Paid")
    expect(mine).to_contain_text("Transfer reference ACH 20261203-0042")
    provider.close()
