"""My Appointments in Chromium: a signed-out visitor is sent to sign in; a patient sees their booked visits,
cancels one outside the 24-hour window and is told the policy inside it; their provider confirms, starts and
completes a pay-at-visit visit, recording a cash collection in the Complete dialog, and sees the platform's
fee "Owed to MediVisit" in their wallet; the patient then reviews it, and reschedules another visit on a phone.

The site gets its own database: the reference catalog, a patient, a provider with a profile open around the
clock, and orders written the way checkout leaves them (pending visits with their transactions).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.db import Database
from app.principal import SYSTEM
from app.services.accounts.internal import create_account, mark_enrollment_complete
from app.services.catalog.internal import ensure_reference_catalog
from app.services.providers import Hours, create_provider, set_weekly_hours
from models.booking import Appointment, AppointmentStatus, Order, Transaction, TransactionType
from models.catalog import Service, ServiceLocation
from models.identity import User
from tests.conftest import LiveServer, start_server, stop_server
from tests.e2e.conftest import open_page, page_errors, screenshot
from tests.e2e.helpers import log_out, path_of, sign_in, toasts
from tests.factories import present

PASSWORD = "Visit-Lifecycle-1"
PATIENT = "jordan@patients.medivisit.test"
PROVIDER = "ada@providers.medivisit.test"
DRAW = "Routine blood draw"
WOUNDS = "Wound care and dressing change"
HYDRATION = "Hydration IV (1 liter)"
PRESSURE = "Blood pressure and heart health screening"
POLICY = (
    "Visits can be cancelled or rescheduled up to 24 hours before they start. "
    "For a change inside 24 hours, please contact support."
)


def _half_hour_after(moment: datetime) -> datetime:
    """The next start on the providers' half-hour grid."""
    return moment.replace(minute=0, second=0, microsecond=0) + timedelta(
        minutes=30 if moment.minute < 30 else 60
    )


async def _seed(database_url: str) -> None:
    database = Database(database_url)
    now = datetime.now(UTC)
    days_ahead = (now + timedelta(days=3)).replace(hour=15, minute=0, second=0, microsecond=0)
    visits = (  # service, start, status
        ("routine-blood-draw", days_ahead, AppointmentStatus.pending),
        ("wound-care", _half_hour_after(now + timedelta(hours=6)), AppointmentStatus.confirmed),
        # Began a few minutes ago: it can be started, and completed (never before its start time).
        ("iv-hydration", _half_hour_after(now) - timedelta(minutes=30), AppointmentStatus.pending),
        ("blood-pressure-screening", days_ahead + timedelta(days=1, hours=1), AppointmentStatus.pending),
    )
    try:
        async with database.unit_of_work() as session:
            await ensure_reference_catalog(session=session)
            patient = await create_account(
                session=session, email=PATIENT, password=PASSWORD, role="patient", name="Jordan Lee"
            )
            patient_row = present(await session.get(User, patient.id))
            patient_row.raw_user_meta_data = {
                **patient_row.raw_user_meta_data,
                "phone_number": "+12125550100",
            }
            provider_account = await create_account(
                session=session, email=PROVIDER, password=PASSWORD, role="provider", name="Ada Nurse"
            )
            await mark_enrollment_complete(session=session, user_id=provider_account.id)
            provider = await create_provider(
                session=session,
                actor=SYSTEM,
                user_id=provider_account.id,
                first_name="Ada",
                last_name="Nurse",
                provider_type="nurse",
                license_type="RN",
                verified=True,
            )
            await set_weekly_hours(
                session=session,
                actor=SYSTEM,
                provider_id=provider.id,
                hours=[Hours(d, 0, 1440) for d in range(7)],
            )
            services = {s.slug: s for s in await session.scalars(select(Service))}
            for slug, start, status in visits:
                service = services[slug]
                order = Order(
                    number=f"MV-{secrets.token_hex(3).upper()}",
                    patient_id=patient.id,
                    subtotal=service.price,
                    platform_fee=(service.price * Decimal("0.05")).quantize(Decimal("0.01")),
                    total=(service.price * Decimal("1.05")).quantize(Decimal("0.01")),
                    payment_method="pay_at_visit",
                    created_at=now - timedelta(days=2),  # placed well before: no grace period left
                )
                session.add(order)
                await session.flush()
                visit = Appointment(
                    order_id=order.id,
                    patient_id=patient.id,
                    provider_id=provider.id,
                    service_id=service.id,
                    status=status,
                    starts_at=start,
                    ends_at=start + timedelta(minutes=service.duration_minutes),
                    busy_until=start + timedelta(minutes=service.duration_minutes + 30),
                    location=ServiceLocation.home,
                    address_line="12 Main St, Apt 4B",
                    city="New York",
                    state="NY",
                    zip_code="10001",
                    notes="Gate code 1234. The dog is friendly.",
                    price=service.price,
                    original_price=service.price,
                    created_at=now - timedelta(days=2),  # booked well before: no grace period left
                )
                session.add(visit)
                await session.flush()
                session.add_all(
                    [
                        Transaction(
                            order_id=order.id,
                            appointment_id=visit.id,
                            user_id=patient.id,
                            type=TransactionType.booking,
                            amount=service.price,
                        ),
                        Transaction(
                            order_id=order.id,
                            user_id=patient.id,
                            type=TransactionType.fee,
                            amount=order.platform_fee,
                        ),
                    ]
                )
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("appointments")
    database_url = f"sqlite:///{tmp / 'appointments.db'}"
    server = start_server(tmp, DATABASE_URL=database_url, REMINDERS_ENABLED="false")
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        pool.submit(asyncio.run, _seed(database_url)).result()
    yield server
    stop_server(server)


def visit_card(page: Page, service: str):  # noqa: ANN201 - Locator
    return page.get_by_role("article", name=service)


def signed_in(page: Page, site: LiveServer, email: str, path: str) -> None:
    """Sign in and land on `path` with the visits loaded (the sign-in toast closed, for the screenshots)."""
    sign_in(page, site, email, PASSWORD, path=f"/login?redirect={quote(path)}")
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))
    expect(page.locator(".appts[aria-busy='false']")).to_be_visible()
    toasts(page, "Authentication successful").get_by_role("button", name="Close notification").click()


def test_a_signed_out_visitor_is_asked_to_sign_in(site: LiveServer, page: Page) -> None:
    open_page(page, site.url("/appointments"))
    expect(page).to_have_url(re.compile(r"/login\?redirect=(/|%2F)appointments$"))
    expect(toasts(page, "Please log in to see your appointments")).to_be_visible()


def test_visit_lifecycle(site: LiveServer, page: Page) -> None:
    # The patient sees every booked visit with its details.
    signed_in(page, site, PATIENT, "/appointments")
    expect(page.get_by_role("heading", name="My Appointments", level=1)).to_be_visible()
    for service in (HYDRATION, WOUNDS, DRAW, PRESSURE):
        expect(visit_card(page, service)).to_be_visible()
    draw = visit_card(page, DRAW)
    expect(draw).to_contain_text("with Ada Nurse")
    expect(draw).to_contain_text("Home: 12 Main St, Apt 4B, New York, NY 10001")
    expect(draw).to_contain_text("$79")
    expect(draw).to_contain_text(re.compile(r"Order MV-[0-9A-F]{6}"))
    expect(draw.locator(".appt-status")).to_have_text("Pending")
    expect(visit_card(page, WOUNDS).locator(".appt-status")).to_have_text("Confirmed")
    screenshot(page, "appointments-patient-desktop", full_page=True)

    # Cancelling outside the 24-hour window.
    draw.get_by_role("button", name="Cancel visit").click()
    dialog = page.get_by_role("dialog", name="Cancel this visit?")
    expect(dialog).to_contain_text(DRAW)
    dialog.get_by_label("Reason (optional)").fill("Feeling better")
    screenshot(page, "appointments-cancel-dialog-desktop")
    dialog.get_by_role("button", name="Cancel visit").click()
    expect(toasts(page, "Visit cancelled")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(visit_card(page, DRAW)).to_have_count(0)

    # Inside 24 hours, confirmed and booked long ago: no buttons that can only fail, the rule said once.
    wounds = visit_card(page, WOUNDS)
    expect(wounds.get_by_role("button", name="Cancel visit")).to_have_count(0)
    expect(wounds.get_by_role("button", name="Reschedule")).to_have_count(0)
    expect(wounds.locator(".appt-change-note")).to_have_text(f"{POLICY} Contact support")
    expect(wounds.get_by_role("link", name="Contact support")).to_have_attribute("href", "/contact")
    screenshot(page, "appointments-policy-desktop")
    expect(wounds.locator(".appt-status")).to_have_text("Confirmed")

    page.get_by_role("tab", name="Past").click()
    expect(page).to_have_url(re.compile(r"/appointments\?tab=past$"))
    cancelled = visit_card(page, DRAW)
    expect(cancelled.locator(".appt-status")).to_have_text("Cancelled")
    expect(cancelled).to_contain_text("Cancelled by the patient: Feeling better")
    log_out(page)

    # The provider confirms, starts and completes the visit starting within the hour.
    signed_in(page, site, PROVIDER, "/dashboard/appointments")
    hydration = visit_card(page, HYDRATION)
    expect(hydration).to_contain_text("Jordan Lee")
    expect(hydration).to_contain_text("Gate code 1234. The dog is friendly.")
    # The patient's phone number is not sent with the schedule; the provider asks for it (audited).
    assert "555-0100" not in page.content() and "+12125550100" not in page.content()
    hydration.get_by_role("button", name="Show patient's phone").click()
    call = hydration.get_by_role("link", name="Call (212) 555-0100")
    expect(call).to_have_attribute("href", "tel:+12125550100")
    expect(call).to_be_focused()
    screenshot(page, "appointments-provider-desktop", full_page=True)
    for button, toast, status in (
        ("Confirm", "Visit confirmed", "Confirmed"),
        ("Start visit", "Visit started", "In progress"),
    ):
        hydration.get_by_role("button", name=button).click()
        expect(toasts(page, toast).first).to_be_visible()
        expect(hydration.locator(".appt-status")).to_have_text(status)
    # Pay at visit: completing asks what was collected, prefilled with the visit's total due ($149 + 5 %).
    hydration.get_by_role("button", name="Complete visit").click()
    dialog = page.get_by_role("dialog", name="Complete this visit")
    amount = dialog.get_by_label("Amount collected")
    expect(amount).to_be_focused()  # the kit moves the focus into the dialog
    expect(amount).to_have_value("156.45")
    dialog.get_by_label("How it was paid").select_option("cash")
    screenshot(page, "appointments-collect-dialog-desktop")
    dialog.get_by_role("button", name="Complete visit").click()
    expect(toasts(page, "Visit completed").first).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(hydration).to_have_count(0)  # done: now among the past visits
    page.get_by_role("tab", name="Past").click()
    expect(visit_card(page, HYDRATION).locator(".appt-status")).to_have_text("Completed")
    expect(visit_card(page, HYDRATION)).to_contain_text("Collected at visit (cash): $156.45")
    # The provider keeps the cash; the platform's fee in it is owed to MediVisit, netted at their next payout.
    open_page(page, site.url("/dashboard/provider-wallet"))
    balances = page.get_by_role("region", name="Your balances")
    expect(balances.get_by_role("article", name="Owed to MediVisit")).to_contain_text("$7.45")
    expect(balances.get_by_role("article", name="Pending")).to_contain_text("$0.00")
    expect(balances).to_contain_text("Collected at visits (cash / card reader / other): $149.00")
    statement = page.get_by_role("table", name="Statement per visit")
    expect(statement.get_by_role("row").filter(has_text=HYDRATION)).to_contain_text(
        "Collected at visit (cash)"
    )
    log_out(page)

    # The patient reviews it, once.
    signed_in(page, site, PATIENT, "/appointments?tab=past")
    done = visit_card(page, HYDRATION)
    done.get_by_role("button", name="Leave a review").click()
    dialog = page.get_by_role("dialog", name="Review your visit")
    dialog.get_by_role("radio", name="5 stars").click()
    expect(dialog.get_by_role("radio", name="5 stars")).to_have_attribute("aria-checked", "true")
    dialog.get_by_label("Your review (optional)").fill("Quick, gentle and on time.")
    screenshot(page, "appointments-review-desktop")
    dialog.get_by_role("button", name="Submit review").click()
    expect(toasts(page, "Thanks for your review")).to_be_visible()
    expect(done.get_by_text("Reviewed")).to_be_visible()
    expect(done.get_by_role("button", name="Leave a review")).to_have_count(0)
    assert page_errors(page) == []


def test_reschedule_on_a_phone(site: LiveServer, mobile_page: Page) -> None:
    page = mobile_page
    signed_in(page, site, PATIENT, "/appointments")
    card = visit_card(page, PRESSURE)
    expect(card).to_be_visible()
    screenshot(page, "appointments-patient-mobile", full_page=True)
    before = card.locator(".appt-facts li").first.inner_text()
    card.get_by_role("button", name="Reschedule").click()
    dialog = page.get_by_role("dialog", name="Reschedule visit")
    times = dialog.get_by_role("group", name="Open times").get_by_role("button")
    expect(times.first).to_be_visible()
    times.nth(3).click()
    expect(times.nth(3)).to_have_attribute("aria-pressed", "true")
    screenshot(page, "appointments-reschedule-mobile")
    dialog.get_by_role("button", name="Move visit").click()
    expect(toasts(page, "Visit rescheduled")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(card.locator(".appt-facts li").first).not_to_have_text(before)
    expect(card.locator(".appt-status")).to_have_text("Pending")
    assert path_of(page.url) == "/appointments"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert page_errors(page) == []
