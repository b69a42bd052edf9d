"""What the money screens read: a patient's wallet and its history, a provider's balances and per-visit
statement, and staff's revenue summary — all from the ledger, none of them writes.

The revenue summary is aggregated in SQL over the postings, by period (UTC day, ISO week from Monday, or
month):
- gross: the value of visits completed (price and fee), what left patients' booked accounts at completion;
- fees: what the platform fees account gained at completion, and the fees providers collected in person at
  pay-at-visit visits (owed to us as their receivable), less the sale discounts the platform funds (a
  platform cost: the fee leg of such a visit carries its discount, and may be below zero);
- refunds: what refunds gave back: into patients' credit accounts (wallet credit) or out to the world (back
  to the card); a card refund that failed and was credited to the wallet instead counts once (that entry's
  two legs, world and credit, cancel out);
- payouts: what left providers' payout accounts to the world (paid payouts);
- net: what the platform kept: fees (in its fees account or still owed by providers who collected them)
  minus fees refunded, plus invoices paid. Summed, it equals the fees account and the providers' receivables.
Summed over all periods each figure equals the ledger's own account (tests check it on generated data).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import (
    ColumnElement,
    and_,
    case,
    func,
    or_,
    select,
)
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger._journal import account_id, balances, dollars, signed_total
from app.services.ledger._rules import (
    BAD_GRANULARITY,
    BAD_RANGE,
    MAX_PAGE_SIZE,
    NO_PROFILE,
    PAGE_SIZE,
)
from app.services.ledger._visits import collected_in_person, earning_of, visit_payment_of
from app.services.shared.accounts import is_admin
from app.services.shared.periods import period_of
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of, require_permission
from app.settings import get_settings
from models.booking import Appointment, Order
from models.catalog import Service
from models.identity import as_utc
from models.ledger import (
    AccountKind,
    DiscountFunding,
    EntryKind,
    JournalEntry,
    PayoutRequest,
    PayoutStatus,
    Posting,
    ProviderBalancesRead,
    RevenueRowRead,
    RevenueSummaryRead,
    StatementLineRead,
    StatementPageRead,
    VisitCharge,
    WalletLineRead,
    WalletPageRead,
    WalletRead,
)
from models.provider import Provider
from models.staff import Permission

GRANULARITIES = ("day", "week", "month")
# What counts as collected revenue: a completed visit, a delivered store order (each with its 5 % fee).
COLLECTED = (EntryKind.visit_completed, EntryKind.store_order_delivered, EntryKind.collected_at_visit)
# Sales paid by card at checkout: their money comes from the world (the card), not from patient_booked.
PAID_SALES = (EntryKind.store_order_paid,)
# Where a fee lands when it is earned: the platform's fees, or (collected in person by the provider at a
# pay-at-visit visit) the provider's receivable, owed to us until netted at a payout (a move between the two
# that changes no figure here).
FEE_KINDS = (AccountKind.platform_fees, AccountKind.provider_receivable)
EARNED = (*FEE_KINDS, AccountKind.platform_invoices, AccountKind.ad_revenue)
# Where a refund's money goes: the patient's wallet credit, or the world (back to the card it was paid with).
REFUNDED_TO = (AccountKind.patient_credit, AccountKind.world)


def _page(page: int, page_size: int) -> tuple[int, int]:
    return max(int(page), 1), min(max(int(page_size), 1), MAX_PAGE_SIZE)


# ---- the patient's wallet -------------------------------------------------------------------------
async def get_my_wallet(*, session: AsyncSession, actor: Principal) -> WalletRead:
    account = await require_account(session=session, actor=actor)
    credit = account_id(AccountKind.patient_credit, account.id)
    booked = account_id(AccountKind.patient_booked, account.id)
    found = await balances(session, [credit, booked])
    return WalletRead(credit=dollars(found[credit]), booked=dollars(found[booked]))


async def list_my_wallet_history(
    *,
    session: AsyncSession,
    actor: Principal,
    kinds: Sequence[EntryKind] = (),
    since: datetime | None = None,
    until: datetime | None = None,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> WalletPageRead:
    """The movements of the signed-in patient's wallet credit, newest first; `kinds` (entry kinds),
    `since` and `until` (a half-open range) narrow them."""
    account = await require_account(session=session, actor=actor)
    page, page_size = _page(page, page_size)
    conditions = [Posting.account_id == account_id(AccountKind.patient_credit, account.id)]
    if kinds:
        conditions.append(JournalEntry.kind.in_(list(kinds)))
    if since is not None:
        conditions.append(Posting.created_at >= since)
    if until is not None:
        conditions.append(Posting.created_at < until)
    base = (
        select(Posting, JournalEntry)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(*conditions)
    )
    total = await session.scalar(select(func.count()).select_from(base.subquery())) or 0
    rows = (
        await session.execute(
            base.add_columns(Order.number)
            .outerjoin(Order, Order.id == JournalEntry.order_id)
            .order_by(Posting.created_at.desc(), Posting.id)
            .offset((page - 1) * page_size)
            .limit(page_size)
        )
    ).all()
    return WalletPageRead(
        items=[
            WalletLineRead(
                entry_id=entry.id,
                kind=entry.kind,
                amount=dollars(posting.amount),
                description=entry.description,
                order_id=entry.order_id,
                order_number=number,
                appointment_id=entry.appointment_id,
                created_at=as_utc(posting.created_at),
            )
            for posting, entry, number in rows
        ],
        total=total,
        page=page,
        page_size=page_size,
    )


# ---- the provider's balances and statement --------------------------------------------------------
async def _provider(session: AsyncSession, actor: Principal, provider_id: str | None) -> Provider:
    """The signed-in provider's profile, or (`provider_id`) any profile for staff holding process_payments
    or view_revenue and for admins."""
    account = await require_account(session=session, actor=actor)
    if provider_id is None:
        provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
        if provider is None:
            raise NotFound(NO_PROFILE)
        return provider
    provider = await session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(NO_PROFILE)
    if provider.user_id != account.id and not is_admin(account):
        allowed = await permissions_of(session=session, account=account)
        if not allowed & {Permission.process_payments, Permission.view_revenue}:
            raise PermissionDenied("Only the provider and payments staff can see these balances.")
    return provider


async def get_provider_balances(
    *, session: AsyncSession, actor: Principal, provider_id: str | None = None
) -> ProviderBalancesRead:
    """Pending (inside the dispute window), available, in an open payout, and paid out (all time)."""
    provider = await _provider(session, actor, provider_id)
    kinds = (
        AccountKind.provider_pending,
        AccountKind.provider_available,
        AccountKind.provider_payout,
        AccountKind.provider_receivable,
    )
    ids = [account_id(kind, provider.id) for kind in kinds]
    found = await balances(session, ids)
    paid = await session.scalar(
        select(func.coalesce(func.sum(PayoutRequest.amount), 0)).where(
            PayoutRequest.provider_id == provider.id, PayoutRequest.status == PayoutStatus.paid
        )
    )
    netted = await session.scalar(
        select(func.coalesce(-func.sum(Posting.amount), 0))
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(Posting.account_id == ids[3], JournalEntry.kind == EntryKind.fee_netted)
    )
    # The provider's share of what they collected in person (the price first, then the fee).
    share = case((VisitCharge.collected < VisitCharge.price, VisitCharge.collected), else_=VisitCharge.price)
    collected = await session.scalar(
        select(func.coalesce(func.sum(share), 0)).where(
            VisitCharge.provider_id == provider.id, VisitCharge.collection_method.is_not(None)
        )
    )
    pending, available, in_payout, owed = (found[key] for key in ids)
    return ProviderBalancesRead(
        provider_id=provider.id,
        pending=dollars(pending),
        available=dollars(available),
        in_payout=dollars(in_payout),
        paid_out=dollars(int(paid or 0)),
        owed_to_platform=dollars(owed),
        fees_netted=dollars(int(netted or 0)),
        collected_at_visits=dollars(int(collected or 0)),
    )


async def list_provider_statement(
    *,
    session: AsyncSession,
    actor: Principal,
    provider_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> StatementPageRead:
    """The provider's completed visits with their money, newest completion first (a half-open range of
    completion times narrows them)."""
    provider = await _provider(session, actor, provider_id)
    page, page_size = _page(page, page_size)
    conditions = [VisitCharge.provider_id == provider.id, VisitCharge.completed_at.is_not(None)]
    if since is not None:
        conditions.append(VisitCharge.completed_at >= since)
    if until is not None:
        conditions.append(VisitCharge.completed_at < until)
    total = await session.scalar(select(func.count()).select_from(VisitCharge).where(*conditions)) or 0
    rows = (
        await session.execute(
            select(VisitCharge, Appointment.starts_at, Service.name)
            .join(Appointment, Appointment.id == VisitCharge.appointment_id)
            .join(Service, Service.id == Appointment.service_id)
            .where(*conditions)
            .order_by(VisitCharge.completed_at.desc(), VisitCharge.appointment_id)
            .offset((page - 1) * page_size)
            .limit(page_size)
        )
    ).all()
    window = timedelta(hours=get_settings().dispute_window_hours)
    return StatementPageRead(
        items=[
            StatementLineRead(
                appointment_id=charge.appointment_id,
                order_id=charge.order_id,
                starts_at=as_utc(starts_at),
                completed_at=as_utc(charge.completed_at),
                service_name=service_name,
                price=dollars(charge.price),
                platform_fee=dollars(charge.fee),
                refunded=dollars(charge.refunded_earning + charge.refunded_discount),
                earning=dollars(earning_of(charge) - charge.refunded_earning - charge.refunded_discount),
                original_price=dollars(charge.price + charge.discount) if charge.discount else None,
                discount=dollars(charge.discount),
                discount_funded_by=charge.discount_funded_by if charge.discount else None,
                discount_note=discount_note(charge),
                released_at=as_utc(charge.released_at),
                releases_at=(
                    None
                    if charge.released_at or charge.completed_at is None
                    else as_utc(charge.completed_at) + window
                ),
                collected_in_person=collected_in_person(charge),
                collection_method=charge.collection_method,
                payment_due=visit_payment_of(charge).due,
            )
            for charge, starts_at, service_name in rows
        ],
        total=total,
        page=page,
        page_size=page_size,
    )


def discount_note(charge: VisitCharge) -> str:
    """The sale's discount on a statement line, as the provider reads it, or '' without one."""
    if not charge.discount or charge.discount_funded_by is None:
        return ""
    funder = "MediVisit" if charge.discount_funded_by == DiscountFunding.platform else "you"
    return f"Flash sale −${dollars(charge.discount):,.2f}, funded by {funder}"


# ---- revenue --------------------------------------------------------------------------------------
def _as_date(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


async def get_revenue_summary(
    *,
    session: AsyncSession,
    actor: Principal,
    granularity: str = "month",
    since: datetime | None = None,
    until: datetime | None = None,
) -> RevenueSummaryRead:
    """Staff (view_revenue): gross bookings, fees, refunds, payouts, invoices paid, ads delivered and net per
    period, oldest first, with their totals; `since` / `until` a half-open range (UTC)."""
    await require_permission(session=session, actor=actor, permission=Permission.view_revenue)
    if granularity not in GRANULARITIES:
        raise ValidationFailed(BAD_GRANULARITY)
    if since is not None and until is not None and until <= since:
        raise ValidationFailed(BAD_RANGE)
    period = period_of(Posting.created_at, granularity, session.get_bind().dialect.name).label("period")

    kind, entry = Posting.account_kind, JournalEntry.kind
    figures = (
        signed_total(
            or_(
                and_(kind == AccountKind.patient_booked, entry.in_(COLLECTED)),
                and_(kind == AccountKind.world, entry.in_(PAID_SALES)),
            ),
            -1,
        ),
        signed_total(and_(kind.in_(FEE_KINDS), entry.in_((*COLLECTED, *PAID_SALES)))),
        signed_total(and_(kind.in_(REFUNDED_TO), entry == EntryKind.refund)),
        signed_total(and_(kind == AccountKind.world, entry == EntryKind.payout_paid)),
        signed_total(kind == AccountKind.platform_invoices),
        signed_total(kind == AccountKind.ad_revenue),
        signed_total(kind.in_(EARNED)),
    )
    conditions: list[ColumnElement[bool]] = [
        Posting.account_kind.in_(
            (
                AccountKind.patient_booked,
                AccountKind.platform_fees,
                AccountKind.platform_invoices,
                AccountKind.patient_credit,
                AccountKind.world,
                AccountKind.provider_receivable,
                AccountKind.ad_revenue,
            )
        ),
        JournalEntry.kind.in_(
            (
                *COLLECTED,
                *PAID_SALES,
                EntryKind.refund,
                EntryKind.payout_paid,
                EntryKind.invoice_paid,
                EntryKind.ad_delivered,
            )
        ),
    ]
    if since is not None:
        conditions.append(Posting.created_at >= since.astimezone(UTC))
    if until is not None:
        conditions.append(Posting.created_at < until.astimezone(UTC))
    rows = (
        await session.execute(
            select(period, *figures)
            .select_from(Posting)
            .join(JournalEntry, JournalEntry.id == Posting.entry_id)
            .where(*conditions)
            .group_by(period)
            .order_by(period)
        )
    ).all()
    reads = [
        RevenueRowRead(
            period=_as_date(start),
            gross=dollars(gross),
            fees=dollars(fees),
            refunds=dollars(refunds),
            payouts=dollars(payouts),
            invoiced=dollars(invoiced),
            ads=dollars(ads),
            net=dollars(net),
        )
        for start, gross, fees, refunds, payouts, invoiced, ads, net in rows
    ]
    first = reads[0].period if reads else (since or datetime.now(UTC)).date()
    totals = RevenueRowRead(
        period=first,
        gross=sum((r.gross for r in reads), dollars(0)),
        fees=sum((r.fees for r in reads), dollars(0)),
        refunds=sum((r.refunds for r in reads), dollars(0)),
        payouts=sum((r.payouts for r in reads), dollars(0)),
        invoiced=sum((r.invoiced for r in reads), dollars(0)),
        ads=sum((r.ads for r in reads), dollars(0)),
        net=sum((r.net for r in reads), dollars(0)),
    )
    return RevenueSummaryRead(granularity=granularity, rows=reads, totals=totals)
