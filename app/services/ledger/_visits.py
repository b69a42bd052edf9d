"""A visit's money, from checkout to refund, written in the unit of work of the business change.

- **Placed** (`record_order_placed`, subscribed in the order's own transaction to `OrderPlaced` and, for a
  card payment confirmed later, `PaymentCaptured`: `post_booked_order`): each visit gets its `VisitCharge` (its
  price and its share of the order's 5 % fee, split by price so the shares add up to the order's fee) and
  one entry moves the order's total from the world into the patient's `patient_booked` account: owed at
  the visit with pay at visit, paid ahead with a gateway that collects at checkout. A card payment the
  processor confirms later (Stripe) is recorded by the payments webhook once it is paid; until then its
  visits cannot be completed or cancelled here (`AWAITING_PAYMENT`), and a failed one never enters.
- **Completed** (`settle_completed_visit`), paid ahead: patient_booked → provider_pending (the price) +
  platform_fees (the fee share); the visit's `booking` transaction settles, and once no visit of the order is
  open the order's `fee` transaction settles at the fees actually collected and the order is paid. Pay at
  visit: nothing moves at completion; what the provider collected in person is recorded then or later
  (`_collections`: `collected_at_visit`), and until all of it is, the visit is payment due (its money stays
  in patient_booked, its transactions pending, its order unpaid).
- **Cancelled** (`settle_cancelled_visit`): nothing collected yet → the amount owed goes back to the world
  (`booking_voided`) and its transactions are cancelled. Paid ahead → a refund as wallet credit
  (patient_booked → patient_credit), by policy: in full when the cancellation is at least
  REFUND_NOTICE_HOURS before the start; inside that window only as a staff exception (process_payments,
  with a reason, audited).
- **Refunded after completion** (`refund_visit`, staff with process_payments, a reason): the refunded share
  of the visit's total reverses the provider's earning and the platform fee in proportion (the provider's
  pending earning first, then available), as wallet credit. A pay-at-visit visit refunds at most what was
  collected in person: the provider's share from their available card earnings (they hold the cash), the
  fee from what they still owe us (provider_receivable), the rest of it from our fees.

**Discounts** (issue 29 item 6): a visit booked at a sale's price records on its charge the discount (its
original price minus its price) and who funds it, as the business setting "Who pays for discounts" says in
the order's unit of work (`record_order_placed`), so a later change never alters a booked visit.
Platform-funded (the default): the provider earns the full price (`earning_of`): at completion
patient_booked −(price + fee), provider_pending +(price + discount), platform_fees +(fee − discount), below
zero when the discount is more than the fee (the platform's accounts keep no balance row); the release moves
the full earning; pay at visit settles the discount with the collection that covers the price
(`_collections`); a refund takes back the discount in the proportion refunded (`refunded_discount`).
Provider-funded: the provider earns the discounted price, as without a discount.

The SPEC's transaction rows stay the readable view: `booking` per visit and `fee` per order (pending, then
completed or cancelled), and a `refund` row per refund, always equal to the postings (tests check both).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.events import publish_event
from app.principal import Principal
from app.services.domain_events import (
    AppointmentCompleted,
    BookedVisit,
    OrderPlaced,
    PaymentCaptured,
    PaymentCollected,
    RefundIssued,
    WalletCreditGranted,
)
from app.services.errors import NotFound, ValidationFailed
from app.services.features.internal import discount_funding
from app.services.ledger._card_refunds import card_destination, send_to_card
from app.services.ledger._journal import (
    FEES,
    WORLD,
    InsufficientFunds,
    Leg,
    account_id,
    cents,
    dollars,
    lock_balances,
    move,
    post,
)
from app.services.ledger._rules import (
    AWAITING_PAYMENT,
    CREDIT_TOO_SMALL,
    MAX_REASON,
    NO_PATIENT,
    NO_VISIT,
    NOT_COMPLETED,
    NOTHING_LEFT,
    REFUND_ALREADY_PAID_OUT,
    REFUND_IN_PERSON,
    REFUND_NEEDS_EXCEPTION,
    REFUND_NOTICE_HOURS,
    REFUND_REASON_REQUIRED,
    REFUND_TOO_MUCH,
    require_payments_staff,
)
from app.services.payments import gateway_of, get_gateway
from app.services.shared.locks import write_lock
from models.audit import AuditAction
from models.base import new_id, utcnow
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    OrderStatus,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.identity import User, as_utc
from models.ledger import AccountKind, DiscountFunding, EntryKind, VisitCharge, VisitPaymentRead
from models.payment import CardPayment, CardPaymentStatus


def split_fee(fee: int, prices: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The order's fee (cents) split over its visits ((id, price cents)) in proportion to their prices, the
    rounding cents going to the largest remainders (ties by id): the shares always add up to `fee`."""
    subtotal = sum(price for _id, price in prices)
    if subtotal <= 0:
        shares = {visit_id: 0 for visit_id, _price in prices}
        if prices:
            shares[min(visit_id for visit_id, _price in prices)] = fee
        return shares
    exact = {visit_id: divmod(fee * price, subtotal) for visit_id, price in prices}
    shares = {visit_id: whole for visit_id, (whole, _rest) in exact.items()}
    left = fee - sum(shares.values())
    for visit_id in sorted(exact, key=lambda v: (-exact[v][1], v))[:left]:
        shares[visit_id] += 1
    return shares


async def record_order_placed(
    *,
    session: AsyncSession,
    order_id: str,
    patient_id: str,
    visits: Sequence[BookedVisit],
    fee: Decimal,
    paid_ahead: bool,
    at: datetime | None = None,
    funding: DiscountFunding | None = None,
) -> None:
    """Each visit's charge, and one entry: the order's total into the patient's booked account. A visit
    booked at a sale's price records its discount and who funds it: `funding`, else the business setting
    read now, in the order's unit of work."""
    at = at or utcnow()
    shares = split_fee(cents(fee), [(v.appointment_id, cents(v.price)) for v in visits])
    originals = await _originals(session, visits)
    if funding is None and any(originals[v.appointment_id] > cents(v.price) for v in visits):
        funding = await discount_funding(session=session)
    rows = [
        {
            "appointment_id": v.appointment_id,
            "order_id": order_id,
            "patient_id": patient_id,
            "provider_id": v.provider_id,
            "price": cents(v.price),
            "fee": shares[v.appointment_id],
            "paid_ahead": paid_ahead,
            "discount": max(originals[v.appointment_id] - cents(v.price), 0),
            "discount_funded_by": (
                funding.value if funding and originals[v.appointment_id] > cents(v.price) else None
            ),
            "created_at": at,
        }
        for v in visits
    ]
    # Wallet credit spent at checkout (`_credit_spend`) is already in patient_booked: split over the visits
    # by their totals, and only the rest comes in from the world.
    from app.services.ledger._credit_spend import order_credit

    spent = await order_credit(session, order_id)
    if spent:
        totals = [(v.appointment_id, cents(v.price) + shares[v.appointment_id]) for v in visits]
        for row, credit in zip(rows, split_fee(spent, totals).values(), strict=True):
            row["credit"] = credit
    await session.execute(insert(VisitCharge), rows)
    total = sum(cents(v.price) + shares[v.appointment_id] for v in visits) - spent
    await post(
        session=session,
        kind=EntryKind.order_placed,
        legs=move(total, WORLD, (AccountKind.patient_booked, patient_id)),
        description="Visits booked (paid ahead)" if paid_ahead else "Visits booked (pay at visit)",
        order_id=order_id,
        at=at,
    )


async def _originals(session: AsyncSession, visits: Sequence[BookedVisit]) -> dict[str, int]:
    """Each visit's original price in cents: the event's, else the visit's own (`original_price`)."""
    found = {v.appointment_id: cents(v.original) for v in visits if v.original is not None}
    missing = [v.appointment_id for v in visits if v.original is None]
    if missing:
        rows = await session.execute(
            select(Appointment.id, Appointment.original_price).where(Appointment.id.in_(missing))
        )
        found |= {visit_id: cents(original) for visit_id, original in rows.tuples() if original is not None}
    return {v.appointment_id: found.get(v.appointment_id, cents(v.price)) for v in visits}


def earning_of(charge: VisitCharge) -> int:
    """The provider's earning for the visit before refunds: its price, plus a discount the platform funds."""
    return charge.price + charge.platform_discount


async def post_booked_order(
    session: AsyncSession,
    booked: OrderPlaced | PaymentCaptured,
    *,
    funding: DiscountFunding | None = None,
) -> None:
    """The ledger's side of a booked order (in its transaction): a captured card payment is paid ahead. Who
    funds a discount: `funding`, else the business setting."""
    await record_order_placed(
        session=session,
        order_id=booked.order_id,
        patient_id=booked.patient_id,
        visits=booked.visits,
        fee=booked.fee,
        paid_ahead=booked.paid_ahead if isinstance(booked, OrderPlaced) else True,
        at=booked.at,
        funding=funding,
    )


async def _charge(session: AsyncSession, row: Appointment) -> VisitCharge:
    """The visit's charge, row-locked on PostgreSQL. An order placed before the ledger existed (or written
    without checkout, as demo data is) gets its charges now, with the entry checkout would have written."""
    await write_lock(session, VisitCharge.appointment_id, [row.id])
    found = await session.scalar(
        select(VisitCharge)
        .where(VisitCharge.appointment_id == row.id)
        .execution_options(populate_existing=True)
    )
    if found is not None:
        return found
    order = await session.scalar(select(Order).where(Order.id == row.order_id).with_for_update())
    if order is None:
        raise NotFound(NO_VISIT)
    payment = await session.get(CardPayment, order.id)
    if payment is not None and payment.status is not CardPaymentStatus.paid:
        # Nothing of an order awaiting its card payment is in the ledger yet (and a failed one never is).
        raise ValidationFailed(AWAITING_PAYMENT)
    visits = (await session.execute(select(Appointment).where(Appointment.order_id == order.id))).scalars()
    paid_ahead = gateway_of(order).collects_at_order
    await record_order_placed(
        session=session,
        order_id=order.id,
        patient_id=order.patient_id,
        visits=[BookedVisit(v.id, v.provider_id, v.price, v.original_price) for v in visits.all()],
        fee=order.platform_fee,
        paid_ahead=paid_ahead,
        at=as_utc(order.created_at),
    )
    # `row` is one of the order's visits, whose charges were just written.
    return (
        await session.execute(select(VisitCharge).where(VisitCharge.appointment_id == row.id))
    ).scalar_one()


async def _transactions(
    session: AsyncSession, kind: TransactionType, *, appointment_id: str | None = None, order_id: str
) -> Sequence[Transaction]:
    query = select(Transaction).where(Transaction.order_id == order_id, Transaction.type == kind)
    if appointment_id is not None:
        query = query.where(Transaction.appointment_id == appointment_id)
    return (await session.scalars(query)).all()


async def _close_order(session: AsyncSession, order_id: str, at: datetime) -> None:
    """The order's fee transaction and status after one of its visits was completed or cancelled: while a
    visit is open the pending fee is what may still be collected (the shares of visits not voided); once
    none is open it settles at the fees collected (the order is paid), or is cancelled with the order when
    every visit was cancelled."""
    await session.flush()
    charges = (await session.scalars(select(VisitCharge).where(VisitCharge.order_id == order_id))).all()
    open_visits = await session.scalar(
        select(func.count())
        .select_from(Appointment)
        .where(
            Appointment.order_id == order_id,
            Appointment.status.not_in((AppointmentStatus.completed, AppointmentStatus.cancelled)),
        )
    )
    gateway = get_gateway()
    # A pay-at-visit visit completed without (all of) its payment keeps the order open: payment due.
    due = any(
        not c.paid_ahead
        and c.voided_at is None
        and c.completed_at is not None
        and c.collected + c.credit < c.price + c.fee
        for c in charges
    )
    collectable = sum(c.fee for c in charges if c.voided_at is None or c.paid_ahead)
    fees = await _transactions(session, TransactionType.fee, order_id=order_id)
    # Fees already settled in part by collections at visits (`_collections`); the pending row is the rest.
    settled = sum(cents(f.amount) for f in fees if f.status is TransactionStatus.completed)
    for fee in fees:
        if fee.status is not TransactionStatus.pending:
            continue
        rest = collectable - settled
        if rest > 0:
            fee.amount = dollars(rest)
        if open_visits or due:
            continue
        if rest > 0 and any(c.completed_at is not None for c in charges):
            await gateway.settle(fee, at=at)
        else:
            await gateway.void(fee)
    if open_visits or due:
        return
    completed = any(c.completed_at is not None for c in charges)
    status = OrderStatus.paid if completed else OrderStatus.cancelled
    await session.execute(update(Order).where(Order.id == order_id).values(status=status))


async def _booking_done(
    session: AsyncSession, appointment_id: str, order_id: str, at: datetime, *, collected: bool
) -> None:
    """The visit's pending `booking` transaction settles (collected) or is voided, then the order's fee."""
    gateway = get_gateway()
    for booking in await _transactions(
        session, TransactionType.booking, appointment_id=appointment_id, order_id=order_id
    ):
        if booking.status is TransactionStatus.pending:
            await (gateway.settle(booking, at=at) if collected else gateway.void(booking))
    await _close_order(session, order_id, at)


async def settle_completed_visit(*, session: AsyncSession, row: Appointment, at: datetime) -> None:
    """The visit was completed. Paid ahead: its money is collected into the provider's pending earning and
    the platform's fees, and its transactions settle. Pay at visit: it is marked completed and nothing
    moves; what was collected in person is recorded by `record_visit_payment` (until then, payment due)."""
    if row.order_id is None:
        return
    charge = await _charge(session, row)
    if not charge.paid_ahead:
        if charge.completed_at is None and charge.voided_at is None:
            from app.services.ledger._credit_spend import settle_visit_credit

            await settle_visit_credit(session, charge, at)  # the part paid with wallet credit at checkout
            charge.completed_at = at
            # The provider's earning is paid to them at the door: nothing of it waits in a dispute window
            # here (the release job skips released charges).
            charge.released_at = at
        await _close_order(session, row.order_id, at)
        return
    if charge.completed_at is None and charge.voided_at is None:
        # A discount the platform funds: the provider earns the full price, the fee leg carries the discount
        # (it may be below zero for this entry: the fees account keeps no balance row).
        await post(
            session=session,
            kind=EntryKind.visit_completed,
            legs=[
                Leg(AccountKind.patient_booked, charge.patient_id, -(charge.price + charge.fee)),
                Leg(AccountKind.provider_pending, charge.provider_id, earning_of(charge)),
                Leg(AccountKind.platform_fees, "", charge.fee - charge.platform_discount),
            ],
            description="Visit completed",
            order_id=charge.order_id,
            appointment_id=row.id,
            at=at,
        )
        charge.completed_at = at
        await publish_event(
            session, PaymentCollected(**_money_of(charge), amount_cents=charge.price + charge.fee, at=at)
        )
    await _booking_done(session, row.id, row.order_id, at, collected=True)


async def settle_visit_completed(session: AsyncSession, completed: AppointmentCompleted) -> None:
    """`AppointmentCompleted`'s subscriber, in the visit's transaction (its row is in the session already)."""
    row = await session.get_one(Appointment, completed.appointment_id)
    await settle_completed_visit(session=session, row=row, at=completed.at)


def refund_refusal(*, starts_at: datetime, now: datetime, exception: str) -> str | None:
    """Why the money paid for a visit cannot go back on cancelling it now (None: refunded in full)."""
    if as_utc(starts_at) - now >= timedelta(hours=REFUND_NOTICE_HOURS) or exception.strip():
        return None
    return REFUND_NEEDS_EXCEPTION


async def _refund_row(
    session: AsyncSession,
    charge: VisitCharge,
    amount: int,
    description: str,
    at: datetime,
    *,
    to_card: bool = False,
) -> Transaction:
    row = Transaction(
        id=new_id(),  # known before the flush: a card refund's idempotency key is made from it
        order_id=charge.order_id,
        appointment_id=charge.appointment_id,
        user_id=charge.patient_id,
        type=TransactionType.refund,
        status=TransactionStatus.completed,
        amount=dollars(amount),
        description=description,
        gateway="wallet",
        settled_at=at,
    )
    session.add(row)
    refund = RefundIssued(**_money_of(charge), amount_cents=amount, at=at, to_card=to_card)
    await publish_event(session, refund)
    return row


def _money_of(charge: VisitCharge) -> dict[str, str]:
    return {
        "appointment_id": charge.appointment_id,
        "order_id": charge.order_id,
        "patient_id": charge.patient_id,
        "provider_id": charge.provider_id,
    }


async def settle_cancelled_visit(
    *,
    session: AsyncSession,
    actor: Principal,
    row: Appointment,
    at: datetime,
    refund_exception: str = "",
) -> None:
    """The visit was cancelled: an amount owed is voided; money paid ahead is refunded as wallet credit
    under the refund policy (inside the window only with a staff exception: process_payments and its
    reason, audited)."""
    if row.order_id is None:
        return
    charge = await _charge(session, row)
    if charge.voided_at is None and charge.completed_at is None:
        exception = (refund_exception or "").strip()[:MAX_REASON]
        if charge.paid_ahead:
            refusal = refund_refusal(starts_at=row.starts_at, now=at, exception=exception)
            if refusal:
                raise ValidationFailed(refusal)
            staff = None
            if as_utc(row.starts_at) - at < timedelta(hours=REFUND_NOTICE_HOURS):
                staff = await require_payments_staff(session=session, actor=actor)
            amount = charge.price + charge.fee
            await post(
                session=session,
                kind=EntryKind.refund,
                legs=move(amount, (AccountKind.patient_booked, charge.patient_id), _credit(charge)),
                description="Cancelled visit refunded as wallet credit",
                order_id=charge.order_id,
                appointment_id=row.id,
                actor_id=staff.id if staff else actor.user_id,
                reason=exception,
                at=at,
            )
            charge.refunded_earning, charge.refunded_fee = charge.price, charge.fee
            await _refund_row(session, charge, amount, "Refund as wallet credit (cancelled visit)", at)
            if staff is not None:
                await audit.record_by(
                    session=session,
                    account=staff,
                    actor=actor,
                    action=AuditAction.refund_exception,
                    target=row.id,
                    details={"amount_cents": amount, "reason": exception},
                )
        else:
            from app.services.ledger._credit_spend import return_visit_credit

            returned = await return_visit_credit(session, charge, at)  # wallet credit spent on it goes back
            await post(
                session=session,
                kind=EntryKind.booking_voided,
                legs=move(
                    charge.price + charge.fee - returned,
                    (AccountKind.patient_booked, charge.patient_id),
                    WORLD,
                ),
                description="Cancelled visit, nothing to collect",
                order_id=charge.order_id,
                appointment_id=row.id,
                at=at,
            )
        charge.voided_at = at
    await _booking_done(session, row.id, row.order_id, at, collected=False)


def visit_payment_of(charge: VisitCharge) -> VisitPaymentRead:
    total = charge.price + charge.fee
    paid = charge.collected + charge.credit  # in person, and with wallet credit at checkout
    due = 0 if charge.paid_ahead or charge.voided_at is not None else max(total - paid, 0)
    return VisitPaymentRead(
        appointment_id=charge.appointment_id,
        paid_ahead=charge.paid_ahead,
        total=dollars(total),
        collected=dollars(charge.collected),
        due=dollars(due),
        collection_method=charge.collection_method,
    )


async def visit_payments(session: AsyncSession, rows: Sequence[Appointment]) -> dict[str, VisitPaymentRead]:
    """The money of these visits by id, from their charges; a visit of an order written without checkout
    (no charges yet) gets what its charge will be (its fee share split as checkout splits it). Reads only."""
    ids = [r.id for r in rows if r.order_id]
    if not ids:
        return {}
    found = {
        c.appointment_id: visit_payment_of(c)
        for c in (await session.scalars(select(VisitCharge).where(VisitCharge.appointment_id.in_(ids))))
    }
    missing = {r.order_id for r in rows if r.order_id and r.id not in found}
    if missing:
        orders = (await session.scalars(select(Order).where(Order.id.in_(missing)))).all()
        visits = (await session.scalars(select(Appointment).where(Appointment.order_id.in_(missing)))).all()
        for order in orders:
            mine = [v for v in visits if v.order_id == order.id]
            shares = split_fee(cents(order.platform_fee), [(v.id, cents(v.price)) for v in mine])
            ahead = gateway_of(order).collects_at_order
            for v in mine:
                total = dollars(cents(v.price) + shares[v.id])
                cancelled = v.status is AppointmentStatus.cancelled
                found[v.id] = VisitPaymentRead(
                    appointment_id=v.id,
                    paid_ahead=ahead,
                    total=total,
                    collected=dollars(0),
                    due=dollars(0) if ahead or cancelled else total,
                )
    wanted = set(ids)  # an order's other visits were read only to split its fee
    return {key: value for key, value in found.items() if key in wanted}


def _credit(charge: VisitCharge) -> tuple[AccountKind, str]:
    return (AccountKind.patient_credit, charge.patient_id)


def proportional(total: int, price: int, fee: int) -> tuple[int, int]:
    """(earning, fee) reversed by refunding `total` cents of a visit of `price` + `fee`: in proportion,
    rounded half up on the earning, the fee taking the rest."""
    whole = price + fee
    earning = (2 * total * price + whole) // (2 * whole) if whole else 0
    return earning, total - earning


def discount_reached(charge: VisitCharge) -> int:
    """Cents of a platform-funded discount that reached the provider: paid ahead, at completion; at a
    pay-at-visit visit, with the collection that covered its price (`_collections`)."""
    if not charge.platform_discount or charge.completed_at is None:
        return 0
    if not charge.paid_ahead and charge.collected < charge.price:
        return 0
    return charge.platform_discount


def _discount_reversed(charge: VisitCharge, total: int) -> int:
    """The part of the discount the provider received that refunding `total` more cents takes back: the
    discount times the share of the visit refunded in all, rounded half up, less what was taken already."""
    reached = discount_reached(charge)
    whole = charge.price + charge.fee
    if not reached or whole <= 0:
        return 0
    refunded = charge.refunded_earning + charge.refunded_fee + total
    due = min((2 * refunded * reached + whole) // (2 * whole), reached)
    return max(due - charge.refunded_discount, 0)


def collected_in_person(charge: VisitCharge) -> bool:
    """A pay-at-visit visit whose money the provider recorded collecting (not one booked before that rule)."""
    return not charge.paid_ahead and charge.collection_method is not None


def paid_parts(charge: VisitCharge) -> tuple[int, int]:
    """(price, fee) cents of the visit the patient paid, what a refund may give back: all of it when paid
    ahead; of a pay-at-visit visit only what was collected in person (the provider's price first)."""
    if not collected_in_person(charge):
        return charge.price, charge.fee
    paid = charge.collected + charge.credit  # wallet credit at checkout counts, the price first
    paid_price = min(paid, charge.price)
    return paid_price, paid - paid_price


async def refund_visit(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    reason: str,
    amount: Decimal | None = None,
    now: datetime | None = None,
    to_card: bool | None = False,
) -> Decimal:
    """Staff (process_payments) refund part or all (`amount`, default what is left) of a completed visit
    as wallet credit, or to the card it was paid with (`to_card`; None: to the card when paid by card),
    with a reason: the provider's earning (pending first, then available) and the platform fee are reversed
    in proportion. Returns the amount refunded. To the card, the money leaves the platform (the world
    account card payments came in from) and Stripe is asked last (`_card_refunds`): its refusal raises,
    and the caller's unit of work, rolled back, books nothing."""
    staff = await require_payments_staff(session=session, actor=actor)
    at = now or utcnow()
    reason = (reason or "").strip()[:MAX_REASON]
    if not reason:
        raise ValidationFailed(REFUND_REASON_REQUIRED)
    row = await session.get(Appointment, appointment_id)
    if row is None or row.order_id is None:
        raise NotFound(NO_VISIT)
    if row.status is not AppointmentStatus.completed:
        raise ValidationFailed(NOT_COMPLETED)
    charge = await _charge(session, row)
    to_card = await card_destination(session, charge, to_card)
    in_person = collected_in_person(charge)
    paid_price, paid_fee = paid_parts(charge)
    left_earning = paid_price - charge.refunded_earning
    left_fee = paid_fee - charge.refunded_fee
    left = left_earning + left_fee
    if left <= 0:
        raise ValidationFailed(NOTHING_LEFT)
    total = left if amount is None else cents(amount)
    if total <= 0 or total > left:
        raise ValidationFailed(REFUND_TOO_MUCH.format(left=dollars(left)))
    earning, fee = proportional(total, charge.price, charge.fee)
    earning, fee = min(earning, left_earning), min(fee, left_fee)
    earning += total - earning - fee  # a last cent the rounding gave the other side
    # A discount the platform funded went to the provider on top of the price: refunds take it back from
    # them in the same proportion (of all refunded so far, so a full refund takes all of it), and the
    # platform's fee leg gives back that much less (it may gain, when the discount is more than the fee).
    discount = _discount_reversed(charge, total)
    back = earning + discount
    kept_fee = fee - discount
    pending = account_id(AccountKind.provider_pending, charge.provider_id)
    available = account_id(AccountKind.provider_available, charge.provider_id)
    receivable = account_id(AccountKind.provider_receivable, charge.provider_id)
    held = await lock_balances(session, [pending, available, receivable])
    # Until the dispute window ends this visit's earning is all pending; after, it is available (or paid).
    # Collected in person, the provider holds it: their share is taken back from their available card
    # earnings, and the fee from what they still owe us (the rest, already netted, from our fees).
    from_pending = back if charge.released_at is None and not in_person else 0
    from_available = back - from_pending
    from_receivable = min(max(kept_fee, 0), held[receivable]) if in_person else 0
    if from_pending > held[pending] or from_available > held[available]:
        raise ValidationFailed(REFUND_IN_PERSON if in_person else REFUND_ALREADY_PAID_OUT)
    credit = WORLD if to_card else _credit(charge)
    try:
        await post(
            session=session,
            kind=EntryKind.refund,
            legs=[
                Leg(AccountKind.provider_pending, charge.provider_id, -from_pending),
                Leg(AccountKind.provider_available, charge.provider_id, -from_available),
                Leg(AccountKind.provider_receivable, charge.provider_id, -from_receivable),
                Leg(FEES[0], FEES[1], -(kept_fee - from_receivable)),
                Leg(credit[0], credit[1], total),
            ],
            description="Visit refunded to the card" if to_card else "Visit refunded as wallet credit",
            order_id=charge.order_id,
            appointment_id=row.id,
            actor_id=staff.id,
            reason=reason,
            at=at,
        )
    except InsufficientFunds:
        raise ValidationFailed(REFUND_ALREADY_PAID_OUT) from None
    charge.refunded_earning += earning
    charge.refunded_fee += fee
    charge.refunded_discount += discount
    if to_card:
        refund = await _refund_row(session, charge, total, "Refund to card", at, to_card=True)
        await send_to_card(session, refund, charge, total, at)
    else:
        await _refund_row(session, charge, total, "Refund as wallet credit", at)
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.refund_issued,
        target=row.id,
        details={
            "amount_cents": total,
            "earning_cents": earning,
            "fee_cents": fee,
            "discount_cents": discount,
            "reason": reason,
            "to": "card" if to_card else "wallet",
        },
    )
    return dollars(total)


async def grant_wallet_credit(
    *,
    session: AsyncSession,
    actor: Principal,
    patient_id: str,
    amount: Decimal,
    reason: str,
    now: datetime | None = None,
) -> Decimal:
    """Staff (process_payments) add goodwill credit to a patient's wallet, with a reason (audited); returns
    the patient's new credit balance."""
    staff = await require_payments_staff(session=session, actor=actor)
    at = now or utcnow()
    reason = (reason or "").strip()[:MAX_REASON]
    if not reason:
        raise ValidationFailed(REFUND_REASON_REQUIRED)
    value = cents(amount)
    if value <= 0:
        raise ValidationFailed(CREDIT_TOO_SMALL)
    if await session.get(User, patient_id) is None:
        raise NotFound(NO_PATIENT)
    await post(
        session=session,
        kind=EntryKind.credit_adjustment,
        legs=move(value, WORLD, (AccountKind.patient_credit, patient_id)),
        description="Credit from support",
        actor_id=staff.id,
        reason=reason,
        at=at,
    )
    session.add(
        Transaction(
            user_id=patient_id,
            type=TransactionType.adjustment,
            status=TransactionStatus.completed,
            amount=dollars(value),
            description="Credit from support",
            gateway="wallet",
            settled_at=at,
        )
    )
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.credit_adjusted,
        target=patient_id,
        details={"amount_cents": value, "reason": reason},
    )
    await publish_event(session, WalletCreditGranted(patient_id=patient_id, amount_cents=value, at=at))
    credit = account_id(AccountKind.patient_credit, patient_id)
    return dollars((await lock_balances(session, [credit]))[credit])
