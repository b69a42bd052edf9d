"""A reported problem in Chromium (issue 29, item 3), on a demo-seeded server: Jordan (the demo patient)
reports a problem with a recent completed visit whose earning is still pending (one of his upcoming visits,
completed two hours ago by the fixture through the ledger's settlement); the owner resolves it with a
partial refund from Revenue's "Reported problems"; Jordan's visit then shows the outcome. The server's ledger
is checked when it stops (stop_server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.db import Database
from app.services.ledger.internal import settle_completed_visit
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus
from models.identity import User
from models.ledger import VisitCharge
from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import signed_in_at, violations
from tests.e2e.conftest import screenshot
from tests.e2e.helpers import log_out
from tests.e2e.test_staff_portal import staff_sign_in
from tests.factories import present

PATIENT = "patient@demo.medivisit.test"
DETAILS = "The nurse left after ten minutes without drawing the second sample."


async def _recent_visit(database_url: str) -> str:
    """One of Jordan's upcoming visits paid by card, moved to two hours ago and completed then through the
    ledger's own settlement (the demo's history has no visit of his inside the 72-hour window)."""
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            jordan = present(await session.scalar(select(User.id).where(User.email == PATIENT)))
            row = present(
                await session.scalar(
                    select(Appointment)
                    .join(VisitCharge, VisitCharge.appointment_id == Appointment.id)
                    .where(
                        Appointment.patient_id == jordan,
                        Appointment.status == AppointmentStatus.confirmed,
                        VisitCharge.paid_ahead.is_(True),
                    )
                    .order_by(Appointment.starts_at)
                    .limit(1)
                )
            )
            done = utcnow() - timedelta(hours=2)
            length = row.ends_at - row.starts_at
            row.starts_at, row.ends_at, row.busy_until = done - length, done, done
            row.started_at, row.completed_at, row.status = done - length, done, AppointmentStatus.completed
            await settle_completed_visit(session=session, row=row, at=done)
            return row.id
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    tmp = tmp_path_factory.mktemp("disputes")
    database_url = demo_database(tmp / "disputes.db")
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        visit_id = pool.submit(asyncio.run, _recent_visit(database_url)).result()
    server = start_server(
        tmp, DATABASE_URL=database_url, REMINDERS_ENABLED="false", EARNINGS_RELEASE_ENABLED="false"
    )
    yield server, visit_id
    stop_server(server)


def test_a_patient_reports_a_problem_and_the_owner_refunds_part_of_it(page: Page, site) -> None:  # noqa: ANN001
    site, visit_id = site
    signed_in_at(page, site, PATIENT, "/dashboard/appointments?tab=past")
    page.goto(site.url(f"/dashboard/appointments?tab=past&visit={visit_id}"))
    card = page.locator("article.appt-card[aria-current='true']")
    opener = card.get_by_role("button", name="Report a problem with this visit")
    opener.click()
    dialog = page.get_by_role("dialog", name="Report a problem with this visit")
    expect(dialog.get_by_label("What went wrong?")).to_be_focused()  # the focus moved into the dialog
    assert not violations(page, "the report dialog")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()  # given back to the button that opened it
    opener.click()
    dialog.get_by_role("button", name="Send report").click()
    expect(dialog.get_by_role("alert")).to_have_text("Choose what went wrong from the list.")
    dialog.get_by_label("What went wrong?").select_option(label="The visit was cut short or late")
    dialog.get_by_label("What happened").fill(DETAILS)
    dialog.get_by_role("button", name="Send report").click()
    expect(dialog).to_be_hidden()
    expect(card).to_contain_text("Problem reported — we're looking into it")
    expect(opener).to_have_count(0)
    log_out(page)

    staff_sign_in(page, site, "owner", "/staff/revenue")
    queue = page.get_by_role("region", name="Reported problems")
    row = queue.get_by_role("row").filter(has_text=DETAILS)
    expect(row).to_contain_text("The visit was cut short or late")
    row.get_by_role("button", name="Resolve the problem Jordan Lee reported").click()
    resolve = page.get_by_role("dialog", name="Resolve reported problem")
    resolve.get_by_label("Outcome").select_option("partial_refund")
    resolve.get_by_label("Amount to refund").fill("10.00")
    assert not violations(page, "the resolve dialog")
    resolve.get_by_label("Note to the patient").fill("We refunded the part of the visit that was missed.")
    resolve.get_by_role("button", name="Resolve", exact=True).click()
    expect(resolve).to_be_hidden()
    expect(queue).to_contain_text("No open reported problems.")
    screenshot(page, "staff-disputes-resolved")
    log_out(page)

    signed_in_at(page, site, PATIENT, "/dashboard/appointments?tab=past")
    page.goto(site.url(f"/dashboard/appointments?tab=past&visit={visit_id}"))
    card = page.locator("article.appt-card[aria-current='true']")
    expect(card).to_contain_text("Problem resolved — $10.00 partly refunded to your wallet")
    expect(card).to_contain_text("We refunded the part of the visit that was missed.")
    expect(card.get_by_role("button", name="Report a problem with this visit")).to_have_count(0)
    screenshot(page, "patient-dispute-outcome")
