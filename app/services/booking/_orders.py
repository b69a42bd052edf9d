"""Checkout: choosing a time, holding it for 10 minutes, and placing the order that books the held visits.

- `checkout_options` lists, for a service, a place of visit and a ZIP code, the open start times of every
  eligible provider on one calendar day of the visitor, and their union ("first available").
- `hold_slot` reserves one start time for the signed-in patient: an appointment in status `held` that
  expires after HOLD_MINUTES. The availability check runs first; the database's no-overlap rule decides
  between two patients taking the same time at once (the loser gets TAKEN, the rest of its unit of work
  is untouched).
- `place_order` books the patient's holds in one unit of work: every hold, place and address is checked
  again before the payment gateway is asked for anything; then the order, the `pending` appointments and
  their transactions are written, the booked items leave the cart and the e-mails go out.

Prices: a hold records the price computed when it was taken, and that price stays valid while the hold
lives (the patient saw it; a sale ending during checkout does not raise it). Placing the order computes the
current price again and charges the lower of the two.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.accounts._admin import is_admin, require_account
from app.services.appointments._emails import send_visit_email
from app.services.appointments._lifecycle import appointment_read, appointment_reads
from app.services.booking._payments import PaymentGateway, get_gateway
from app.services.cart._cart import PLATFORM_FEE_PERCENT, CartOwner, platform_fee, remove_items
from app.services.catalog._pricing import CENT, price_for
from app.services.errors import NotFound, ValidationFailed
from app.services.providers._availability import live_appointment, load_blocks, load_hours, slot_rules
from app.services.providers._profiles import LISTED, day_bounds, display_name
from app.services.providers._search import ORDER_BY_RATING, visitor_zone
from app.services.providers._slots import Hours, Interval, SlotRules, generate_slots
from app.settings import get_settings
from models.account import AccountRead
from models.booking import (
    Appointment,
    AppointmentRead,
    AppointmentStatus,
    Order,
    OrderRead,
    OrderStatus,
    Transaction,
    TransactionRead,
    TransactionStatus,
    TransactionType,
    overlap_refused,
)
from models.catalog import Price, Service, ServiceCategory, ServiceLocation
from models.identity import User, as_utc
from models.provider import Provider, ProviderService, ProviderZip, RatingRead

HOLD_MINUTES = 10
NOTES_MAX = 2000
MAX_LINES = 20  # visits in one order
MAX_LISTED = 20  # providers listed by checkout_options
ORDER_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O or 1/I to misread on the phone
ZIP_RE = re.compile(r"^\d{5}$")
STATE_RE = re.compile(r"^[A-Z]{2}$")
ADDRESSED = (ServiceLocation.home, ServiceLocation.office, ServiceLocation.corporate_venue)

TAKEN = "That time was just booked by someone else. Please choose another time."
NOT_OPEN = "That time isn't open for booking. Please choose one of the times offered."
SAME_TIME = "You already have a visit at that time."
WITH_YOURSELF = "You can't book a visit with yourself."
NO_SERVICE = "This service can't be booked right now."
BAD_PLACE = "{service} isn't offered for this place of visit ({place})."
BAD_ZIP = "Enter a 5-digit ZIP code."
NO_PROVIDER = "This provider doesn't offer {service} for {where}."
NOBODY = "No provider offers {service} for {where}."
HOLD_GONE = "This time is no longer held for you."
NOTHING_TO_BOOK = "Choose a time for at least one visit."
TOO_MANY = f"You can book at most {MAX_LINES} visits at once."
TWICE = "Each held time can be booked only once."
UNKNOWN_HOLD = "A time you chose is no longer held. Please choose the times again."
NOT_HELD = "The time for {service} is no longer held for you. Please choose a time again."
EXPIRED = "The time held for {service} has expired. Please choose a time again."
WITHDRAWN = "{provider} no longer offers {service}. Please choose another provider."
PROVIDER_PLACE = "{provider} doesn't offer {service} for this place of visit ({place})."
NEED_ZIP = "Enter a 5-digit ZIP code for {service}."
NOT_COVERED = "{provider} doesn't travel to ZIP code {zip}. Please choose another provider for {service}."
NEED_STREET = "Enter the street address for {service} (up to 200 characters)."
NEED_CITY = "Enter the city for {service} (up to 100 characters)."
NEED_STATE = "Enter the 2-letter state for {service}, such as NY."
LONG_NOTES = f"Intake notes for {{service}} can be at most {NOTES_MAX} characters."
NO_ORDER = "No order has this id."


class CheckoutLine(BaseModel):
    """One visit to book: the hold taken for it, the cart item it came from (its SPEC id, empty when the
    visit was not in the cart), and where it happens."""

    model_config = ConfigDict(frozen=True)

    hold_id: str
    cart_item_id: str = ""
    location: ServiceLocation
    address_line: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    notes: str = ""


class ProviderTimes(BaseModel):
    """A provider who can do the visit, what it costs with them and when they can start it that day."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    name: str
    rating: RatingRead
    price: Price
    times: list[datetime]  # UTC, ascending


class CheckoutOptions(BaseModel):
    """What a checkout screen offers for one visit on one day of the visitor's calendar."""

    model_config = ConfigDict(frozen=True)

    service_slug: str
    service_name: str
    duration_minutes: int
    location: ServiceLocation
    zip_code: str
    day: date
    time_zone: str
    providers: list[ProviderTimes]  # best rated first, at most MAX_LISTED
    first_available: list[datetime]  # every time at least one eligible provider can start


@dataclass(frozen=True)
class _Candidate:
    provider: Provider
    base_price: Decimal  # the provider's own price, before any sale


# ---- shared checks ------------------------------------------------------------------------------
def _now(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


async def _bookable_service(session: AsyncSession, slug: str) -> tuple[Service, str]:
    """The active service with this slug and its category slug."""
    found = (
        await session.execute(
            select(Service, ServiceCategory.slug)
            .join(ServiceCategory, ServiceCategory.id == Service.category_id)
            .where(Service.slug == slug, Service.is_active.is_(True))
        )
    ).first()
    if found is None:
        raise NotFound(NO_SERVICE)
    return found[0], found[1]


def _place_zip(service: Service, location: ServiceLocation, zip_code: str) -> str:
    """The ZIP code that decides who can come ('' for a virtual visit), once the place is allowed."""
    if not service.location_mask & location.bit:
        raise ValidationFailed(BAD_PLACE.format(service=service.name, place=location.label))
    if location == ServiceLocation.virtual:
        return ""
    zip_code = zip_code.strip()
    if not ZIP_RE.match(zip_code):
        raise ValidationFailed(BAD_ZIP)
    return zip_code


async def _candidates(
    session: AsyncSession,
    service: Service,
    location: ServiceLocation,
    zip_code: str,
    provider_id: str | None,
) -> list[_Candidate]:
    """Listed providers who offer the service at this place and (unless virtual) travel to the ZIP code,
    best rated first."""
    statement = (
        select(Provider, ProviderService.price)
        .join(ProviderService, ProviderService.provider_id == Provider.id)
        .where(
            *LISTED,
            ProviderService.service_id == service.id,
            ProviderService.location_mask.op("&")(location.bit) != 0,
        )
        .order_by(*ORDER_BY_RATING)
    )
    if zip_code:
        statement = statement.where(
            Provider.id.in_(select(ProviderZip.provider_id).where(ProviderZip.zip_code == zip_code))
        )
    if provider_id is not None:
        statement = statement.where(Provider.id == provider_id)
    return [_Candidate(provider, price) for provider, price in (await session.execute(statement)).all()]


@dataclass(frozen=True)
class _Calendars:
    """Weekly hours, busy time and time off of some providers around [not_before, before)."""

    rules: SlotRules
    now: datetime
    not_before: datetime
    before: datetime
    hours: dict[str, tuple[Hours, ...]]
    busy: dict[str, list[Interval]]
    blocked: dict[str, list[Interval]]

    def starts(self, provider: Provider, *, with_busy: bool = True) -> list[datetime]:
        """The provider's open start times in the window (ignoring booked and held time if not `with_busy`)."""
        return list(
            generate_slots(
                hours=self.hours.get(provider.id, ()),
                time_zone=provider.time_zone,
                now=self.now,
                rules=self.rules,
                busy=self.busy.get(provider.id, ()) if with_busy else (),
                blocked=self.blocked.get(provider.id, ()),
                not_before=self.not_before,
                before=self.before,
            )
        )


async def _calendars(
    session: AsyncSession,
    providers: list[Provider],
    rules: SlotRules,
    not_before: datetime,
    before: datetime,
    now: datetime,
) -> _Calendars:
    """The calendars of all `providers` in three queries (none for no provider)."""
    hours: dict[str, tuple[Hours, ...]] = {}
    busy: dict[str, list[Interval]] = {}
    blocked: dict[str, list[Interval]] = {}
    if providers:
        ids = [p.id for p in providers]
        # Room for a visit starting at the end of the window, and the travel buffer on both sides.
        buffer = timedelta(minutes=rules.buffer_minutes)
        reach = before + timedelta(minutes=rules.duration_minutes) + buffer
        hours = await load_hours(session, ids)
        busy, blocked = await load_blocks(session, ids, not_before - buffer, reach, now)
    return _Calendars(rules, now, not_before, before, hours, busy, blocked)


async def _open_at(
    session: AsyncSession, candidates: list[_Candidate], minutes: int, start: datetime, now: datetime
) -> list[_Candidate]:
    """The candidates who can start the visit at `start` (notice, horizon, hours, time off, busy time and
    its travel buffer), in the same order. None: TAKEN when busy time alone is in the way, else NOT_OPEN."""
    providers = [c.provider for c in candidates]
    calendars = await _calendars(
        session, providers, slot_rules(minutes), start, start + timedelta(minutes=1), now
    )
    free = [c for c in candidates if calendars.starts(c.provider) == [start]]
    if not free:
        taken = any(calendars.starts(p, with_busy=False) == [start] for p in providers)
        raise ValidationFailed(TAKEN if taken else NOT_OPEN)
    return free


# ---- reads --------------------------------------------------------------------------------------
async def checkout_options(
    *,
    session: AsyncSession,
    service_slug: str,
    zip_code: str,
    location: ServiceLocation,
    day: date,
    time_zone: str,
    provider_id: str | None = None,
    now: datetime | None = None,
) -> CheckoutOptions:
    """Open start times on `day` (a calendar day in the visitor's `time_zone`) of every provider who can do
    the visit, or of `provider_id` only, in a fixed number of queries."""
    now = _now(now)
    time_zone = visitor_zone(time_zone)
    location = ServiceLocation(location)
    service, category_slug = await _bookable_service(session, service_slug)
    zip_code = _place_zip(service, location, zip_code)
    candidates = await _candidates(session, service, location, zip_code, provider_id)
    start, end = day_bounds(day, time_zone)
    calendars = await _calendars(
        session, [c.provider for c in candidates], slot_rules(service.duration_minutes), start, end, now
    )
    times = {c.provider.id: calendars.starts(c.provider) for c in candidates}
    return CheckoutOptions(
        service_slug=service.slug,
        service_name=service.name,
        duration_minutes=service.duration_minutes,
        location=location,
        zip_code=zip_code,
        day=day,
        time_zone=time_zone,
        providers=[
            ProviderTimes(
                provider_id=c.provider.id,
                name=display_name(c.provider.first_name, c.provider.last_name),
                rating=RatingRead(average=Decimal(c.provider.rating_average), count=c.provider.review_count),
                price=price_for(category_slug=category_slug, price=c.base_price, at=now),
                times=times[c.provider.id],
            )
            for c in candidates[:MAX_LISTED]
        ],
        first_available=sorted({moment for found in times.values() for moment in found}),
    )


async def _order_read(session: AsyncSession, order: Order) -> OrderRead:
    appointments = (
        await session.scalars(
            select(Appointment)
            .where(Appointment.order_id == order.id)
            .order_by(Appointment.starts_at, Appointment.id)
            .execution_options(populate_existing=True)
        )
    ).all()
    position = {row.id: index for index, row in enumerate(appointments)}
    transactions = sorted(
        (await session.scalars(select(Transaction).where(Transaction.order_id == order.id))).all(),
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
        appointments=await appointment_reads(session, appointments),
        transactions=[
            TransactionRead(
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
            for t in transactions
        ],
    )


async def get_order(*, session: AsyncSession, actor: Principal, order_id: str) -> OrderRead:
    """An order of the signed-in patient (any order for an owner or admin)."""
    account = await require_account(session=session, actor=actor)
    order = await session.get(Order, order_id)
    if order is None or (order.patient_id != account.id and not is_admin(account)):
        raise NotFound(NO_ORDER)
    return await _order_read(session, order)


# ---- holds --------------------------------------------------------------------------------------
async def hold_slot(
    *,
    session: AsyncSession,
    actor: Principal,
    service_slug: str,
    provider_id: str | None,
    starts_at: datetime,
    zip_code: str,
    location: ServiceLocation,
    replaces: str | None = None,
    now: datetime | None = None,
) -> AppointmentRead:
    """Hold `starts_at` for the signed-in patient for HOLD_MINUTES: with `provider_id`, or with the best
    rated eligible provider free then ("first available"). `replaces` is the patient's earlier hold for the
    same checkout line, released in the same unit of work."""
    account = await require_account(session=session, actor=actor)
    now = _now(now)
    location = ServiceLocation(location)
    service, category_slug = await _bookable_service(session, service_slug)
    zip_code = _place_zip(service, location, zip_code)
    if starts_at.tzinfo is None:
        raise ValidationFailed(NOT_OPEN)
    starts_at = starts_at.astimezone(UTC)
    ends_at = starts_at + timedelta(minutes=service.duration_minutes)

    candidates = await _candidates(session, service, location, zip_code, provider_id)
    if provider_id is not None and candidates and candidates[0].provider.user_id == account.id:
        raise ValidationFailed(WITH_YOURSELF)
    candidates = [c for c in candidates if c.provider.user_id != account.id]
    if not candidates:
        where = f"{location.label} visits" + (f" in ZIP code {zip_code}" if zip_code else "")
        message = NO_PROVIDER if provider_id is not None else NOBODY
        raise ValidationFailed(message.format(service=service.name, where=where))

    if replaces:
        await session.execute(
            delete(Appointment).where(
                Appointment.id == replaces,
                Appointment.patient_id == account.id,
                Appointment.status == AppointmentStatus.held,
            )
        )
    clash = await session.scalar(
        select(Appointment.id)
        .where(
            Appointment.patient_id == account.id,
            live_appointment(now),
            Appointment.starts_at < ends_at,
            Appointment.ends_at > starts_at,
        )
        .limit(1)
    )
    if clash is not None:
        raise ValidationFailed(SAME_TIME)
    free = await _open_at(session, candidates, service.duration_minutes, starts_at, now)
    # Expired holds no longer count, but the no-overlap rule still sees their rows. Being a write, this also
    # opens the transaction on SQLite (pysqlite begins one only before a write): a savepoint opened first
    # would itself be the transaction, and releasing it would commit.
    await session.execute(
        delete(Appointment).where(
            Appointment.provider_id.in_([c.provider.id for c in free]),
            Appointment.status == AppointmentStatus.held,
            Appointment.hold_expires_at <= now,
        )
    )
    busy_until = ends_at + timedelta(minutes=get_settings().slot_travel_buffer_minutes)
    for candidate in free:
        # Writers of one provider's time queue here (PostgreSQL). Without it, a second insert waiting on the
        # exclusion constraint deadlocks with the first transaction's next write of its own row (place_order
        # in the same unit of work); with it, the second insert fails at once when the first commits.
        await session.execute(
            select(Provider.id).where(Provider.id == candidate.provider.id).with_for_update(key_share=True)
        )
        price = price_for(category_slug=category_slug, price=candidate.base_price, at=now)
        row = Appointment(
            patient_id=account.id,
            provider_id=candidate.provider.id,
            service_id=service.id,
            status=AppointmentStatus.held,
            starts_at=starts_at,
            ends_at=ends_at,
            busy_until=busy_until,
            hold_expires_at=now + timedelta(minutes=HOLD_MINUTES),
            location=location,
            zip_code=zip_code,
            price=price.charge,
            original_price=price.original,
        )
        try:
            async with session.begin_nested():
                session.add(row)
        except IntegrityError as error:
            if not overlap_refused(error):
                raise
            continue  # someone took this provider's time a moment ago: try the next one, if any
        return await appointment_read(session, row)
    raise ValidationFailed(TAKEN)


async def release_hold(*, session: AsyncSession, actor: Principal, hold_id: str) -> None:
    """Give back a time the signed-in patient holds."""
    account = await require_account(session=session, actor=actor)
    result = await session.execute(
        delete(Appointment).where(
            Appointment.id == hold_id,
            Appointment.patient_id == account.id,
            Appointment.status == AppointmentStatus.held,
        )
    )
    if result.rowcount != 1:
        raise NotFound(HOLD_GONE)


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
    covered: set[tuple[str, str]],
) -> tuple[str, str, str, str]:
    """(zip, street, city, state) of a line once its place is allowed: virtual visits need no address, a
    clinic visit the provider's area ZIP code, the other places a full address in the provider's area."""
    names = {"service": service.name, "provider": display_name(provider.first_name, provider.last_name)}
    location = line.location
    if not (service.location_mask & location.bit and offer.location_mask & location.bit):
        raise ValidationFailed(PROVIDER_PLACE.format(**names, place=location.label))
    if location == ServiceLocation.virtual:
        return "", "", "", ""
    zip_code = line.zip_code.strip()
    if not ZIP_RE.match(zip_code):
        raise ValidationFailed(NEED_ZIP.format(**names))
    if (provider.id, zip_code) not in covered:
        raise ValidationFailed(NOT_COVERED.format(**names, zip=zip_code))
    if location not in ADDRESSED:
        return zip_code, "", "", ""
    street, city = " ".join(line.address_line.split()), " ".join(line.city.split())
    state = line.state.strip().upper()
    if not 0 < len(street) <= 200:
        raise ValidationFailed(NEED_STREET.format(**names))
    if not 0 < len(city) <= 100:
        raise ValidationFailed(NEED_CITY.format(**names))
    if not STATE_RE.match(state):
        raise ValidationFailed(NEED_STATE.format(**names))
    return zip_code, street, city, state


async def _checked_visits(
    session: AsyncSession, account: AccountRead, lines: list[CheckoutLine], now: datetime
) -> list[_Visit]:
    """Every line re-checked against the database (five queries, whatever the number of lines)."""
    holds = {
        row.id: row
        for row in (
            await session.scalars(select(Appointment).where(Appointment.id.in_([x.hold_id for x in lines])))
        ).all()
    }
    if len(holds) != len(lines):
        raise ValidationFailed(UNKNOWN_HOLD)
    provider_ids = {h.provider_id for h in holds.values()}
    service_ids = {h.service_id for h in holds.values()}
    services = {
        service.id: (service, category_slug)
        for service, category_slug in await session.execute(
            select(Service, ServiceCategory.slug)
            .join(ServiceCategory, ServiceCategory.id == Service.category_id)
            .where(Service.id.in_(service_ids))
        )
    }
    providers = {
        p.id: p for p in (await session.scalars(select(Provider).where(Provider.id.in_(provider_ids)))).all()
    }
    offers = {
        (o.provider_id, o.service_id): o
        for o in (
            await session.scalars(
                select(ProviderService).where(
                    ProviderService.provider_id.in_(provider_ids), ProviderService.service_id.in_(service_ids)
                )
            )
        ).all()
    }
    covered = set(
        (
            await session.execute(
                select(ProviderZip.provider_id, ProviderZip.zip_code).where(
                    ProviderZip.provider_id.in_(provider_ids),
                    ProviderZip.zip_code.in_({x.zip_code.strip() for x in lines}),
                )
            )
        ).all()
    )
    visits = []
    for line in lines:
        hold = holds[line.hold_id]
        service, category_slug = services[hold.service_id]
        provider = providers[hold.provider_id]
        if hold.patient_id != account.id or hold.status != AppointmentStatus.held:
            raise ValidationFailed(NOT_HELD.format(service=service.name))
        if as_utc(hold.hold_expires_at) <= now:
            raise ValidationFailed(EXPIRED.format(service=service.name))
        offer = offers.get((provider.id, service.id))
        if offer is None or not (service.is_active and provider.is_verified and provider.is_active):
            name = display_name(provider.first_name, provider.last_name)
            raise ValidationFailed(WITHDRAWN.format(provider=name, service=service.name))
        zip_code, street, city, state = _place(line, service, provider, offer, covered)
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
    return visits


async def _order_number(session: AsyncSession) -> str:
    """A short code nobody has yet, such as 'MV-7K3Q9P' (32⁶ codes: a retry is very rare)."""
    while True:
        number = "MV-" + "".join(secrets.choice(ORDER_ALPHABET) for _ in range(6))
        if await session.scalar(select(Order.id).where(Order.number == number)) is None:
            return number


def _money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


async def _send_booking_emails(
    session: AsyncSession,
    patient: AccountRead,
    order: OrderRead,
    providers: dict[str, Provider],
    gateway: PaymentGateway,
) -> None:
    """The patient's confirmation and each provider's 'New visit request', times in the provider's zone
    (one confirmation per zone in the rare order whose providers live in different zones)."""
    by_zone: dict[str, list[AppointmentRead]] = {}
    for visit in order.appointments:
        by_zone.setdefault(providers[visit.provider_id].time_zone, []).append(visit)
    if patient.email:
        for time_zone, visits in by_zone.items():
            await send_visit_email(
                session=session,
                to=patient.email,
                subject=f"Booking confirmation {order.number}",
                heading="Your visits are booked",
                intro=(
                    f"Thank you for booking with {get_settings().brand_name}. Order {order.number}: your "
                    "provider will confirm each visit shortly. Payment: "
                    f"{gateway.label}, {_money(order.total)} including the {PLATFORM_FEE_PERCENT}% platform fee."
                ),
                appointments=visits,
                time_zone=time_zone,
                closing="You can follow and manage your visits under My Appointments.",
            )
    user_ids = {p.user_id for p in providers.values() if p.user_id}
    emails = dict(
        (await session.execute(select(User.id, User.email).where(User.id.in_(user_ids)))).all()
        if user_ids
        else []
    )
    for provider in providers.values():
        address = emails.get(provider.user_id or "")
        if not address:
            continue
        visits = [v for v in order.appointments if v.provider_id == provider.id]
        count = "a visit" if len(visits) == 1 else f"{len(visits)} visits"
        await send_visit_email(
            session=session,
            to=address,
            subject="New visit request",
            heading="New visit request",
            intro=(
                f"{patient.name} requested {count} (order {order.number}). Please confirm under Appointments "
                "in your dashboard."
            ),
            appointments=visits,
            time_zone=provider.time_zone,
        )


async def place_order(
    *,
    session: AsyncSession,
    actor: Principal,
    lines: Sequence[CheckoutLine],
    visitor_id: str = "",
    now: datetime | None = None,
) -> OrderRead:
    """Book the signed-in patient's held times as one order, paid through the configured gateway. Nothing
    is written unless every line passes. `visitor_id` is the connection's anonymous cart, whose booked
    items are removed as well as the user's."""
    account = await require_account(session=session, actor=actor)
    now = _now(now)
    lines = list(lines)
    if not lines:
        raise ValidationFailed(NOTHING_TO_BOOK)
    if len(lines) > MAX_LINES:
        raise ValidationFailed(TOO_MANY)
    if len({line.hold_id for line in lines}) != len(lines):
        raise ValidationFailed(TWICE)
    visits = await _checked_visits(session, account, lines, now)

    subtotal = sum((v.price.charge for v in visits), Decimal("0")).quantize(CENT)
    fee = platform_fee(subtotal)
    gateway = get_gateway()
    order = Order(
        number=await _order_number(session),
        patient_id=account.id,
        status=OrderStatus.pending,
        subtotal=subtotal,
        platform_fee=fee,
        total=subtotal + fee,
        payment_method=gateway.name,
    )
    session.add(order)
    await session.flush()
    reference = await gateway.authorize(order, order.total)
    for visit in visits:
        # Conditional, so a second checkout of the same hold (another tab) finds nothing left to book.
        booked = await session.execute(
            update(Appointment)
            .where(
                Appointment.id == visit.hold.id,
                Appointment.patient_id == account.id,
                Appointment.status == AppointmentStatus.held,
                Appointment.hold_expires_at > now,
            )
            .values(
                order_id=order.id,
                status=AppointmentStatus.pending,
                hold_expires_at=None,
                location=visit.line.location,
                address_line=visit.address_line,
                city=visit.city,
                state=visit.state,
                zip_code=visit.zip_code,
                notes=visit.notes,
                price=visit.price.charge,
                original_price=visit.price.original,
            )
            .execution_options(synchronize_session=False)
        )
        if booked.rowcount != 1:
            raise ValidationFailed(NOT_HELD.format(service=visit.service.name))
    session.add_all(
        [
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
        ]
        + [
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
    )
    await session.flush()

    booked_items = [line.cart_item_id for line in lines if line.cart_item_id]  # one per booked visit
    await remove_items(session=session, owner=CartOwner(user_id=account.id), item_ids=booked_items)
    if visitor_id:
        await remove_items(session=session, owner=CartOwner(visitor_id=visitor_id), item_ids=booked_items)

    read = await _order_read(session, order)
    providers = {v.provider.id: v.provider for v in visits}
    await _send_booking_emails(session, account, read, providers, gateway)
    return read
