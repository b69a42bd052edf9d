"""A visit's money on My Appointments (components/appointment_ui.py, issue 29 item 1): which visits complete
through the collection dialog, and the "Payment due $X" line both the patient and the provider read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from components import appointment_ui
from models.booking import AppointmentRead, AppointmentStatus
from models.catalog import ServiceLocation
from models.ledger import VisitPaymentRead
from tests.ui.harness import text

START = datetime(2030, 1, 7, 14, tzinfo=UTC)


def visit(status: AppointmentStatus, payment: VisitPaymentRead | None) -> AppointmentRead:
    return AppointmentRead(
        id="a1",
        order_id="o1",
        order_number="MV-ABC123",
        patient_id="u1",
        patient_name="Jordan Lee",
        provider_id="p1",
        provider_name="Ada Nurse",
        provider_user_id="u2",
        service_id="s1",
        service_slug="routine-blood-draw",
        service_name="Routine blood draw",
        status=status,
        starts_at=START,
        ends_at=START + timedelta(minutes=30),
        hold_expires_at=None,
        location=ServiceLocation.home,
        address_line="12 Main St",
        city="New York",
        state="NY",
        zip_code="10001",
        notes="",
        price=Decimal("79"),
        original_price=Decimal("79"),
        cancelled_by="",
        cancel_reason="",
        payment=payment,
    )


def money(*, paid_ahead: bool = False, collected: str = "0", method: str | None = None) -> VisitPaymentRead:
    total = Decimal("82.95")
    return VisitPaymentRead(
        appointment_id="a1",
        paid_ahead=paid_ahead,
        total=total,
        collected=Decimal(collected),
        due=Decimal(0) if paid_ahead else total - Decimal(collected),
        collection_method=method,
    )


def test_only_a_pay_at_visit_visit_asks_what_was_collected() -> None:
    assert appointment_ui.collects_at_visit(visit(AppointmentStatus.in_progress, money()))
    assert not appointment_ui.collects_at_visit(visit(AppointmentStatus.in_progress, money(paid_ahead=True)))
    assert not appointment_ui.collects_at_visit(visit(AppointmentStatus.in_progress, None))


def test_payment_due_is_said_to_the_patient_and_the_provider() -> None:
    due = visit(AppointmentStatus.completed, money(collected="50", method="cash"))
    assert appointment_ui.payment_due(due) == Decimal("32.95")
    assert "Payment due $32.95" in text(appointment_ui._payment_line(due, provider=False))
    assert "Record what the patient pays you" in text(appointment_ui._payment_line(due, provider=True))
    # Not yet completed: owed at the visit, not "due".
    assert appointment_ui.payment_due(visit(AppointmentStatus.in_progress, money())) == 0
    settled = visit(AppointmentStatus.completed, money(collected="82.95", method="card_reader"))
    assert appointment_ui._payment_line(settled, provider=False) == ""
    assert text(appointment_ui._payment_line(settled, provider=True)) == (
        "Collected at visit (card reader): $82.95"
    )
    assert (
        appointment_ui._payment_line(visit(AppointmentStatus.completed, money(paid_ahead=True)), True) == ""
    )
