"""Orders: `place_order` books the patient's holds in one unit of work — every hold, place and address is
checked again before the payment gateway is asked for anything; then the order, the `pending` appointments,
their transactions are written, the booked items leave the cart, and the order is published (`OrderPlaced`:
the ledger posts what the patient owes, or paid ahead, in this transaction; the notifications, e-mails and
automation events follow the commit, `_announce`) — and `get_order` reads one back for its patient.

Prices: a hold records the price computed when it was taken, and that price stays valid while the hold
lives (the patient saw it; a sale ending during checkout does not raise it). Placing the order computes the
current price again and charges the lower of the two.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cache

from sqlalchemy import BindParameter, Select, String, and_, bindparam, case, literal, or_, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app.db import changed_rows
from app.events import publish_event
from app.principal import Principal
from app.services.appointments import read_of
from app.services.appointments.internal import appointment_reads, lock_providers
from app.services.booking._payment_choice import choose_payment
from app.services.booking._rules import (
    EXPIRED,
    LONG_NOTES,
    MAX_LINES,
    NEED_CITY,
    NEED_STATE,
    NEED_STREET,
    NEED_ZIP,
    NO_ORDER,
    NOT_COVERED,
    NOT_HELD,
    NOTES_MAX,
    NOTHING_TO_BOOK,
    ORDER_ALPHABET,
    PROVIDER_PLACE,
    TAKEN,
    TOO_MANY,
    TWICE,
    UNKNOWN_HOLD,
    WITHDRAWN,
    agreed_to_travel,
)
from app.services.catalog import CENT, price_for
from app.services.domain_events import BookedVisit, CheckedOut, OrderPlaced
from app.services.errors import NotFound, ValidationFailed
from app.services.ledger import cents
from app.services.ledger.internal import spend_wallet_credit
from app.services.providers import NOT_LICENSED, display_name, licensed_until_sql
from app.services.safety import find_red_flag
from app.services.shared.accounts import is_admin
from app.services.shared.addresses import ADDRESSED, address_problems, zip_state
from app.services.shared.clock import current_time
from app.services.shared.fees import PLATFORM_FEE_PERCENT, platform_fee
from app.services.shared.signed_in import require_account
from models.account import AccountRead
from models.booking import (
    Appointment,
    AppointmentRead,
    AppointmentStatus,
    CheckoutLine,
    Order,
    OrderRead,
    OrderStatus,
    Transaction,
    TransactionRead,
    TransactionStatus,
    TransactionType,
    lost_a_race,
)
from models.catalog import Price, Service, ServiceCategory, ServiceLocation
from models.identity import as_utc
from models.payment import CardPayment, CardPaymentStatus
from models.provider import Provider, ProviderService, ProviderZip, is_listed


def _transaction_read(t: Transaction) -> TransactionRead:
    return TransactionRead(
        id=t.id,
        order_id=t.order_id,
        appointment_id=t.appointment_id,
        type=t.type,
        status=t.status,
        amount=t.amount,
        currency=t.currency,
        description=t.description,
        created_at=as_utc(t.created_at),
        settled_at=as_utc(t.settled_at),
    )


def _assemble(
    order: Order,
    appointments: list[AppointmentRead],
    transactions: Sequence[Transaction],
    payment: CardPayment | None = None,
) -> OrderRead:
    """The OrderRead of `order`: its visits by start time, each visit's transactions after it in that
    order, the fee last."""
    appointments = sorted(appointments, key=lambda a: (a.starts_at, a.id))
    position = {a.id: index for index, a in enumerate(appointments)}
    ordered = sorted(
        transactions,
        key=lambda t: (t.appointment_id is None, position.get(t.appointment_id or "", 0), t.type.value),
    )
    return OrderRead(
        id=order.id,
        number=order.number,
        status=order.status,
        subtotal=order.subtotal,
        platform_fee=order.platform_fee,
        total=order.total,
        payment_method=order.payment_method,
        created_at=as_utc(order.created_at),
        appointments=appointments,
        transactions=[_transaction_read(t) for t in ordered],
        payment_status=payment.status.value if payment else "",
        payment_url=payment.checkout_url if payment and payment.status is CardPaymentStatus.awaiting else "",
        safety_message=_safety_message(appointments),
    )


def _safety_message(appointments: list[AppointmentRead]) -> str:
    """The 911 / 988 message when the patient's intake notes have a red flag (issue 27): the visit is booked
    all the same, and the confirmation shows it. The words are read, never kept."""
    flag = find_red_flag("\n".join(visit.notes for visit in appointments if visit.notes))
    return flag.message if flag else ""


async def _order_read(session: AsyncSession, order: Order) -> OrderRead:
    appointments = (
        await session.scalars(
            select(Appointment)
            .where(Appointment.order_id == order.id)
            .order_by(Appointment.starts_at, Appointment.id)
            .execution_options(populate_existing=True)
        )
    ).all()
    transactions = (await session.scalars(select(Transaction).where(Transaction.order_id == order.id))).all()
    payment = await session.get(CardPayment, order.id, populate_existing=True)
    return _assemble(order, await appointment_reads(session, appointments), transactions, payment)


def _for_reader(read: OrderRead, reader_id: str, order: Order) -> OrderRead:
    """The safety message is for the patient who wrote the notes, not for an admin reading their order."""
    return read if order.patient_id == reader_id else read.model_copy(update={"safety_message": ""})


async def get_order(*, session: AsyncSession, actor: Principal, order_id: str) -> OrderRead:
    """An order of the signed-in patient (any order for an owner or admin)."""
    account = await require_account(session=session, actor=actor)
    order = await session.get(Order, order_id)
    if order is None or (order.patient_id != account.id and not is_admin(account)):
        raise NotFound(NO_ORDER)
    return _for_reader(await _order_read(session, order), account.id, order)


async def get_order_by_number(*, session: AsyncSession, actor: Principal, number: str) -> OrderRead:
    """An order of the signed-in patient by its number (its confirmation page's address); any order for an
    owner or admin. Someone else's order reads as no order at all."""
    account = await require_account(session=session, actor=actor)
    order = await session.scalar(select(Order).where(Order.number == number[:16].upper()))
    if order is None or (order.patient_id != account.id and not is_admin(account)):
        raise NotFound(NO_ORDER)
    return _for_reader(await _order_read(session, order), account.id, order)


# ---- placing the order --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Visit:
    """A checked line: the hold it books, where, and what it costs."""

    hold: Appointment
    service: Service
    provider: Provider
    line: CheckoutLine
    zip_code: str
    address_line: str
    city: str
    state: str
    notes: str
    price: Price


def _place(
    line: CheckoutLine,
    service: Service,
    provider: Provider,
    offer: ProviderService,
    serves_zip: bool,
) -> tuple[str, str, str, str]:
    """(zip, street, city, state) of a line once its place is allowed: virtual visits need no address, a
    clinic visit the provider's area ZIP code, the other places a full address in the provider's area."""
    names = {"service": service.name, "provider": display_name(provider.first_name, provider.last_name)}
    location = line.location
    if not (service.location_mask & location.bit and offer.location_mask & location.bit):
        raise ValidationFailed(PROVIDER_PLACE.format(**names, place=location.label))
    if location == ServiceLocation.virtual:
        return "", "", "", ""
    problems = address_problems(
        location, zip_code=line.zip_code, address_line=line.address_line, city=line.city, state=line.state
    )
    zip_code = line.zip_code.strip()
    if "zip_code" in problems:
        raise ValidationFailed(NEED_ZIP.format(**names))
    if not serves_zip:
        raise ValidationFailed(NOT_COVERED.format(**names, zip=zip_code))
    if location not in ADDRESSED:
        return zip_code, "", "", ""
    for name, message in (("address_line", NEED_STREET), ("city", NEED_CITY), ("state", NEED_STATE)):
        if name in problems:
            raise ValidationFailed(message.format(**names))
    return (
        zip_code,
        " ".join(line.address_line.split()),
        " ".join(line.city.split()),
        line.state.strip().upper(),
    )


@dataclass(frozen=True)
class _Checked:
    """What `_checked_visits` found: the visits, and whether the proposed order number is already taken."""

    visits: list[_Visit]
    number_taken: bool


@cache
def _checked_statement(
    count: int,
) -> Select[Appointment, Service, str, Provider, ProviderService | None, bool, bool, date | None]:
    """`_checked_visits`' statement for `count` lines, built once: the holds `hold_0`…, each line's ZIP
    code `zip_0`… (matched to its hold with a CASE) and the order `number` are parameters."""
    holds: list[BindParameter[str]] = [bindparam(f"hold_{index}") for index in range(count)]
    line_zip = case(
        *(
            (Appointment.id == hold, bindparam(f"zip_{index}", type_=String()))
            for index, hold in enumerate(holds)
        ),
        else_=literal("", String()),
    )
    covered = or_(
        select(ProviderZip.provider_id)
        .where(ProviderZip.provider_id == Appointment.provider_id, ProviderZip.zip_code == line_zip)
        .exists(),
        agreed_to_travel(Appointment.provider_id, Appointment.patient_id, line_zip, Appointment.starts_at),
    )
    line_state = case(
        *(
            (Appointment.id == hold, bindparam(f"state_{index}", type_=String()))
            for index, hold in enumerate(holds)
        ),
        else_=literal("", String()),
    )
    # The licence-state rule: the last day the provider is licensed in the line's state (None: never).
    licensed_until = licensed_until_sql(Appointment.provider_id, line_state)
    number_taken = select(Order.id).where(Order.number == bindparam("number")).exists()
    return (
        select(Appointment, Service, ServiceCategory.slug, Provider, ProviderService, covered)
        .add_columns(number_taken, licensed_until)
        .join(Service, Service.id == Appointment.service_id)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .join(Provider, Provider.id == Appointment.provider_id)
        .outerjoin(
            ProviderService,
            and_(
                ProviderService.provider_id == Appointment.provider_id,
                ProviderService.service_id == Appointment.service_id,
            ),
        )
        .where(Appointment.id.in_(holds))
    )


async def _checked_visits(
    session: AsyncSession, account: AccountRead, lines: list[CheckoutLine], now: datetime, number: str
) -> _Checked:
    """Every line re-checked against the database in one statement, whatever the number of lines: each
    hold with its service (and category), provider, the provider's offer of the service, whether the
    provider serves the line's ZIP code, and whether `number` (the order number to be) is taken."""
    values = {"number": number}
    for index, x in enumerate(lines):
        values[f"hold_{index}"], values[f"zip_{index}"] = x.hold_id, x.zip_code.strip()
        values[f"state_{index}"] = zip_state(x.zip_code.strip()) or ""
    rows = (await session.execute(_checked_statement(len(lines)), values)).all()
    found = {row[0].id: row for row in rows}
    if len(found) != len(lines):
        raise ValidationFailed(UNKNOWN_HOLD)
    visits = []
    for line in lines:
        hold, service, category_slug, provider, offer, serves_zip, _taken, licensed = found[line.hold_id]
        if hold.patient_id != account.id or hold.status != AppointmentStatus.held:
            raise ValidationFailed(NOT_HELD.format(service=service.name))
        expires = as_utc(hold.hold_expires_at)
        if expires is None or expires <= now:  # a hold always has its expiry
            raise ValidationFailed(EXPIRED.format(service=service.name))
        if offer is None or not (service.is_active and is_listed(provider)):
            name = display_name(provider.first_name, provider.last_name)
            raise ValidationFailed(WITHDRAWN.format(provider=name, service=service.name))
        zip_code, street, city, state = _place(line, service, provider, offer, serves_zip)
        if zip_code and (licensed is None or licensed < as_utc(hold.starts_at).date()):
            name = display_name(provider.first_name, provider.last_name)
            raise ValidationFailed(NOT_LICENSED.format(provider=name, state=zip_state(zip_code)))
        notes = line.notes.strip()
        if len(notes) > NOTES_MAX:
            raise ValidationFailed(LONG_NOTES.format(service=service.name))
        current = price_for(category_slug=category_slug, price=offer.price, at=now)
        held = Price(charge=hold.price, original=hold.original_price)
        visits.append(
            _Visit(
                hold=hold,
                service=service,
                provider=provider,
                line=line,
                zip_code=zip_code,
                address_line=street,
                city=city,
                state=state,
                notes=notes,
                price=current if current.charge < held.charge else held,
            )
        )
    return _Checked(visits=visits, number_taken=bool(rows[0][-2]))


def _new_order_number() -> str:
    """A short code such as 'MV-7K3Q9P' (32⁶ codes)."""
    return "MV-" + "".join(secrets.choice(ORDER_ALPHABET) for _ in range(6))


async def _order_number(session: AsyncSession) -> str:
    """A short code nobody has yet (a retry is very rare)."""
    while True:
        number = _new_order_number()
        if await session.scalar(select(Order.id).where(Order.number == number)) is None:
            return number


_BOOKED_COLUMNS = (
    "order_id",
    "status",
    "hold_expires_at",
    "location",
    "address_line",
    "city",
    "state",
    "zip_code",
    "notes",
    "price",
    "original_price",
)
# Conditional, so a second checkout of the same hold (another tab) finds nothing left to book. Built once.
_BOOK_HOLD = (
    update(Appointment)
    .where(
        Appointment.id == bindparam("the_hold"),
        Appointment.patient_id == bindparam("the_patient"),
        Appointment.status == AppointmentStatus.held,
        Appointment.hold_expires_at > bindparam("now"),
    )
    .values(
        {name: bindparam(f"new_{name}", type_=Appointment.__table__.c[name].type) for name in _BOOKED_COLUMNS}
    )
    .execution_options(synchronize_session=False)
)


async def _book_holds(
    session: AsyncSession, account: AccountRead, order: Order, visits: list[_Visit], now: datetime
) -> None:
    """Turn each held time into a pending visit of `order` (the hold rows in the session are brought up to
    date without reading them again)."""
    for visit in visits:
        values = {
            "order_id": order.id,
            "status": AppointmentStatus.pending,
            "hold_expires_at": None,
            "location": visit.line.location,
            "address_line": visit.address_line,
            "city": visit.city,
            "state": visit.state,
            "zip_code": visit.zip_code,
            "notes": visit.notes,
            "price": visit.price.charge,
            "original_price": visit.price.original,
        }
        where = {"the_hold": visit.hold.id, "the_patient": account.id, "now": now}
        booked = await changed_rows(session, _BOOK_HOLD, where | {f"new_{k}": v for k, v in values.items()})
        if booked != 1:
            raise ValidationFailed(NOT_HELD.format(service=visit.service.name))
        for key, value in values.items():
            set_committed_value(visit.hold, key, value)


async def place_order(
    *,
    session: AsyncSession,
    actor: Principal,
    lines: Sequence[CheckoutLine],
    visitor_id: str = "",
    payment_mode: str = "",
    use_credit: bool = False,
    with_order: Callable[[str], Awaitable[object]] | None = None,
    now: datetime | None = None,
) -> OrderRead:
    """Book the signed-in patient's held times as one order, paid through the configured gateway. Nothing
    is written unless every line passes. `visitor_id` is the connection's anonymous cart, whose booked
    items are removed as well as the user's. `payment_mode`: a mode the owners allow ("" for the
    recommended one, `_payment_choice`); `use_credit`: pay what the patient's wallet credit covers with it.
    `with_order(order id)`: called once the order is written, before its card payment starts (one checkout
    places the cart's store order there, linked to this one, so the one payment covers both)."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    lines = list(lines)
    if not lines:
        raise ValidationFailed(NOTHING_TO_BOOK)
    if len(lines) > MAX_LINES:
        raise ValidationFailed(TOO_MANY)
    if len({line.hold_id for line in lines}) != len(lines):
        raise ValidationFailed(TWICE)
    number = _new_order_number()
    checked = await _checked_visits(session, account, lines, now, number)
    visits = checked.visits

    subtotal = sum((v.price.charge for v in visits), Decimal("0")).quantize(CENT)
    fee = platform_fee(subtotal)
    choice = await choose_payment(
        session=session,
        patient_id=account.id,
        mode=payment_mode,
        use_credit=use_credit,
        total=cents(subtotal + fee),
    )
    gateway = choice.gateway
    order = Order(
        number=await _order_number(session) if checked.number_taken else number,
        patient_id=account.id,
        status=OrderStatus.pending,
        subtotal=subtotal,
        platform_fee=fee,
        total=subtotal + fee,
        payment_method=gateway.name,
        created_at=now,  # when it was placed: the visits' free-cancellation grace counts from here
    )
    session.add(order)
    await session.flush()
    await spend_wallet_credit(
        session=session, order_id=order.id, patient_id=account.id, amount=choice.credit, at=now
    )
    reference = await gateway.authorize(order, order.total)
    try:
        await lock_providers(session, [visit.hold.provider_id for visit in visits])
        await _book_holds(session, account, order, visits, now)
    except DBAPIError as error:
        if not lost_a_race(error):
            raise
        raise ValidationFailed(TAKEN) from None
    transactions = [
        Transaction(
            order_id=order.id,
            appointment_id=visit.hold.id,
            user_id=account.id,
            type=TransactionType.booking,
            status=TransactionStatus.pending,
            amount=visit.price.charge,
            description=(
                f"{visit.service.name} with "
                f"{display_name(visit.provider.first_name, visit.provider.last_name)}"
            )[:200],
            gateway=gateway.name,
            gateway_reference=reference,
        )
        for visit in visits
    ] + [
        Transaction(
            order_id=order.id,
            user_id=account.id,
            type=TransactionType.fee,
            status=TransactionStatus.pending,
            amount=fee,
            description=f"Platform fee ({PLATFORM_FEE_PERCENT}%)",
            gateway=gateway.name,
            gateway_reference=reference,
        )
    ]
    # A gateway that confirms later (a card on Stripe Checkout): the order awaits payment, and its money
    # enters the ledger only when the processor confirms it (app/services/payments `_webhook`).
    awaiting = gateway.confirms_later
    if gateway.collects_at_order and not awaiting:
        for transaction in transactions:
            await gateway.settle(transaction, at=now)
    session.add_all(transactions)
    await session.flush()
    if not awaiting:
        # The ledger posts in this transaction; the patient and the providers hear of it after the commit.
        placed = OrderPlaced(
            order_id=order.id,
            patient_id=account.id,
            visits=tuple(
                BookedVisit(v.hold.id, v.hold.provider_id, v.price.charge, v.price.original) for v in visits
            ),
            fee=fee,
            paid_ahead=gateway.collects_at_order,
            at=now,
        )
        await publish_event(session, placed)

    booked_items = tuple(line.cart_item_id for line in lines if line.cart_item_id)  # one per booked visit
    await publish_event(
        session,
        CheckedOut(
            user_id=account.id, visitor_id=visitor_id or None, cart_item_ids=booked_items, product_ids=()
        ),
    )

    # Built from the rows in hand: the order, the booked holds and the transactions just written.
    appointments = [
        read_of(
            v.hold,
            provider=v.provider,
            service=v.service,
            patient_name=account.name,
            order_number=order.number,
            reviewed=False,
            booked_at=order.created_at,
        )
        for v in visits
    ]
    read = _assemble(order, appointments, transactions)
    if with_order is not None:  # one checkout: the cart's products, ordered with the visits
        await with_order(order.id)
    if awaiting:
        # The patient and the providers hear of the visits once the payment is confirmed (PaymentCaptured).
        url = await gateway.start_payment(session=session, order=order, patient=account, now=now)
        return read.model_copy(
            update={"payment_status": CardPaymentStatus.awaiting.value, "payment_url": url}
        )
    return read
