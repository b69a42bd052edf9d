"""Who pays for a discount (issue 29, item 6) on SQLite and, with TEST_DATABASE_URL, PostgreSQL.

An IV visit booked during the flash sale (on every day unless FLASH_SALE_DAY says otherwise: the test pins it
to Monday 7 January 2030, the day the visits are booked) costs the patient 30 % less. The business setting
"Who pays for discounts" decides who carries it, and the choice in force when the order is booked is recorded
on the visit's charge. Platform-funded (the default): the provider earns their full price and the platform's
fee leg carries the discount; provider-funded: their earning is the discounted price. After each step every
entry balances and `check_ledger` holds.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import date, timedelta
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.features import list_features, set_feature
from app.services.ledger import (
    get_provider_balances,
    get_revenue_summary,
    list_provider_statement,
    monthly_statement_pdf,
    refund_visit,
)
from app.services.ledger.internal import check_ledger, release_due_earnings
from app.settings import get_settings
from models.account import Role
from models.catalog import ServiceLocation
from models.ledger import EntryKind, JournalEntry, LedgerAccount, Posting, StatementLineRead, VisitCharge
from pages.dashboard.provider_wallet import price_cell
from tests.factories import ZIP, person, provider, run
from tests.unit.test_booking import NINE, NOW
from tests.unit.test_ledger import World, money

IV_PRICE = 14_000  # the provider's price for a Hydration IV, in cents
CHARGED = 9_800  # 30 % off
DISCOUNT = 4_200
FEE = 490  # 5 % of the charged price
DONE = NINE + timedelta(hours=1)


async def build_world() -> World:
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        provider=nurse,
        provider_id=await provider(
            "Ada Nurse", owner=nurse, offers={"iv-hydration": ("140", ()), "routine-blood-draw": ("79", ())}
        ),
        owner=await person(Role.owner, "Olive Owner"),
        other_owner=await person(Role.owner, "Otto Owner"),
        manager=await person(Role.management, "Mia Manager"),
    )


@pytest.fixture
async def world(identity, monkeypatch, world_once) -> AsyncIterator[World]:
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    monkeypatch.setenv("FLASH_SALE_DAY", "2030-01-07")  # the day NOW falls on (in New York)
    get_settings.cache_clear()
    built = await world_once(build_world)
    yield built
    monkeypatch.undo()
    get_settings.cache_clear()


async def book(world: World, service: str = "iv-hydration", starts_at=NINE) -> str:  # noqa: ANN001
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=world.patient.actor,
            service_slug=service,
            provider_id=world.provider_id,
            starts_at=starts_at,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    line = CheckoutLine(
        hold_id=held.id, location="home", address_line="12 Main St", city="New York", state="NY", zip_code=ZIP
    )
    order = await run(place_order, actor=world.patient.actor, lines=[line], now=NOW)
    return order.appointments[0].id


async def complete(world: World, visit_id: str, collected: str | None = None, starts_at=NINE) -> None:  # noqa: ANN001
    actor = world.provider.actor
    await run(visits.confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(visits.start_appointment, actor=actor, appointment_id=visit_id, now=starts_at)
    await run(
        visits.complete_appointment,
        actor=actor,
        appointment_id=visit_id,
        now=starts_at + timedelta(hours=1),
        collected=collected,
        method="cash" if collected else "",
    )


async def holds() -> dict[str, int]:
    """Every entry balances, each kept balance is its postings' sum, and `check_ledger` holds; returns every
    account's balance (cents) by id."""
    async with app_db.unit_of_work() as session:
        unbalanced = await session.scalar(
            select(func.count()).select_from(
                select(Posting.entry_id)
                .group_by(Posting.entry_id)
                .having(func.sum(Posting.amount) != 0)
                .subquery()
            )
        )
        assert unbalanced == 0
        sums = dict(
            (
                await session.execute(
                    select(Posting.account_id, func.sum(Posting.amount)).group_by(Posting.account_id)
                )
            ).all()
        )
        kept = dict((await session.execute(select(LedgerAccount.id, LedgerAccount.balance))).all())
    assert all(sums.get(key, 0) == balance for key, balance in kept.items())
    checked = await run(check_ledger)
    assert checked.holds, checked.breaks
    return {key: int(total) for key, total in sums.items()}


async def legs_of(visit_id: str, kind: EntryKind) -> list[tuple[str, int]]:
    async with app_db.unit_of_work() as session:
        rows = await session.execute(
            select(Posting.account_id, Posting.amount)
            .join(JournalEntry, JournalEntry.id == Posting.entry_id)
            .where(JournalEntry.appointment_id == visit_id, JournalEntry.kind == kind)
        )
        return sorted((account, int(amount)) for account, amount in rows.tuples())


async def charge_of(visit_id: str) -> VisitCharge:
    async with app_db.unit_of_work() as session:
        return await session.get_one(VisitCharge, visit_id)


async def statement_line(world: World) -> StatementLineRead:
    return (await run(list_provider_statement, actor=world.provider.actor)).items[0]


async def test_platform_funded_by_default_the_provider_earns_the_full_price(world, paid_ahead) -> None:
    setting = next(
        f
        for f in await run(list_features, actor=world.owner.actor, group="business")
        if f.key == "discount_funding"
    )
    assert (setting.label, setting.value, setting.kind) == ("Who pays for discounts", "platform", "choice")
    visit_id = await book(world)
    charge = await charge_of(visit_id)
    assert (charge.price, charge.fee, charge.discount, charge.discount_funded_by) == (
        CHARGED,
        FEE,
        DISCOUNT,
        "platform",
    )
    await complete(world, visit_id)
    after = await holds()
    p, patient = world.provider_id, world.patient.id
    assert await legs_of(visit_id, EntryKind.visit_completed) == sorted(
        [
            (f"patient_booked:{patient}", -(CHARGED + FEE)),
            (f"provider_pending:{p}", IV_PRICE),
            ("platform_fees", FEE - DISCOUNT),
        ]
    )
    assert after[f"provider_pending:{p}"] == IV_PRICE
    assert after["platform_fees"] == FEE - DISCOUNT  # the discount is the platform's cost

    line = await statement_line(world)
    assert (line.price, line.original_price, line.discount, line.discount_funded_by, line.earning) == (
        money("98.00"),
        money("140.00"),
        money("42.00"),
        "platform",
        money("140.00"),
    )
    assert line.discount_note == "Flash sale −$42.00, funded by MediVisit"
    assert "Flash sale −$42.00, funded by MediVisit" in str(price_cell(line))
    pdf = await run(monthly_statement_pdf, actor=world.provider.actor, month="2030-01")
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf.content)).pages
    )
    assert "Flash sale −$42.00, funded by MediVisit" in text and "$140.00" in text
    summary = await run(get_revenue_summary, actor=world.owner.actor, granularity="month")
    assert (summary.totals.gross, summary.totals.fees, summary.totals.net) == (
        money("102.90"),
        money("-37.10"),
        money("-37.10"),
    )

    assert await run(release_due_earnings, now=DONE + timedelta(hours=80)) == 1
    released = await holds()
    assert released[f"provider_available:{p}"] == IV_PRICE
    assert released.get(f"provider_pending:{p}", 0) == 0
    balances = await run(get_provider_balances, actor=world.provider.actor)
    assert (balances.pending, balances.available) == (0, money("140.00"))


async def test_provider_funded_the_earning_is_the_discounted_price(world, paid_ahead) -> None:
    await run(set_feature, actor=world.owner.actor, key="discount_funding", value="provider")
    visit_id = await book(world)
    await complete(world, visit_id)
    after = await holds()
    assert after[f"provider_pending:{world.provider_id}"] == CHARGED
    assert after["platform_fees"] == FEE
    assert await run(release_due_earnings, now=DONE + timedelta(hours=80)) == 1
    assert (await holds())[f"provider_available:{world.provider_id}"] == CHARGED
    line = await statement_line(world)
    assert (line.earning, line.discount_funded_by) == (money("98.00"), "provider")
    assert line.discount_note == "Flash sale −$42.00, funded by you"


async def test_changing_the_setting_after_booking_keeps_the_booked_visit(world, paid_ahead) -> None:
    visit_id = await book(world)  # booked platform-funded
    await run(set_feature, actor=world.owner.actor, key="discount_funding", value="provider")
    # No discount: nothing is recorded, whatever the setting says.
    later = await book(world, "routine-blood-draw", starts_at=NINE + timedelta(hours=3))
    await complete(world, visit_id)
    await complete(world, later, starts_at=NINE + timedelta(hours=3))
    after = await holds()
    assert after[f"provider_pending:{world.provider_id}"] == IV_PRICE + 7_900
    assert after["platform_fees"] == FEE - DISCOUNT + 395
    plain = await charge_of(later)
    assert (plain.discount, plain.discount_funded_by) == (0, None)
    assert (await charge_of(visit_id)).discount_funded_by == "platform"


async def test_a_partial_refund_of_a_platform_funded_visit_reverses_in_proportion(world, paid_ahead) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    refunded = await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", amount=Decimal("51.45")
    )
    assert refunded == money("51.45")
    half = await holds()
    p = world.provider_id
    # Half of the visit: half of the provider's full-price earning and half of the platform's net (−$37.10).
    assert half[f"provider_pending:{p}"] == IV_PRICE // 2
    assert half["platform_fees"] == (FEE - DISCOUNT) // 2
    assert half[f"patient_credit:{world.patient.id}"] == 5_145
    line = await statement_line(world)
    assert (line.refunded, line.earning) == (money("70.00"), money("70.00"))
    # The rest after the dispute window: from the released earning, and the platform's net is back to 0.
    assert await run(release_due_earnings, now=DONE + timedelta(hours=80)) == 1
    assert (await holds())[f"provider_available:{p}"] == IV_PRICE // 2
    await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late")
    final = await holds()
    assert final.get(f"provider_available:{p}", 0) == 0 and final.get("platform_fees", 0) == 0
    assert final[f"patient_credit:{world.patient.id}"] == CHARGED + FEE
    charge = await charge_of(visit_id)
    assert (charge.refunded_earning, charge.refunded_fee, charge.refunded_discount) == (
        CHARGED,
        FEE,
        DISCOUNT,
    )


async def test_pay_at_visit_in_cash_platform_funded(world) -> None:
    visit_id = await book(world)
    await complete(world, visit_id, collected="102.90")
    after = await holds()
    p = world.provider_id
    # The provider keeps the $102.90 in cash; the fee ($4.90) is less than the discount ($42.00), so they owe
    # us nothing and we owe them the $37.10 the discount exceeds it by, on their available balance.
    assert await legs_of(visit_id, EntryKind.collected_at_visit) == sorted(
        [
            (f"patient_booked:{world.patient.id}", -(CHARGED + FEE)),
            ("world", CHARGED + FEE),
            (f"provider_available:{p}", DISCOUNT - FEE),
            ("platform_fees", FEE - DISCOUNT),
        ]
    )
    assert after.get(f"provider_receivable:{p}", 0) == 0
    assert after[f"provider_available:{p}"] == DISCOUNT - FEE
    balances = await run(get_provider_balances, actor=world.provider.actor)
    assert (balances.available, balances.owed_to_platform) == (money("37.10"), 0)
    line = await statement_line(world)
    assert (line.earning, line.collected_in_person, line.payment_due) == (money("140.00"), True, 0)
    summary = await run(get_revenue_summary, actor=world.owner.actor, granularity="month")
    assert summary.totals.fees == money("-37.10")
    assert await run(release_due_earnings, now=DONE + timedelta(hours=80)) == 0  # nothing waits in a window


async def test_no_discount_changes_nothing(world, paid_ahead, monkeypatch) -> None:
    monkeypatch.setenv("FLASH_SALE_DAY", date(2030, 1, 9).isoformat())  # not the booking day
    get_settings.cache_clear()
    visit_id = await book(world)
    await complete(world, visit_id)
    after = await holds()
    charge = await charge_of(visit_id)
    assert (charge.price, charge.discount, charge.discount_funded_by) == (IV_PRICE, 0, None)
    assert after[f"provider_pending:{world.provider_id}"] == IV_PRICE
    assert after["platform_fees"] == 700
    line = await statement_line(world)
    assert (line.original_price, line.discount_funded_by, line.discount_note) == (None, None, "")
    assert price_cell(line) == "$140.00"
