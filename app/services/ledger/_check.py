"""The ledger's invariants, proved over the whole journal (`python -m medivisit ledger check`):

- every journal entry balances (its postings sum to zero);
- every person's kept balance is the sum of its postings, and no account but the world and the platform's
  fees (which carry the discounts the platform funds) is below zero;
- every completed visit has its charge, settled: paid ahead by `visit_completed`; pay at visit by what was
  collected in person (`collected_at_visit` entries summing to the charge's `collected`, never more than the
  visit's total), or payment due (nothing or part collected: the rest stays in patient_booked);
- every card payment that came in has its booking entry: a visit order's `order_placed`, a store order's
  `store_order_paid` and an ad flight's `ad_paid` (each for as much as was paid).

Each rule is one aggregate query; a break names the rule, what broke it and how, at most `limit` per rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, exists, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from models.ads import AdPayment, AdPaymentStatus
from models.booking import Appointment, AppointmentStatus
from models.ledger import (
    PLATFORM_KINDS,
    AccountKind,
    EntryKind,
    JournalEntry,
    LedgerAccount,
    Posting,
    VisitCharge,
)
from models.payment import CardPayment, CardPaymentStatus
from models.store import StoreCardPayment

BREAKS_LISTED = 50  # of each rule


@dataclass(frozen=True)
class LedgerBreak:
    rule: str  # unbalanced_entry, balance_mismatch, negative_balance, visit_without_charge,
    # collection_mismatch, payment_without_entry
    subject: str  # the entry's, account's, visit's or order's id
    detail: str


@dataclass(frozen=True)
class LedgerCheck:
    entries: int
    postings: int
    breaks: tuple[LedgerBreak, ...]

    @property
    def holds(self) -> bool:
        return not self.breaks


def _cents(amount: int) -> str:
    return f"{'-' if amount < 0 else ''}${abs(amount) / 100:,.2f}"


async def check_ledger(*, session: AsyncSession, limit: int = BREAKS_LISTED) -> LedgerCheck:
    """Every invariant of the ledger, checked now."""
    found: list[LedgerBreak] = []

    unbalanced = await session.execute(
        select(Posting.entry_id, func.sum(Posting.amount))
        .group_by(Posting.entry_id)
        .having(func.sum(Posting.amount) != 0)
        .order_by(Posting.entry_id)
        .limit(limit)
    )
    found += [
        LedgerBreak("unbalanced_entry", entry, f"its postings sum to {_cents(total)}, not $0.00")
        for entry, total in unbalanced.all()
    ]

    sums = (
        select(Posting.account_id, Posting.account_kind, func.sum(Posting.amount).label("total"))
        .group_by(Posting.account_id, Posting.account_kind)
        .subquery()
    )
    mismatched = await session.execute(
        select(LedgerAccount.id, LedgerAccount.balance, func.coalesce(sums.c.total, 0))
        .outerjoin(sums, sums.c.account_id == LedgerAccount.id)
        .where(LedgerAccount.balance != func.coalesce(sums.c.total, 0))
        .order_by(LedgerAccount.id)
        .limit(limit)
    )
    found += [
        LedgerBreak("balance_mismatch", account, f"keeps {_cents(kept)}, its postings sum to {_cents(total)}")
        for account, kept, total in mismatched.all()
    ]
    rowless = await session.execute(
        select(sums.c.account_id, sums.c.total)
        .where(
            sums.c.account_kind.not_in(PLATFORM_KINDS),
            ~exists().where(LedgerAccount.id == sums.c.account_id),
        )
        .order_by(sums.c.account_id)
        .limit(limit)
    )
    found += [
        LedgerBreak("balance_mismatch", account, f"has postings ({_cents(total)}) but no kept balance")
        for account, total in rowless.all()
    ]
    # The platform's fees may stand below zero: a discount the platform funds is a cost its fees carry.
    below_zero: ColumnElement[bool] = and_(
        sums.c.account_kind.not_in((AccountKind.world, AccountKind.platform_fees)), sums.c.total < 0
    )
    negative = await session.execute(
        select(sums.c.account_id, sums.c.total).where(below_zero).order_by(sums.c.account_id).limit(limit)
    )
    found += [
        LedgerBreak("negative_balance", account, f"stands at {_cents(total)}")
        for account, total in negative.all()
    ]

    settled = exists().where(
        JournalEntry.appointment_id == Appointment.id, JournalEntry.kind == EntryKind.visit_completed
    )
    # A pay-at-visit visit is settled by what was collected in person (the rule below), or is payment due.
    unsettled = await session.execute(
        select(Appointment.id, VisitCharge.appointment_id, VisitCharge.completed_at)
        .outerjoin(VisitCharge, VisitCharge.appointment_id == Appointment.id)
        .where(
            Appointment.status == AppointmentStatus.completed,
            or_(
                VisitCharge.appointment_id.is_(None),
                VisitCharge.completed_at.is_(None),
                and_(VisitCharge.paid_ahead.is_(True), ~settled),
            ),
        )
        .order_by(Appointment.id)
        .limit(limit)
    )
    found += [
        LedgerBreak(
            "visit_without_charge",
            visit,
            "completed, but it has no charge"
            if charge is None
            else "completed, but its charge was never settled"
            if completed_at is None
            else "completed, but no visit_completed entry settled it",
        )
        for visit, charge, completed_at in unsettled.all()
    ]

    collections = (
        select(JournalEntry.appointment_id.label("visit"), func.sum(-Posting.amount).label("total"))
        .join(Posting, Posting.entry_id == JournalEntry.id)
        .where(
            JournalEntry.kind == EntryKind.collected_at_visit,
            Posting.account_kind == AccountKind.patient_booked,
        )
        .group_by(JournalEntry.appointment_id)
        .subquery()
    )
    old_rule = exists().where(
        JournalEntry.appointment_id == VisitCharge.appointment_id,
        JournalEntry.kind == EntryKind.visit_completed,
    )
    recorded = func.coalesce(collections.c.total, 0)
    miscollected = await session.execute(
        select(
            VisitCharge.appointment_id, VisitCharge.collected, recorded, VisitCharge.price + VisitCharge.fee
        )
        .outerjoin(collections, collections.c.visit == VisitCharge.appointment_id)
        .where(
            VisitCharge.paid_ahead.is_(False),
            ~old_rule,  # completed before collections were recorded: booked as collected in full
            or_(
                VisitCharge.collected != recorded,
                VisitCharge.collected > VisitCharge.price + VisitCharge.fee,
                and_(VisitCharge.completed_at.is_(None), recorded != 0),
            ),
        )
        .order_by(VisitCharge.appointment_id)
        .limit(limit)
    )
    found += [
        LedgerBreak(
            "collection_mismatch",
            visit,
            f"its charge says {_cents(kept)} was collected at the visit, its entries say {_cents(total)} "
            f"(the visit comes to {_cents(whole)})",
        )
        for visit, kept, total, whole in miscollected.all()
    ]

    booked = exists().where(
        JournalEntry.order_id == CardPayment.order_id, JournalEntry.kind == EntryKind.order_placed
    )
    unbooked = await session.execute(
        select(CardPayment.order_id, CardPayment.amount)
        .where(CardPayment.status == CardPaymentStatus.paid, ~booked)
        .order_by(CardPayment.order_id)
        .limit(limit)
    )
    found += [
        LedgerBreak(
            "payment_without_entry", order, f"a card payment of {_cents(amount)} came in, nothing booked it"
        )
        for order, amount in unbooked.all()
    ]

    # A store order paid by card on its own, and an ad flight's prepaid budget, are card payments too.
    store_paid = (
        select(JournalEntry.order_id.label("order"), func.sum(-Posting.amount).label("total"))
        .join(Posting, Posting.entry_id == JournalEntry.id)
        .where(JournalEntry.kind == EntryKind.store_order_paid, Posting.account_kind == AccountKind.world)
        .group_by(JournalEntry.order_id)
        .subquery()
    )
    booked_store = func.coalesce(store_paid.c.total, 0)
    unbooked_store = await session.execute(
        select(StoreCardPayment.store_order_id, StoreCardPayment.amount, booked_store)
        .outerjoin(store_paid, store_paid.c.order == StoreCardPayment.store_order_id)
        .where(
            StoreCardPayment.status == CardPaymentStatus.paid.value, booked_store != StoreCardPayment.amount
        )
        .order_by(StoreCardPayment.store_order_id)
        .limit(limit)
    )
    found += [
        LedgerBreak(
            "payment_without_entry",
            order,
            f"the store order's card payment was {_cents(paid)}, its store_order_paid entry booked {_cents(booked)}",
        )
        for order, paid, booked in unbooked_store.all()
    ]
    prepaid = (
        select(Posting.account_id.label("account"), func.sum(Posting.amount).label("total"))
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(JournalEntry.kind == EntryKind.ad_paid, Posting.account_kind == AccountKind.ad_prepaid)
        .group_by(Posting.account_id)
        .subquery()
    )
    paid_ads = (
        select(AdPayment.flight_id.label("flight"), func.sum(AdPayment.amount).label("total"))
        .where(AdPayment.status == AdPaymentStatus.paid.value)
        .group_by(AdPayment.flight_id)
        .subquery()
    )
    booked_ads = func.coalesce(prepaid.c.total, 0)
    unbooked_ads = await session.execute(
        select(paid_ads.c.flight, paid_ads.c.total, booked_ads)
        .outerjoin(
            prepaid, prepaid.c.account == literal(f"{AccountKind.ad_prepaid.value}:") + paid_ads.c.flight
        )
        .where(booked_ads != paid_ads.c.total)
        .order_by(paid_ads.c.flight)
        .limit(limit)
    )
    found += [
        LedgerBreak(
            "payment_without_entry",
            flight,
            f"the ad flight's card payments came to {_cents(paid)}, its ad_paid entries to {_cents(booked)}",
        )
        for flight, paid, booked in unbooked_ads.all()
    ]

    entries = await session.scalar(select(func.count()).select_from(JournalEntry))
    postings = await session.scalar(select(func.count()).select_from(Posting))
    return LedgerCheck(entries=entries or 0, postings=postings or 0, breaks=tuple(found))
