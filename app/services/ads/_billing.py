"""Ads are paid (issue 29 item 5): how a flight is billed, its card payment, the ledger's view of its money,
ending it with budget left, the invoice of a flight run on terms, and its spend statement.

- **Billing** is decided when staff approve a flight: with the card gateway (PAYMENT_GATEWAY=stripe) and an
  advertiser staff have not approved for invoicing, "card": the flight waits in "Awaiting payment" until the
  advertiser pays its budget on Stripe Checkout (`start_ad_payment`); Stripe's webhook (payments
  `_ad_payments`, once however often it is delivered) publishes `AdPaymentSettled` and `settle_ad_payment`
  starts it. Otherwise "invoice": it runs on terms at once and staff invoice what it delivered once it has
  finished (`invoice_ad_flight`, through app/services/invoices; its payment is booked there).
- **The ledger** (card flights): the budget paid is owed to the advertiser until delivered (world →
  ad_prepaid, `ad_paid`); delivered spend becomes ad revenue (ad_prepaid → ad_revenue, `ad_delivered`), booked
  by the periodic job and when the flight closes, never per view; the budget a flight did not spend goes back
  to the card when it ends early, is spent out or runs to its last day (a Stripe refund, then ad_prepaid →
  world, `ad_refunded`). ad_prepaid can never go below zero (the ledger's CHECK), and spend never passes the
  budget (app/services/ads `_serving`), so what is refunded and delivered adds up to what was paid.
- **Invoiced flights** are billed in arrears for what they delivered, so a flight ended early is invoiced
  for its spend only: its unspent budget is never billed and needs no credit note.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.accounts import account_of
from app.services.ads._rules import (
    NO_FLIGHT,
    TOPIC,
    require_ads_staff,
    require_advertiser,
    today,
)
from app.services.domain_events import AdPaymentSettled
from app.services.errors import NotFound, ValidationFailed
from app.services.invoices import create_invoice, send_invoice
from app.services.ledger import WORLD, move
from app.services.ledger.internal import post
from app.services.payments.internal import (
    expire_ad_checkouts,
    open_ad_payment,
    paid_ad_payment,
    refund_ad_payment,
    start_ad_checkout,
)
from app.settings import get_settings
from models.ads import (
    AdAdvertiserTerms,
    AdDailyStat,
    AdFlight,
    AdPayment,
    AdPaymentStatus,
    FlightStatus,
)
from models.audit import AuditAction
from models.base import utcnow
from models.identity import User
from models.invoice import Invoice, InvoiceCreate, InvoiceLineInput, RecipientKind
from models.ledger import AccountKind, EntryKind

S = FlightStatus
CARD = "card"
INVOICE = "invoice"
REVENUE = (AccountKind.ad_revenue, "")
BATCH = 200
TERMS_DAYS = 30  # an invoiced flight's invoice is due this many days after it is issued
NOT_AWAITING = "This flight is not waiting for its payment."
PAST = "This flight's last day has passed, so it can no longer be paid; book a new flight instead."
NO_CARDS = "Card payments are not enabled on this site; our team will invoice you instead."
NOT_INVOICED = "This flight is paid by card, not invoiced."
NOT_FINISHED = "A flight is invoiced once it has finished: ended, its budget spent, or past its last day."
ALREADY_INVOICED = "This flight has already been invoiced."
NOTHING_DELIVERED = "This flight delivered nothing, so there is nothing to invoice."


def prepaid(flight_id: str) -> tuple[AccountKind, str]:
    return (AccountKind.ad_prepaid, flight_id)


def cards_enabled() -> bool:
    return get_settings().payment_gateway == "stripe"


async def billing_for(session: AsyncSession, advertiser_id: str) -> str:
    """How a flight of this advertiser approved now is billed: "card", or "invoice" (no card gateway, or an
    advertiser staff approved for invoicing)."""
    if not cards_enabled():
        return INVOICE
    terms = await session.get(AdAdvertiserTerms, advertiser_id)
    return INVOICE if terms is not None and terms.invoiced else CARD


async def invoiced_advertisers(session: AsyncSession, ids: set[str]) -> set[str]:
    if not ids:
        return set()
    found = await session.scalars(
        select(AdAdvertiserTerms.advertiser_id).where(
            AdAdvertiserTerms.advertiser_id.in_(ids), AdAdvertiserTerms.invoiced.is_(True)
        )
    )
    return set(found)


async def locked_flight(session: AsyncSession, flight_id: str) -> AdFlight | None:
    return await session.get(AdFlight, flight_id[:36], with_for_update=True, populate_existing=True)


async def start_ad_payment(
    *, session: AsyncSession, actor: Principal, flight_id: str, now: datetime | None = None
) -> str:
    """The advertiser pays an approved flight's budget by card: the address of its Stripe Checkout page (the
    open one again, when it has not expired)."""
    account = await require_advertiser(session=session, actor=actor)
    at = now or utcnow()
    row = await locked_flight(session, flight_id)
    if row is None or row.advertiser_id != account.id:
        raise NotFound(NO_FLIGHT)
    if row.status != S.payment.value:
        raise ValidationFailed(NOT_AWAITING)
    if not cards_enabled():
        raise ValidationFailed(NO_CARDS)
    if row.ends_on < at.date():
        raise ValidationFailed(PAST)
    found = await open_ad_payment(session, row.id, at)
    if found is not None:
        return found.checkout_url
    payment = await start_ad_checkout(
        session=session,
        advertiser=account,
        flight_id=row.id,
        flight_name=row.name,
        amount_cents=row.budget_cents,
        now=at,
    )
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.ad_status,
        target=f"ad flight {row.id}",
        details={"payment": "started", "amount_cents": payment.amount},
    )
    return payment.checkout_url


async def settle_ad_payment(session: AsyncSession, settled: AdPaymentSettled) -> None:
    """Stripe's webhook says a flight's budget was paid (or not): the ledger books the prepaid budget and the
    flight starts; a flight ended while its payment page was open gets the whole budget back. A failed or
    expired payment leaves the flight awaiting payment (the advertiser may pay again)."""
    row = await locked_flight(session, settled.flight_id)
    if row is None or not settled.paid:
        return
    await post(
        session=session,
        kind=EntryKind.ad_paid,
        legs=move(settled.amount_cents, WORLD, prepaid(row.id)),
        description=f"Ad flight “{row.name}” paid by card"[:200],
        at=settled.at,
    )
    if row.status == S.payment.value:
        row.status = S.approved.value
        await session.flush()
        await events.publish_on_commit(session, TOPIC, {"flight_id": row.id})
    else:
        await close_flight_money(session, row, settled.at)


async def book_delivery(session: AsyncSession, row: AdFlight, at: datetime) -> int:
    """Book what a card flight delivered since last time as ad revenue; returns the cents booked."""
    if row.billing != CARD:
        return 0
    delta = row.spent_millicents // 1000 - row.booked_cents
    if delta <= 0:
        return 0
    await post(
        session=session,
        kind=EntryKind.ad_delivered,
        legs=move(delta, prepaid(row.id), REVENUE),
        description=f"Ad flight “{row.name}” delivered"[:200],
        at=at,
    )
    row.booked_cents += delta
    return delta


async def close_flight_money(session: AsyncSession, row: AdFlight, at: datetime) -> None:
    """A flight that will spend no more (locked): its delivered spend booked, the budget it did not spend
    refunded to the card (Stripe first: when Stripe cannot be asked, `Unavailable` undoes the whole command)."""
    await book_delivery(session, row, at)
    payment = await paid_ad_payment(session, row.id) if row.billing == CARD else None
    if payment is None and row.billing == CARD and cards_enabled():
        await expire_ad_checkouts(session, row.id)  # ended before it was paid: its page closes
    if payment is not None and not payment.refunded_cents:
        unspent = payment.amount - row.spent_millicents // 1000
        if unspent > 0:
            await refund_ad_payment(session, payment, amount_cents=unspent, at=at)
            await post(
                session=session,
                kind=EntryKind.ad_refunded,
                legs=move(unspent, prepaid(row.id), WORLD),
                description=f"Ad flight “{row.name}”: unspent budget refunded to the card"[:200],
                at=at,
            )
    row.settled_at = at
    await session.flush()


def _finished(now: datetime) -> ColumnElement[bool]:
    return or_(
        AdFlight.status.in_((S.spent.value, S.ended.value)),
        and_(AdFlight.status.in_((S.approved.value, S.paused.value)), AdFlight.ends_on < now.date()),
    )


async def close_finished_ad_flights(*, session: AsyncSession, now: datetime | None = None) -> int:
    """The periodic job: card flights' delivered spend booked as ad revenue, and the money of flights that
    have finished (spent, ended, past their last day) closed, their unspent budget refunded. Returns how
    many flights it changed."""
    at = now or utcnow()
    finished = _finished(at)
    ids = list(
        await session.scalars(
            select(AdFlight.id)
            .where(
                AdFlight.billing == CARD,
                AdFlight.settled_at.is_(None),
                or_(finished, AdFlight.spent_millicents >= (AdFlight.booked_cents + 1) * 1000),
            )
            .order_by(AdFlight.id)
            .limit(BATCH)
        )
    )
    changed = 0
    for flight_id in ids:
        row = await locked_flight(session, flight_id)
        if row is None or row.settled_at is not None:
            continue
        done = row.status in (S.spent.value, S.ended.value) or (
            row.status in (S.approved.value, S.paused.value) and row.ends_on < at.date()
        )
        if done:
            await close_flight_money(session, row, at)
            changed += 1
        elif await book_delivery(session, row, at):
            changed += 1
    await session.flush()
    return changed


async def set_ad_invoicing(
    *, session: AsyncSession, actor: Principal, advertiser_id: str, invoiced: bool
) -> bool:
    """Staff (manage_ads) approve an advertiser for invoicing (their flights approved from now run on terms)
    or take it back (they prepay by card). Returns the new setting."""
    staff = await require_ads_staff(session=session, actor=actor)
    row = await session.get(AdAdvertiserTerms, advertiser_id[:36])
    if row is None:
        advertiser = await session.scalar(
            select(AdFlight.advertiser_id).where(AdFlight.advertiser_id == advertiser_id[:36]).limit(1)
        )
        if advertiser is None:
            raise NotFound("No advertiser has this id.")
        row = AdAdvertiserTerms(advertiser_id=advertiser, invoiced=invoiced, set_by=staff.id)
        session.add(row)
    row.invoiced, row.set_by, row.set_at = invoiced, staff.id, utcnow()
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.ad_status,
        target=f"advertiser {advertiser_id[:36]}",
        details={"invoiced": invoiced},
    )
    return invoiced


async def invoice_ad_flight(*, session: AsyncSession, actor: Principal, flight_id: str) -> str:
    """Staff (manage_ads, and create_invoices for the invoice itself) invoice a finished flight run on terms
    for what it delivered (its budget is the most it can come to), and e-mail the invoice to the advertiser;
    returns the invoice's number. Its payment is recorded on the invoice (app/services/invoices)."""
    await require_ads_staff(session=session, actor=actor)
    row = await locked_flight(session, flight_id)
    if row is None:
        raise NotFound(NO_FLIGHT)
    if row.billing != INVOICE:
        raise ValidationFailed(NOT_INVOICED)
    if row.invoice_id:
        raise ValidationFailed(ALREADY_INVOICED)
    finished = row.status in (S.spent.value, S.ended.value) or (
        row.status in (S.approved.value, S.paused.value) and row.ends_on < today()
    )
    if not finished:
        raise ValidationFailed(NOT_FINISHED)
    spent = row.spent_millicents // 1000
    if spent <= 0:
        raise ValidationFailed(NOTHING_DELIVERED)
    user = await session.get(User, row.advertiser_id)
    if user is None:
        raise NotFound(NO_FLIGHT)
    who = account_of(user)
    views = sum(day[1] for day in await days_of(session, row.id))
    line = (
        f"Ad flight “{row.name}”, {row.starts_on:%b} {row.starts_on.day} – {row.ends_on:%b} "
        f"{row.ends_on.day}, {row.ends_on:%Y}: {views:,} impressions delivered"
    )
    invoice = await create_invoice(
        session=session,
        actor=actor,
        data=InvoiceCreate(
            recipient_kind=RecipientKind.organization,
            recipient_name=(who.name or who.email)[:120],
            recipient_email=who.email,
            due_on=today() + timedelta(days=TERMS_DAYS),
            notes=f"Billed for the views delivered; the flight's budget was ${row.budget_cents / 100:,.2f}.",
            lines=[InvoiceLineInput(description=line[:200], quantity=1, unit_price_cents=spent)],
        ),
    )
    sent = await send_invoice(session=session, actor=actor, invoice_id=invoice.id)
    row.invoice_id, row.settled_at = sent.id, utcnow()
    await session.flush()
    return sent.number


async def invoice_numbers(session: AsyncSession, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = await session.execute(select(Invoice.id, Invoice.number).where(Invoice.id.in_(ids)))
    return dict(rows.tuples().all())


def daily_cap_cents(row: AdFlight) -> int:
    """What a running flight may spend today (the budget left over the days left, its last day included)."""
    day = today()
    if row.status != S.approved.value or not row.starts_on <= day <= row.ends_on:
        return 0
    if row.paced_on == day:
        return row.pace_cap_millicents // 1000
    left = row.budget_cents * 1000 - row.spent_millicents
    return max(left // ((row.ends_on - day).days + 1), 0) // 1000


async def payments_of(session: AsyncSession, ids: list[str]) -> dict[str, AdPayment]:
    """The paid card payment of each of these flights that has one (one query)."""
    if not ids:
        return {}
    rows = await session.scalars(
        select(AdPayment).where(AdPayment.flight_id.in_(ids), AdPayment.status == AdPaymentStatus.paid.value)
    )
    return {row.flight_id: row for row in rows}


async def days_of(session: AsyncSession, flight_id: str) -> list[tuple[date, int, int, int]]:
    """(day, views, clicks, cost in millicents) of each day the flight ran, oldest first (one aggregate)."""
    rows = await session.execute(
        select(
            AdDailyStat.day,
            func.sum(AdDailyStat.views),
            func.sum(AdDailyStat.clicks),
            func.sum(AdDailyStat.cost_millicents),
        )
        .where(AdDailyStat.flight_id == flight_id)
        .group_by(AdDailyStat.day)
        .order_by(AdDailyStat.day)
    )
    return [(day, int(v or 0), int(c or 0), int(m or 0)) for day, v, c, m in rows.all()]
