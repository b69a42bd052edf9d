"""A refund from the staff visit details in Chromium (issue 29, item 3), on a demo-seeded server: the owner
(process_payments) opens one of Jordan's completed visits, refunds part of it with a reason and sees the
refund in the details; Jordan's wallet lists it under Refund, and the order page and the receipt PDF show the
same credit line and the same total and amount due."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader
from sqlalchemy import select

from app.db import Database
from components.format import format_money
from components.order_ui import receipt_href
from models.booking import Appointment, AppointmentStatus, Order
from models.identity import User, as_utc
from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import signed_in_at
from tests.e2e.conftest import screenshot
from tests.e2e.helpers import log_out
from tests.e2e.test_staff_portal import staff_sign_in
from tests.factories import present

PATIENT = "patient@demo.medivisit.test"
ZONE = "America/New_York"


@dataclass(frozen=True)
class Visit:
    provider_id: str
    day: str  # YYYY-MM-DD in New York
    order_number: str


async def _refundable_visit(database_url: str) -> Visit:
    """Jordan's latest completed visit of an order."""
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            jordan = present(await session.scalar(select(User.id).where(User.email == PATIENT)))
            row, number = (
                await session.execute(
                    select(Appointment, Order.number)
                    .join(Order, Order.id == Appointment.order_id)
                    .where(
                        Appointment.patient_id == jordan,
                        Appointment.status == AppointmentStatus.completed,
                    )
                    .order_by(Appointment.starts_at.desc())
                    .limit(1)
                )
            ).one()
            day = as_utc(row.starts_at).astimezone(ZoneInfo(ZONE)).date().isoformat()
            return Visit(row.provider_id, day, number)
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, Visit]]:
    tmp = tmp_path_factory.mktemp("refunds")
    database_url = demo_database(tmp / "refunds.db")
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        visit = pool.submit(asyncio.run, _refundable_visit(database_url)).result()
    server = start_server(
        tmp, DATABASE_URL=database_url, REMINDERS_ENABLED="false", EARNINGS_RELEASE_ENABLED="false"
    )
    yield server, visit
    stop_server(server)


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages).split())


def test_payments_staff_refund_part_of_a_visit_and_every_figure_agrees(page: Page, site) -> None:  # noqa: ANN001
    site, visit = site
    staff_sign_in(
        page,
        site,
        "owner",
        f"/staff/appointments?date={visit.day}&view=day&provider={visit.provider_id}&status=completed",
    )
    row = page.locator(".visit-row").filter(has_text="Jordan Lee").first
    row.get_by_role("button", name=re.compile("^Details of")).click()
    dialog = page.get_by_role("dialog", name="Visit details")
    money = dialog.get_by_role("region", name="Payment and refunds")
    expect(money).to_contain_text("Left to refund")
    money.get_by_role("button", name="Refund", exact=True).click()
    form = money.get_by_role("form", name="Refund this visit")
    expect(form.get_by_label("Amount to refund")).not_to_have_value("")  # prefilled with what is left
    form.get_by_label("Amount to refund").fill("12.34")
    form.get_by_label("Reason").fill("The visit started 40 minutes late")
    form.get_by_role("button", name="Refund", exact=True).click()
    refunds = money.get_by_role("list", name="Refunds")
    expect(refunds).to_contain_text("$12.34 refunded")
    expect(refunds).to_contain_text("Reason: The visit started 40 minutes late")
    expect(refunds).to_contain_text(re.compile(r"by \w+"))
    screenshot(page, "staff-visit-refund")
    dialog.get_by_role("button", name="Close", exact=True).last.click()
    expect(dialog).to_be_hidden()
    log_out(page)

    signed_in_at(page, site, PATIENT, "/dashboard/wallet?kind=refund")
    history = page.get_by_role("table", name="Wallet history")
    expect(history.get_by_role("row").filter(has_text="$12.34")).to_have_count(1)

    page.goto(site.url(f"/orders/{visit.order_number}"))
    totals = page.locator(".summary-totals")
    credit = totals.locator(".summary-credit").filter(has_text="-$12.34")
    expect(credit).to_have_count(1)
    expect(credit).to_contain_text(
        re.compile(r"^Refunded as wallet credit — .+, [A-Z][a-z]{2} \d{1,2}, \d{4}")
    )
    # The page's figures (written as the page writes money: $190, $9.50) are the PDF's (always two decimals).
    total = format_money(
        Decimal(present(totals.locator("[data-receipt-total]").get_attribute("data-receipt-total")))
    )
    due = format_money(
        Decimal(present(totals.locator("[data-receipt-due]").get_attribute("data-receipt-due")))
    )
    receipt = page.request.get(site.url(receipt_href(visit.order_number)))
    assert receipt.ok
    text = pdf_text(receipt.body())
    service = credit.locator("dt").inner_text().split(", ")[0]
    assert f"{service}, " in text and "-$12.34" in text, text
    assert re.search(rf"Total(, paid ahead)? {re.escape(total)}", text), (total, text)
    assert re.search(rf"Due( at the visit)? {re.escape(due)}", text), (due, text)
