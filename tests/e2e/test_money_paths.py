"""Issue 29's two whole money paths in Chromium, each on a demo server of its own with the card gateway on
(PAYMENT_GATEWAY=stripe against tests/stripe_standin.py), with a page each for Jordan Lee (the demo patient),
Priya Shah (the demo provider), the owner and the manager (the demo's two people who may approve a payout):

- by card: Jordan books Priya's blood draw and pays on Stripe's page (the signed checkout.session.completed
  webhook); Priya confirms, starts and completes it; her earning is pending; Jordan reports a problem; the
  owner resolves it with a partial refund, which goes back to the card (a Stripe refund); the dispute window
  ends (the release job run at a later clock) and the earning is available; Priya sets up payouts with
  Stripe Connect (account.updated) and asks for all she has; owner and manager approve it (above the $1,000
  limit: two people), which sends it by Stripe transfer; the connected account's payout.paid makes it paid.
- pay at visit: the owner allows only pay at visit; Jordan books; Priya completes the visit recording the
  cash she collected, so the platform's fee is owed by her; Jordan reports a problem inside the dispute
  window (nothing of a paid-at-the-door visit waits in it) and the owner resolves it with a partial refund,
  as wallet credit; Priya onboards, her payout has the fee netted first, two approve it and Stripe pays it.

The visit's day arriving is the one move of time on the database (`_visit_now`: the booked visit moved to a
free time that began an hour ago, as a day passing would leave it); the end of the dispute window is the
release job run with its clock 72 hours on (`_release_earnings`). Each test ends with `python -m medivisit
ledger check` on its server's database (exit 0); stop_server checks the ledger again.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy import select

from app.db import Database
from app.services.ledger import dollars
from app.services.ledger.internal import release_due_earnings
from components.format import format_currency, format_money
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus, Order
from models.identity import as_utc
from models.ledger import VisitCharge
from tests import stripe_standin
from tests.conftest import LiveServer, demo_database, free_port, run_cli, start_server, stop_server
from tests.e2e.accessibility import loaded, signed_in_at
from tests.e2e.conftest import DESKTOP, _page, open_page, page_errors, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_booking_flow import day_ahead, hold
from tests.e2e.test_staff_portal import staff_sign_in
from tests.factories import present

T = TypeVar("T")
PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
PRIYA = "Priya Shah"
ZIP = "10001"
ZONE = "America/New_York"  # the demo's, and the staff schedule's days
DRAW = "Routine blood draw"
WALLET = "/dashboard/provider-wallet"
PAYOUTS = "/dashboard/payout-requests"
APPOINTMENTS = "/dashboard/appointments"
WEBHOOK = "/api/payments/stripe/webhook"
REFUND = Decimal("10.00")
DETAILS = "The nurse left before taking the second sample."


@dataclass(frozen=True)
class Site:
    live: LiveServer
    standin: stripe_standin.StripeStandIn
    database_url: str


@dataclass(frozen=True)
class Visit:
    id: str
    starts_at: datetime  # UTC, once moved to the day it happens
    price: int  # cents: the provider's price
    fee: int  # cents: the platform fee on it


def in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` on a worker thread's own event loop (Playwright's thread already runs one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


def _serve(tmp: Path) -> Iterator[Site]:
    standin, stand_in_server = stripe_standin.serve()
    standin.hosted_here = True  # its Checkout and onboarding addresses are pages of its own
    database_url = demo_database(tmp / "money.db")
    port = free_port()
    live = start_server(
        tmp,
        port=port,
        SITE_URL=f"http://127.0.0.1:{port}",  # where Stripe's pages send the browser back
        DATABASE_URL=database_url,
        REMINDERS_ENABLED="false",
        EARNINGS_RELEASE_ENABLED="false",  # the test runs the release job, at its own clock
        PAYMENT_GATEWAY="stripe",
        STRIPE_SECRET_KEY=stripe_standin.SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=stripe_standin.WEBHOOK_SECRET,
        STRIPE_API_BASE=standin.url,
    )
    yield Site(live, standin, database_url)
    stop_server(live)  # which checks the ledger once more
    stand_in_server.shutdown()


@pytest.fixture(scope="module")
def card_site(tmp_path_factory) -> Iterator[Site]:
    yield from _serve(tmp_path_factory.mktemp("money-card"))


@pytest.fixture(scope="module")
def visit_site(tmp_path_factory) -> Iterator[Site]:
    yield from _serve(tmp_path_factory.mktemp("money-visit"))


@dataclass(frozen=True)
class People:
    patient: Page
    provider: Page
    owner: Page
    manager: Page


@pytest.fixture
def people(browser: Browser) -> Iterator[People]:
    """A desktop page for each person of the path, each in a browser context of its own (as the `page`
    fixture makes them); none of them has had an uncaught JavaScript error at the end."""
    with ExitStack() as stack:
        pages = [stack.enter_context(contextmanager(_page)(browser, DESKTOP)) for _ in range(4)]
        yield People(*pages)
        assert [page_errors(page) for page in pages] == [[], [], [], []]


# ---- the database: the visit's day arrives, the dispute window ends -------------------------------
async def _visit_now(database_url: str, order_number: str) -> Visit:
    """The order's visit moved to a time that began an hour ago (the latest one free in Priya's schedule),
    as the day of the visit arriving would leave it; its price and fee."""
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            row = present(
                await session.scalar(
                    select(Appointment)
                    .join(Order, Order.id == Appointment.order_id)
                    .where(Order.number == order_number)
                )
            )
            length, busy = row.ends_at - row.starts_at, row.busy_until - row.starts_at
            start = utcnow().replace(second=0, microsecond=0) - timedelta(hours=1)
            for _try in range(48):  # the no-overlap rule: a half hour earlier until the time is free
                taken = await session.scalar(
                    select(Appointment.id).where(
                        Appointment.provider_id == row.provider_id,
                        Appointment.id != row.id,
                        Appointment.status != AppointmentStatus.cancelled,
                        Appointment.starts_at < start + busy,
                        Appointment.busy_until > start,
                    )
                )
                if taken is None:
                    break
                start -= timedelta(minutes=30)
            row.starts_at, row.ends_at, row.busy_until = start, start + length, start + busy
            charge = present(
                await session.scalar(select(VisitCharge).where(VisitCharge.appointment_id == row.id))
            )
            return Visit(row.id, as_utc(start), charge.price, charge.fee)
    finally:
        await database.dispose()


async def _charge(database_url: str, appointment_id: str) -> VisitCharge:
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            charge = present(
                await session.scalar(select(VisitCharge).where(VisitCharge.appointment_id == appointment_id))
            )
            session.expunge(charge)
            return charge
    finally:
        await database.dispose()


async def _release_earnings(database_url: str, at: datetime) -> None:
    """The release job (medivisit/periodic.py's "Released %d visit earning(s)") run once at `at`."""
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            await release_due_earnings(session=session, now=at)
    finally:
        await database.dispose()


def release_earnings(site: Site, visit: Visit, at: datetime) -> datetime | None:
    """The release job run at `at`; when the visit's earning was released (None: still pending)."""
    in_thread(_release_earnings(site.database_url, at))
    released = in_thread(_charge(site.database_url, visit.id)).released_at
    return as_utc(released) if released else None


# ---- Stripe's side ----------------------------------------------------------------------------------
def send_webhook(site: Site, kind: str, obj: dict[str, Any], *, account: str | None = None) -> str:
    """Deliver a Stripe event (a connected account's carries `account`), signed with the SDK's helper; the
    webhook's result."""
    event = stripe_standin.event(kind, obj) | ({"account": account} if account else {})
    body, header = stripe_standin.signed(event)
    answer = httpx.post(site.live.url(WEBHOOK), content=body, headers={"Stripe-Signature": header})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["result"])


# ---- what the people do -------------------------------------------------------------------------------
def book_the_draw(page: Page, site: Site) -> None:
    """Jordan finds Priya's blood draw, holds a time three weekdays on and places the order."""
    signed_in_at(page, site.live, PATIENT, "/find-provider")
    search = page.get_by_role("search", name="Find a provider")
    search.get_by_label("ZIP code").fill(ZIP)
    search.get_by_label("Service", exact=True).select_option("routine-blood-draw")
    search.get_by_role("button", name="Search").click()
    expect(page.locator(f'.search-results[data-results-for*="zip={ZIP}"][aria-busy="false"]')).to_be_visible()
    page.get_by_role("article", name=PRIYA).get_by_role("button", name="Add to cart").click()
    expect(toasts(page, f"Added {DRAW} to cart")).to_be_visible()
    open_page(page, site.live.url("/checkout"))
    page.get_by_label("ZIP code").fill(ZIP)
    hold(page.get_by_role("article", name=DRAW), day_ahead(3, weekdays_only=True))
    page.get_by_label("Street address").fill("350 W 31st St")
    page.get_by_label("City").fill("New York")
    page.get_by_label("State").fill("NY")
    page.get_by_role("complementary", name="Order summary").get_by_role(
        "button", name=re.compile(r"^Place order")
    ).click()


def visit_card(page: Page) -> Locator:
    """The visit a `?visit=` link marks."""
    return page.locator("article.appt-card[aria-current='true']")


def start_the_visit(page: Page, site: Site, visit: Visit) -> Locator:
    """Priya (signed in) confirms and starts the visit, an hour into its time; its card, ready to complete."""
    open_page(page, site.live.url(f"{APPOINTMENTS}?visit={visit.id}"))
    card = visit_card(page)
    expect(card).to_contain_text(DRAW)
    card.get_by_role("button", name="Confirm").click()
    card.get_by_role("button", name="Start visit").click()
    expect(card.get_by_role("button", name="Complete visit")).to_be_visible()
    return card


def balance(page: Page, name: str) -> Locator:
    return page.get_by_role("region", name="Your balances").get_by_role("article", name=name)


def money_in(locator: Locator) -> Decimal:
    """The first amount of money written in `locator` ('$1,234.50' → 1234.50)."""
    found = re.search(r"-?\$[\d,]+(\.\d\d)?", locator.inner_text())
    assert found, locator.inner_text()
    return Decimal(found.group().replace("$", "").replace(",", ""))


def statement_row(page: Page) -> Locator:
    """The blood draw's line of Priya's statement (the newest completed visit, first)."""
    return page.get_by_role("table", name="Statement per visit").get_by_role("row").nth(1)


def report_a_problem(patient: Page, site: Site, visit: Visit) -> Locator:
    """Jordan reports that the visit was cut short, from the visit's card in Past; the card."""
    open_page(patient, site.live.url(f"{APPOINTMENTS}?tab=past&visit={visit.id}"))
    card = visit_card(patient)
    card.get_by_role("button", name="Report a problem with this visit").click()
    report = patient.get_by_role("dialog", name="Report a problem with this visit")
    report.get_by_label("What went wrong?").select_option(label="The visit was cut short or late")
    report.get_by_label("What happened").fill(DETAILS)
    report.get_by_role("button", name="Send report").click()
    expect(card).to_contain_text("Problem reported — we're looking into it")
    return card


def resolve_with_a_partial_refund(owner: Page, site: Site) -> None:
    staff_sign_in(owner, site.live, "owner", "/staff/revenue")
    queue = owner.get_by_role("region", name="Reported problems")
    row = queue.get_by_role("row").filter(has_text=DETAILS)
    row.get_by_role("button", name="Resolve the problem Jordan Lee reported").click()
    resolve = owner.get_by_role("dialog", name="Resolve reported problem")
    resolve.get_by_label("Outcome").select_option("partial_refund")
    resolve.get_by_label("Amount to refund").fill(f"{REFUND}")
    resolve.get_by_label("Note to the patient").fill("We refunded the sample that was not taken.")
    resolve.get_by_role("button", name="Resolve", exact=True).click()
    expect(resolve).to_be_hidden()
    expect(queue).to_contain_text("No open reported problems.")


def onboard_and_pay_out(people: People, site: Site, *, netted: Decimal = Decimal(0)) -> Decimal:
    """Priya sets up payouts with Stripe and requests all her available balance (less the fees she owes,
    `netted`); owner and manager approve it, which sends it by Stripe transfer; the connected account's
    payout.paid makes it paid. Returns the amount paid out."""
    provider, owner, manager = people.provider, people.owner, people.manager
    open_page(provider, site.live.url(WALLET))
    paid_before = money_in(balance(provider, "Paid out"))
    setup = provider.locator(".payout-setup")
    expect(setup).to_contain_text("Not set up")
    setup.get_by_role("button", name="Set up payouts with Stripe").click()
    expect(provider).to_have_url(
        re.compile(re.escape(site.standin.url) + r"/setup/e/acct_test\d+/link_test\d+$")
    )
    [account] = site.standin.accounts
    assert send_webhook(site, "account.updated", site.standin.enable_payouts(account)) == "account_updated"
    open_page(provider, site.live.url(f"{WALLET}?payouts=return"))
    expect(setup).to_contain_text("Payouts enabled")

    open_page(provider, site.live.url(PAYOUTS))
    available = money_in(provider.get_by_role("article", name="Available"))
    amount = available - netted
    shown = format_money(amount)
    assert amount > Decimal(1000)  # above the owners' limit: two approvers
    provider.get_by_label("Amount (USD)").fill(f"{available}")
    provider.get_by_role("button", name="Request payout").click()
    if netted:  # the fees she collected at visits are settled from her earnings first
        expect(
            provider.get_by_text(f"You can request at most {shown}, your available balance.")
        ).to_be_visible()
        expect(provider.get_by_text(f"{format_money(netted)} of your earnings first settle")).to_be_visible()
        provider.get_by_label("Amount (USD)").fill(f"{amount}")
        provider.get_by_role("button", name="Request payout").click()
    mine = provider.get_by_role("table", name="My payout requests").get_by_role("row").filter(has_text=shown)
    expect(mine).to_contain_text("Pending")

    who = f"{PRIYA} {shown}"
    open_page(owner, site.live.url("/staff/revenue"))
    row = (
        owner.get_by_role("table", name="Open payout requests, oldest first")
        .get_by_role("row")
        .filter(has_text=PRIYA)
    )
    row.get_by_role("button", name=f"Approve {who}").click()
    expect(toasts(owner, "First approval recorded")).to_be_visible()
    expect(row).to_contain_text("1 of 2 approvals")
    expect(row).to_contain_text("Waiting for a second approver")
    expect(row.get_by_role("button", name=f"Approve {who}")).to_have_count(0)
    assert not site.standin.calls("POST", "/v1/transfers")

    staff_sign_in(manager, site.live, "management", "/staff/revenue")
    manager.get_by_role("button", name=f"Approve {who}").click()
    expect(toasts(manager, "Payout sent by Stripe transfer")).to_be_visible()
    [transfer] = site.standin.calls("POST", "/v1/transfers")
    assert (transfer.params["amount"], transfer.params["destination"]) == (str(int(amount * 100)), account)

    provider.reload()
    expect(mine).to_contain_text("In transit")
    expect(mine).to_contain_text(re.compile(r"Transfer reference tr_test\d+"))
    paid = {"id": "po_test_paths", "object": "payout", "amount": int(amount * 100), "status": "paid"}
    assert send_webhook(site, "payout.paid", paid, account=account) == "payout_paid"
    provider.reload()
    expect(mine).to_contain_text("Paid")
    open_page(provider, site.live.url(WALLET))
    expect(balance(provider, "Paid out")).to_contain_text(format_money(paid_before + amount))
    expect(balance(provider, "In payout")).to_contain_text("$0.00")
    expect(balance(provider, "Available")).to_contain_text("$0.00")
    return amount


def ledger_checks(site: Site) -> None:
    checked = run_cli("ledger", "check", env={"DATABASE_URL": site.database_url})
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Ledger check passed" in checked.stdout


# ---- the paths ---------------------------------------------------------------------------------------
def test_card_payment_dispute_refund_to_the_card_release_and_payout(card_site: Site, people: People) -> None:
    site, patient, provider = card_site, people.patient, people.provider

    # Jordan books and pays on Stripe's page; Stripe's webhook says the session is paid.
    book_the_draw(patient, site)
    expect(patient).to_have_url(re.compile(re.escape(site.standin.url) + r"/c/pay/cs_test\d+$"))
    [checkout] = [s for s in site.standin.sessions.values() if s["status"] == "open"]
    site.standin.captured["pi_test_paths"] = checkout["amount_total"]
    paid = {
        "id": checkout["id"],
        "object": "checkout.session",
        "status": "complete",
        "payment_status": "paid",
        "amount_total": checkout["amount_total"],
        "currency": checkout["currency"],
        "payment_intent": "pi_test_paths",
        "metadata": checkout["metadata"],
    }
    assert send_webhook(site, "checkout.session.completed", paid) == "paid"
    open_page(patient, checkout["success_url"])
    expect(patient.get_by_role("heading", name="Your visit is requested")).to_be_visible()
    number = present(patient.locator("[data-order-number]").get_attribute("data-order-number"))
    visit = in_thread(_visit_now(site.database_url, number))
    total = visit.price + visit.fee
    assert checkout["amount_total"] == total
    totals = patient.locator(".summary-totals")
    expect(totals.locator(".summary-total")).to_contain_text("Total, paid by card")
    expect(totals.locator("[data-receipt-total]")).to_have_text(format_currency(dollars(total)))

    # Priya confirms, starts and completes it: her earning is pending, inside the dispute window.
    signed_in_at(provider, site.live, PROVIDER, WALLET)
    expect(balance(provider, "Pending")).to_contain_text("$0.00")
    card = start_the_visit(provider, site, visit)
    card.get_by_role("button", name="Complete visit").click()
    expect(toasts(provider, "Visit completed")).to_be_visible()
    open_page(provider, site.live.url(WALLET))
    loaded(provider)
    available_before = money_in(balance(provider, "Available"))
    expect(balance(provider, "Pending")).to_contain_text(format_money(dollars(visit.price)))
    expect(statement_row(provider)).to_contain_text(DRAW)
    expect(statement_row(provider)).to_contain_text("Pending")

    # Jordan reports a problem; the owner refunds part of the visit, to Jordan's card.
    card = report_a_problem(patient, site, visit)
    # The report holds the earning past its window: the release job leaves it pending.
    completed = as_utc(present(in_thread(_charge(site.database_url, visit.id)).completed_at))
    assert release_earnings(site, visit, completed + timedelta(hours=73)) is None

    resolve_with_a_partial_refund(people.owner, site)
    [refund] = site.standin.calls("POST", "/v1/refunds")
    assert (refund.params["payment_intent"], refund.params["amount"]) == ("pi_test_paths", "1000")
    patient.reload()
    expect(card).to_contain_text(f"Problem resolved — {format_money(REFUND)} partly refunded")
    open_page(patient, site.live.url(f"/orders/{number}"))
    expect(totals.locator(".summary-credit").filter(has_text=f"-{format_currency(REFUND)}")).to_have_count(1)
    expect(totals.locator("[data-receipt-total]")).to_have_text(format_currency(dollars(total) - REFUND))
    screenshot(patient, "money-path-card-receipt", full_page=True, animations="disabled")

    # The dispute window ends (the release job, 72 hours after the completion): the rest is available.
    charge = in_thread(_charge(site.database_url, visit.id))
    earning = dollars(visit.price - charge.refunded_earning)
    later = completed + timedelta(hours=72, minutes=1)
    assert release_earnings(site, visit, later) == later
    open_page(provider, site.live.url(WALLET))
    expect(balance(provider, "Pending")).to_contain_text("$0.00")
    expect(balance(provider, "Available")).to_contain_text(format_money(available_before + earning))
    expect(statement_row(provider)).to_contain_text("Available")
    screenshot(provider, "money-path-card-wallet-released", full_page=True, animations="disabled")
    expect(statement_row(provider)).to_contain_text(format_money(earning))

    # Connect onboarding, two approvers, the transfer and Stripe's payout.paid.
    assert onboard_and_pay_out(people, site) == available_before + earning
    ledger_checks(site)


def test_pay_at_visit_cash_collection_refund_netted_fee_and_payout(visit_site: Site, people: People) -> None:
    site, patient, provider, owner = visit_site, people.patient, people.provider, people.owner

    # The owner lets patients pay at the visit only; Jordan books, nothing is charged.
    staff_sign_in(owner, site.live, "owner", "/staff/settings")
    modes = owner.get_by_role("region", name="Business settings").get_by_label(
        "Payment modes at checkout", exact=True
    )
    modes.select_option("visit")
    owner.get_by_role("button", name="Save Payment modes at checkout").click()
    expect(toasts(owner, "Payment modes at checkout saved")).to_be_visible()
    book_the_draw(patient, site)
    expect(patient.get_by_role("heading", name="Your visit is requested")).to_be_visible()
    assert not site.standin.sessions  # no card payment was asked for
    number = present(patient.locator("[data-order-number]").get_attribute("data-order-number"))
    visit = in_thread(_visit_now(site.database_url, number))
    total, fee = dollars(visit.price + visit.fee), dollars(visit.fee)
    totals = patient.locator(".summary-totals")
    expect(totals.locator(".summary-total")).to_contain_text("Total, paid at the visit")
    expect(totals.locator("[data-receipt-total]")).to_have_text(format_currency(total))

    # Priya completes it with the cash she collected: the platform's fee is now owed by her.
    signed_in_at(provider, site.live, PROVIDER, WALLET)
    available_before = money_in(balance(provider, "Available"))
    card = start_the_visit(provider, site, visit)
    card.get_by_role("button", name="Complete visit").click()
    collect = provider.get_by_role("dialog", name="Complete this visit")
    expect(collect.get_by_label("Amount collected")).to_have_value(f"{total:.2f}")
    collect.get_by_label("How it was paid").select_option(label="Cash")
    collect.get_by_role("button", name="Complete visit").click()
    expect(toasts(provider, "Visit completed")).to_be_visible()
    open_page(provider, site.live.url(f"{APPOINTMENTS}?tab=past&visit={visit.id}"))
    expect(visit_card(provider)).to_contain_text(f"Collected at visit (cash): {format_money(total)}")
    open_page(provider, site.live.url(WALLET))
    expect(balance(provider, "Pending")).to_contain_text("$0.00")  # paid at the door: nothing waits
    expect(balance(provider, "Owed to MediVisit")).to_contain_text(format_money(fee))
    expect(statement_row(provider)).to_contain_text("Collected at visit (cash)")
    screenshot(provider, "money-path-cash-wallet-owed", full_page=True, animations="disabled")

    # Jordan's visit is paid, nothing due on the receipt.
    open_page(patient, site.live.url(f"{APPOINTMENTS}?tab=past&visit={visit.id}"))
    expect(visit_card(patient).get_by_role("button", name="Leave a review")).to_be_visible()
    expect(visit_card(patient)).not_to_contain_text("Payment due")
    open_page(patient, site.live.url(f"/orders/{number}"))
    expect(totals.locator("[data-receipt-due]")).to_have_text("$0")

    # Paid in cash, it has its dispute window too: Jordan reports a problem and the owner refunds part of
    # it, as wallet credit (Priya's share back from her earnings, the fee from what she owes).
    card = report_a_problem(patient, site, visit)
    resolve_with_a_partial_refund(owner, site)
    assert not site.standin.calls("POST", "/v1/refunds")  # nothing was paid by card
    patient.reload()
    expect(card).to_contain_text(f"Problem resolved — {format_money(REFUND)} partly refunded")
    open_page(patient, site.live.url("/dashboard/wallet?kind=refund"))
    expect(
        patient.get_by_role("table", name="Wallet history")
        .get_by_role("row")
        .filter(has_text=format_money(REFUND))
    ).to_have_count(1)

    open_page(patient, site.live.url(f"/orders/{number}"))
    expect(totals.locator(".summary-credit").filter(has_text=f"-{format_currency(REFUND)}")).to_have_count(1)
    expect(totals.locator("[data-receipt-total]")).to_have_text(format_currency(total - REFUND))
    expect(totals.locator("[data-receipt-due]")).to_have_text("$0")

    # The refund took Priya's share back from her available earnings and the fee from what she owes.
    refunded = in_thread(_charge(site.database_url, visit.id))
    owed = fee - dollars(refunded.refunded_fee)
    open_page(provider, site.live.url(WALLET))
    expect(balance(provider, "Owed to MediVisit")).to_contain_text(format_money(owed))
    expect(balance(provider, "Available")).to_contain_text(
        format_money(available_before - dollars(refunded.refunded_earning))
    )
    line = statement_row(provider)
    expect(line.get_by_role("cell").nth(4)).to_have_text(format_money(dollars(refunded.refunded_earning)))
    expect(line.get_by_role("cell").nth(5)).to_have_text(
        format_money(dollars(visit.price - refunded.refunded_earning))
    )

    # Connect onboarding; the payout has the fee she owes netted first; two approvers; Stripe pays it.
    paid_out = onboard_and_pay_out(people, site, netted=owed)
    assert paid_out == available_before - dollars(refunded.refunded_earning) - owed
    ledger_checks(site)
