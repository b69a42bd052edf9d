"""The staff visit details' money section (components/visit_money.py) driven through its hooks on a real database:
only payments staff get it (and the service refuses anyone else), a partial refund prefilled with what is
left, an over-refund and a malformed amount refused with their messages, goodwill credit to the visit's
patient; the patient is notified of both and the Wallet lists them under its Refund and Goodwill credit
filters. The order page's totals are the receipt's: a credit line per cancelled visit and refund, then the
total, paid, refunded and due."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.errors import PermissionDenied
from app.services.ledger import refund_visit
from app.settings import get_settings
from components.context import SessionContext, UiSession
from components.order_ui import receipt_totals
from components.visit_money import BAD_AMOUNT, VisitMoney
from medivisit.reactpy_compat import hook_stack
from models.booking import AppointmentStatus, OrderStatus
from models.ledger import VisitCharge
from models.notification import Notification, NotificationKind
from models.receipt import CreditKind, ReceiptCreditRead, ReceiptRead, ReceiptVisitRead
from models.staff import Permission
from pages.dashboard import wallet
from pages.dashboard.wallet import WalletFilters
from staff import visit_dialog
from tests.factories import Person, run
from tests.ui.harness import Mounted, find_all, mount, text, ui_session, until
from tests.unit.test_receipts import book_two, build_world, complete


@pytest.fixture
def pay_at_visit_env(configured, monkeypatch, tmp_path) -> Iterator[None]:
    hook_stack.install()  # as the server does at startup
    monkeypatch.setenv("PASSWORD_HASH_MEMORY_KIB", "1024")
    monkeypatch.setenv("PASSWORD_HASH_TIME_COST", "1")
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def world_env(pay_at_visit_env, paid_ahead) -> None:
    """Visits paid at checkout (tests/conftest.py's paid_ahead), with earnings to refund."""


def as_(who: Person) -> UiSession:
    return ui_session(who, time_zone="America/New_York")


def wallet_history(patient: Person, kind: str) -> Callable[[], Any]:
    """The patient's Wallet history with its Kind filter set to `kind`, as /dashboard/wallet?kind= shows it."""
    return lambda: SessionContext(wallet._History(WalletFilters(kind=kind)), value=as_(patient))


def alerts(ui: Mounted) -> str:
    return " ".join(text(found) for found in ui.find_all(role="alert"))


async def submit(ui: Mounted, form_id: str, **values: str) -> None:
    for name, value in values.items():
        await ui.type(ui.find("input" if name == "amount" else "textarea", name=name), value)
    await ui.fire(ui.find("form", id=form_id), "on_submit")


async def test_payments_staff_record_a_payment_due_collected_later_in_person(pay_at_visit_env) -> None:
    world = await build_world()
    _number, (_draw, iv) = await book_two(world)
    await complete(world, iv)  # the provider completed it without recording a collection: payment due
    async with mount(lambda: SessionContext(VisitMoney(iv, lambda: None), value=as_(world.owner))) as ui:
        await until(ui, lambda: "Payment due" in text(ui.model))
        due = text(ui.find_all("dd")[-1]).split(" ")[0]
        await ui.fire(ui.find("button", text="Record payment"))
        assert f"${ui.find('input', name='amount')['attributes']['default_value']}" == due

        await submit(ui, "record-form", amount="0")
        await until(ui, lambda: bool(alerts(ui)))
        await ui.fire(ui.find("select", name="method"), "on_change", {"target": {"value": "cash"}})
        await submit(ui, "record-form", amount=due)
        await until(ui, lambda: "Payment due" not in text(ui.model))
        assert not ui.find_all("button", text="Record payment")
    async with app_db.unit_of_work() as session:
        charge = await session.get_one(VisitCharge, iv)
        assert (charge.collected, charge.collection_method) == (charge.price + charge.fee, "cash")


async def test_payments_staff_refund_part_of_a_visit_and_give_credit(world_env) -> None:
    world = await build_world()
    _number, (_draw, iv) = await book_two(world)
    await complete(world, iv)
    changed: list[bool] = []
    async with mount(
        lambda: SessionContext(VisitMoney(iv, lambda: changed.append(True)), value=as_(world.owner))
    ) as ui:
        await until(ui, lambda: "Left to refund" in text(ui.model))
        left = text(ui.find_all("dd")[-1])
        await ui.fire(ui.find("button", text="Refund"))
        amount = ui.find("input", name="amount")
        assert f"${amount['attributes']['default_value']}" == left  # prefilled with all that is left

        await submit(ui, "refund-form", amount="1000", reason="Arrived late")
        await until(ui, lambda: bool(alerts(ui)))
        assert "Refund between $0.01 and $" in text(ui.find(role="alert"))
        await submit(ui, "refund-form", amount="twenty")
        assert text(ui.find(role="alert")) == BAD_AMOUNT
        await submit(ui, "refund-form", amount="20", reason="  ")
        await until(ui, lambda: "reason for the refund" in alerts(ui))

        await submit(ui, "refund-form", amount="$20.00", reason="Arrived late")
        await until(ui, lambda: bool(ui.find_all("li", class_="visit-refund")))
        refunds = text(ui.find("ul", class_="visit-refunds"))
        assert (
            "$20.00 refunded" in refunds and "by Olive Owner" in refunds and "Reason: Arrived late" in refunds
        )
        assert changed and not ui.find_all("form")

        await ui.fire(ui.find("button", text="Give credit"))
        await submit(ui, "credit-form", amount="15", reason="Sorry for the wait")
        await until(ui, lambda: not ui.find_all("form"))

    async with app_db.unit_of_work() as session:
        told = await session.scalars(
            select(Notification.title)
            .where(
                Notification.recipient_id == world.patient.id,
                Notification.kind == NotificationKind.wallet_credit,
            )
            .order_by(Notification.title)
        )
        assert list(told) == ["$15.00 was added to your wallet", "$20.00 was added to your wallet"]
    for kind, line in (("refund", "$20.00"), ("credit_adjustment", "$15.00")):
        async with mount(wallet_history(world.patient, kind)) as patient_ui:
            await until(patient_ui, lambda: bool(patient_ui.find_all("tbody")))
            rows = text(patient_ui.find("tbody"))
            assert line in rows and rows.count("$") == 1, rows


async def test_without_process_payments_there_is_no_money_section_and_the_service_refuses(world_env) -> None:
    world = await build_world()
    _number, (_draw, iv) = await book_two(world)
    await complete(world, iv)
    everything_else = frozenset(Permission) - {Permission.process_payments}
    assert visit_dialog.money_section(iv, everything_else, lambda: None) == ""
    async with mount(lambda: SessionContext(VisitMoney(iv, lambda: None), value=as_(world.manager))) as ui:
        await until(ui, lambda: "Refund" not in text(ui.model) and "Loading" not in text(ui.model))
        assert not ui.find_all("button", text="Refund") and not ui.find_all("button", text="Give credit")
    with pytest.raises(PermissionDenied):
        await run(refund_visit, actor=world.manager.actor, appointment_id=iv, reason="x", amount=Decimal(1))


def test_the_order_pages_totals_are_the_receipts_with_one_credit_line_per_cancellation_or_refund() -> None:
    at = datetime(2030, 1, 7, 14, tzinfo=UTC)
    visits = [
        ReceiptVisitRead(
            appointment_id=visit_id,
            service_name=name,
            provider_name="Ada Nurse",
            starts_at=at,
            status=status,
            price=Decimal(price),
            fee=Decimal(fee),
        )
        for visit_id, name, status, price, fee in (
            ("a1", "Routine blood draw", AppointmentStatus.cancelled, "85", "4.25"),
            ("a2", "Hydration IV (1 liter)", AppointmentStatus.completed, "111.30", "5.57"),
        )
    ]
    credits = [
        ReceiptCreditRead(
            kind=CreditKind.cancelled,
            appointment_id="a1",
            service_name="Routine blood draw",
            visit_starts_at=at,
            at=at,
            amount=Decimal("89.25"),
        ),
        ReceiptCreditRead(
            kind=CreditKind.refund,
            appointment_id="a2",
            service_name="Hydration IV (1 liter)",
            visit_starts_at=at,
            at=at,
            amount=Decimal("20"),
        ),
    ]
    receipt = ReceiptRead(
        order_id="o1",
        number="MV-ABC123",
        status=OrderStatus.paid,
        payment_method="pay_at_visit",
        paid_ahead=False,
        created_at=at,
        visits=visits,
        credits=credits,
        subtotal=Decimal("196.30"),
        platform_fee=Decimal("9.82"),
        charged=Decimal("206.12"),
        credited=Decimal("109.25"),
        total=Decimal("96.87"),
        paid=Decimal("116.87"),
        refunded=Decimal("20"),
        due=Decimal("0"),
    )
    rows = [text(row) for row in find_all(receipt_totals(receipt, "Total", "America/New_York"), "div")]
    assert rows == [
        "Subtotal $196.30",
        "Platform fee (5%) $9.82",
        "Cancelled — Routine blood draw, Jan 7, 2030 -$89.25",
        "Refunded as wallet credit — Hydration IV (1 liter), Jan 7, 2030 (on Jan 7, 2030) -$20",
        "Total $96.87",
        "Paid $116.87",
        "Refunded -$20",
        "Net paid $96.87",
        "Due $0",
    ]
