"""The demo's money through the ledger (issue 29, item 7): on a fresh demo `check_ledger` finds no break,
Revenue's figures for a period are the completed visits' prices and fees in it (summed here in SQL from the
visits and orders, not from the ledger), Analytics counts the visits the ledger settled in the same days,
and every provider's wallet holds what their completed visits earned (pending, available, in payout or
paid out). Runs on the demo test_demo_marketplace seeds once per database kind.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import and_, func, select

from app import db as app_db
from app.principal import Principal
from app.services.accounts import demo_email
from app.services.analytics import get_analytics
from app.services.ledger import get_provider_balances, get_revenue_summary
from app.services.ledger.internal import check_ledger
from models.account import Role
from models.analytics import AnalyticsRange
from models.booking import Appointment, AppointmentStatus, Order, Transaction, TransactionType
from models.identity import User, as_utc
from models.ledger import AccountKind, EntryKind, JournalEntry, LedgerAccount, PayoutRequest, PayoutStatus
from models.provider import Provider
from tests import factories
from tests.unit import test_demo_marketplace

demo = test_demo_marketplace.demo  # the demo seeded once per database kind, a copy for each test
DAYS = 30
COMPLETED = Appointment.status == AppointmentStatus.completed


async def _signed_in(role: Role) -> Principal:
    async with app_db.unit_of_work() as session:
        user_id = await session.scalar(select(User.id).where(User.email == demo_email(role)))
    assert user_id is not None
    return await factories.sign_in(user_id)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), UTC)


async def _window() -> tuple[date, date]:
    """The last DAYS whole UTC days before today with no completed visit across either edge. Analytics
    counts a visit on the day it starts and the ledger settles it when it ends: a visit started before an
    edge and completed after it is in one and not the other, so the test steps back a day past any."""
    async with app_db.unit_of_work() as session:
        spans = [
            (as_utc(start), as_utc(end))
            for start, end in (await session.execute(select(Appointment.starts_at, Appointment.completed_at).where(COMPLETED))).all()
        ]  # fmt: skip
    end = datetime.now(UTC).date() - timedelta(days=1)
    for _step in range(DAYS):
        start = end - timedelta(days=DAYS - 1)
        edges = (_midnight(start), _midnight(end + timedelta(days=1)))
        if not any(began < edge <= ended for began, ended in spans for edge in edges):
            return start, end
        end -= timedelta(days=1)
    raise AssertionError("every window of the last two months has a visit across an edge")


async def test_the_ledger_check_passes_on_a_fresh_demo(demo) -> None:
    async with app_db.unit_of_work() as session:
        checked = await check_ledger(session=session)
        completed = await session.scalar(select(func.count()).select_from(Appointment).where(COMPLETED))
        settled = await session.scalar(
            select(func.count(func.distinct(JournalEntry.appointment_id))).where(
                JournalEntry.kind == EntryKind.visit_completed
            )
        )
    assert checked.breaks == ()
    assert completed and settled == completed > 300  # every completed visit, not a dozen of them
    assert checked.entries > 3 * completed  # booked, completed and (most) released, each an entry


async def test_revenue_and_analytics_count_the_same_visits_and_money(demo) -> None:
    start, end = await _window()
    since, until = _midnight(start), _midnight(end + timedelta(days=1))
    in_window = and_(COMPLETED, Appointment.completed_at >= since, Appointment.completed_at < until)
    async with app_db.unit_of_work() as session:
        # Independently of the ledger: the visits completed in the window, their prices and their orders'
        # fees (one visit per demo order), and the refunds and payouts of the window from their own rows.
        # The demo's flash-sale discounts were funded by its providers: the fees are the orders' own.
        visits, prices, fees = (
            await session.execute(
                select(func.count(), func.sum(Appointment.price), func.sum(Order.platform_fee))
                .join(Order, Order.id == Appointment.order_id)
                .where(in_window)
            )
        ).one()
        refunds = await session.scalar(
            select(func.coalesce(func.sum(Transaction.amount), 0)).where(
                Transaction.type == TransactionType.refund,
                Transaction.created_at >= since,
                Transaction.created_at < until,
            )
        )
        paid_out = await session.scalar(
            select(func.coalesce(func.sum(PayoutRequest.amount), 0)).where(
                PayoutRequest.status == PayoutStatus.paid,
                PayoutRequest.closed_at >= since,
                PayoutRequest.closed_at < until,
            )
        )
        settled = await session.scalar(
            select(func.count(func.distinct(JournalEntry.appointment_id))).where(
                JournalEntry.kind == EntryKind.visit_completed,
                JournalEntry.created_at >= since,
                JournalEntry.created_at < until,
            )
        )
    owner = await _signed_in(Role.owner)
    revenue = await factories.run(
        get_revenue_summary, actor=owner, granularity="day", since=since, until=until
    )
    analytics = await factories.run(
        get_analytics, actor=owner, dates=AnalyticsRange(start=start, end=end, granularity="day")
    )
    assert visits > 20  # a month of a marketplace in three metros
    assert revenue.totals.gross == prices + fees
    assert revenue.totals.fees == fees
    assert revenue.totals.refunds == Decimal(refunds)
    assert revenue.totals.payouts == Decimal(paid_out) / 100
    assert analytics.totals.completed == settled == visits


async def test_every_providers_wallet_holds_what_their_completed_visits_earned(demo) -> None:
    kinds = (AccountKind.provider_pending, AccountKind.provider_available, AccountKind.provider_payout)
    async with app_db.unit_of_work() as session:
        # The prices charged: the demo's flash-sale discounts were funded by the providers.
        earned = dict(
            (
                await session.execute(
                    select(Appointment.provider_id, func.sum(Appointment.price))
                    .where(COMPLETED)
                    .group_by(Appointment.provider_id)
                )
            ).all()
        )
        held = dict(
            (
                await session.execute(
                    select(LedgerAccount.owner_id, func.sum(LedgerAccount.balance))
                    .where(LedgerAccount.kind.in_(kinds))
                    .group_by(LedgerAccount.owner_id)
                )
            ).all()
        )
        paid = dict(
            (
                await session.execute(
                    select(PayoutRequest.provider_id, func.sum(PayoutRequest.amount))
                    .where(PayoutRequest.status == PayoutStatus.paid)
                    .group_by(PayoutRequest.provider_id)
                )
            ).all()
        )
        open_payouts = (
            await session.scalars(
                select(PayoutRequest.status).where(PayoutRequest.status != PayoutStatus.paid)
            )
        ).all()
        priya_user = await session.scalar(select(User.id).where(User.email == demo_email(Role.provider)))
        priya = await session.scalar(select(Provider.id).where(Provider.user_id == priya_user))
    assert len(earned) > 50  # nearly every provider, not the demo provider alone
    for provider_id, price in earned.items():
        assert Decimal(held.get(provider_id, 0) + paid.get(provider_id, 0)) / 100 == price, provider_id
    assert len(paid) >= 3 and priya not in paid  # a few providers were paid out; the demo provider was not
    assert set(open_payouts) == {PayoutStatus.pending, PayoutStatus.approved, PayoutStatus.in_transit}

    # The demo provider's own wallet screen reads the same money.
    wallet = await factories.run(get_provider_balances, actor=await _signed_in(Role.provider))
    assert wallet.pending + wallet.available + wallet.in_payout + wallet.paid_out == earned[priya]
    assert wallet.available > 0 and wallet.paid_out == 0
